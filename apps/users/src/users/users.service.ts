import { Inject, Injectable } from '@nestjs/common';
import { createHash } from 'node:crypto';
import { Actor, NewUser, UserChanges, UserTokenView, UserView, credentialHash, toDecimalString } from '@hotel/contracts';
import { DomainError, SERVICE_ENV, requireAmountFits, requireBackend } from '@hotel/platform';
import { newSecret } from '../clients/credential-secrets';
import { UsersEnv } from '../users.env';
import { ClientsRepository } from '../clients/clients.repository';
import { UsersRepository } from './users.repository';
import { CredentialEvents } from '../clients/credential-events';

/**
 * Users of a client. The backend token may do everything; a user token may only
 * read its own user. Another client's user is reported as not found, so its
 * existence does not leak.
 */
@Injectable()
export class UsersService {
  constructor(
    private readonly users: UsersRepository,
    private readonly clients: ClientsRepository,
    @Inject(SERVICE_ENV) private readonly env: UsersEnv,
    private readonly events: CredentialEvents,
  ) {}

  async create(actor: Actor, user: NewUser, idempotencyKey?: string): Promise<UserView> {
    requireBackend(actor, 'managing users');
    await this.requireLimitFits(actor.clientId, user.clientAccountLimit);
    const made = { ...user, firstName: user.firstName.trim(), lastName: user.lastName.trim(), clientAccountLimit: toDecimalString(user.clientAccountLimit) };
    if (!idempotencyKey) return this.users.create(actor.clientId, made);
    const fingerprint = createHash('sha256').update(JSON.stringify([made.firstName, made.lastName, made.email, made.phone, made.clientAccountLimit])).digest('base64url');
    return this.users.createOnce(actor.clientId, made, { key: idempotencyKey, fingerprint });
  }

  async get(actor: Actor, userId: number): Promise<UserView> {
    // The finance credential names no client: refused before a lookup could answer 404.
    if (actor.role === 'finance') requireBackend(actor, 'managing users');
    const user = await this.findOwned(actor, userId);
    if (actor.role === 'user' && actor.userId === userId) return user;
    requireBackend(actor, 'managing users');
    return user;
  }

  async update(actor: Actor, userId: number, changes: UserChanges): Promise<UserView> {
    await this.findOwned(actor, userId);
    requireBackend(actor, 'managing users');
    if (changes.clientAccountLimit !== undefined) await this.requireLimitFits(actor.clientId, changes.clientAccountLimit);
    const updated = await this.users.update(actor.clientId, userId, {
      firstName: changes.firstName?.trim(),
      lastName: changes.lastName?.trim(),
      email: changes.email,
      phone: changes.phone,
      clientAccountLimit: changes.clientAccountLimit === undefined ? undefined : toDecimalString(changes.clientAccountLimit),
    });
    if (!updated) throw DomainError.notFound(`user ${userId}`);
    await this.events.revoked(actor.clientId, userId);
    return updated;
  }

  async delete(actor: Actor, userId: number): Promise<UserView> {
    await this.findOwned(actor, userId);
    requireBackend(actor, 'managing users');
    const deleted = await this.users.softDelete(actor.clientId, userId);
    if (!deleted) throw DomainError.notFound(`user ${userId}`);
    // A deleted user's tokens are refused from now on; say so to the gateways' caches.
    await this.users.revokeTokens(actor.clientId, userId);
    await this.events.revoked(actor.clientId, userId);
    return deleted;
  }

  /** A new token of the user, recording the backend token `mintedBy` that asks, so that its rotation revokes it. */
  async issueToken(actor: Actor, userId: number, mintedBy: number | null): Promise<UserTokenView> {
    const user = await this.findOwned(actor, userId);
    requireBackend(actor, 'managing users');
    if (user.deletedAt) throw DomainError.notFound(`user ${userId}`);
    const token = newSecret('user');
    // A backend token revoked since the gateway authenticated it issues nothing.
    const expiresAt = mintedBy === null ? null : await this.users.insertToken(actor.clientId, userId, credentialHash(token), this.env.USER_TOKEN_TTL_S, mintedBy);
    if (!expiresAt) throw new DomainError('UNAUTHORIZED', 'invalid, revoked or expired credential');
    return { token, expiresAt: expiresAt.toISOString() };
  }

  /** A user's limit is in the client's account currency, in its minor unit. */
  private async requireLimitFits(clientId: number, limit: string | number): Promise<void> {
    const currency = await this.clients.currencyOf(clientId);
    if (currency) requireAmountFits('clientAccountLimit', limit, currency);
  }

  private async findOwned(actor: Actor, userId: number): Promise<UserView> {
    const user = await this.users.find(actor.clientId, userId);
    if (!user) throw DomainError.notFound(`user ${userId}`);
    return user;
  }
}
