import { Injectable } from '@nestjs/common';
import {
  ClientAccountTerms,
  ClientCredentials,
  ClientKeysRequest,
  CreateClientRequest,
  CredentialKind,
  ClientRateLimitReply,
  DeleteClientReply,
  ListClientsReply,
  ResolvedCredential,
  RevokeKeysReply,
  SetRateLimitRequest,
  toDecimalString,
} from '@hotel/contracts';
import { DomainError } from '@hotel/platform';
import { UsersRepository } from '../users/users.repository';
import { ClientsRepository } from './clients.repository';
import { CredentialEvents } from './credential-events';
import { hashSecret, newSecret } from './credential-secrets';

const CREDENTIAL_FIELD: Record<CredentialKind, 'apiKey' | 'sandboxApiKey' | 'backendToken'> = {
  live: 'apiKey',
  sandbox: 'sandboxApiKey',
  backend: 'backendToken',
};

@Injectable()
export class ClientsService {
  constructor(
    private readonly clients: ClientsRepository,
    private readonly users: UsersRepository,
    private readonly events: CredentialEvents,
  ) {}

  async createClient(request: CreateClientRequest): Promise<Required<ClientCredentials>> {
    return this.clients.transaction(async (manager) => {
      const clientId = await this.clients.insertClient(
        manager,
        request.name.trim(),
        toDecimalString(request.creditLimit ?? 0),
        request.currency ?? 'USD',
      );
      const credentials = await this.issueCredentials(manager, clientId, ['live', 'sandbox', 'backend']);
      return credentials as Required<ClientCredentials>;
    });
  }

  /** Revokes the client's active credentials of the given kinds (and its users' tokens, if asked) and issues new keys. */
  async rotateKeys(request: ClientKeysRequest): Promise<ClientCredentials> {
    const credentials = await this.clients.transaction(async (manager) => {
      await this.revokeInTransaction(manager, request);
      return this.issueCredentials(manager, request.clientId, request.kinds);
    });
    await this.events.revoked(request.clientId);
    return credentials;
  }

  async revokeKeys(request: ClientKeysRequest): Promise<RevokeKeysReply> {
    const reply = await this.clients.transaction((manager) => this.revokeInTransaction(manager, request));
    await this.events.revoked(request.clientId);
    return reply;
  }

  private async revokeInTransaction(manager: Parameters<ClientsRepository['revokeCredentials']>[0], request: ClientKeysRequest): Promise<RevokeKeysReply> {
    if (request.kinds.length === 0 && !request.userTokens) {
      throw DomainError.validation([{ field: 'kinds', message: 'name at least one kind of key, or userTokens' }]);
    }
    if (!(await this.clients.lockClient(manager, request.clientId))) throw DomainError.notFound(`client ${request.clientId}`);
    const revoked = request.kinds.length ? await this.clients.revokeCredentials(manager, request.clientId, request.kinds) : 0;
    const revokedUserTokens = request.userTokens ? await this.users.revokeTokens(request.clientId, undefined, manager) : 0;
    return { clientId: request.clientId, revoked, revokedUserTokens };
  }

  /**
   * Deletes a client: every key, backend token and user token of it stops working at
   * once (gateways are told), and no new ones can be issued. The row stays: bookings
   * and the ledger refer to it. A repeat answers the same time and revokes nothing more.
   */
  async deleteClient(clientId: number): Promise<DeleteClientReply> {
    const reply = await this.clients.transaction(async (manager) => {
      const deletedAt = await this.clients.markDeleted(manager, clientId);
      if (!deletedAt) throw DomainError.notFound(`client ${clientId}`);
      const revoked = await this.clients.revokeCredentials(manager, clientId, ['live', 'sandbox', 'backend']);
      const revokedUserTokens = await this.users.revokeTokens(clientId, undefined, manager);
      return { clientId, deletedAt: deletedAt.toISOString(), revoked, revokedUserTokens };
    });
    await this.events.revoked(clientId);
    return reply;
  }

  async terms(clientId: number): Promise<ClientAccountTerms> {
    const terms = await this.clients.findTerms(clientId);
    if (!terms) throw DomainError.notFound(`client ${clientId}`);
    return terms;
  }

  async listClients(): Promise<ListClientsReply> {
    return { clients: await this.clients.list() };
  }

  async setRateLimit(request: SetRateLimitRequest): Promise<ClientRateLimitReply> {
    const rateLimit = await this.clients.setRateLimit(request.clientId, request.rps ?? null, request.burst ?? null);
    if (rateLimit === undefined) throw DomainError.notFound(`client ${request.clientId}`);
    // Gateways cache the limit with the credential: they look it up again.
    await this.events.revoked(request.clientId);
    return { clientId: request.clientId, rateLimit };
  }

  /** Who a secret (by its hash) belongs to; anything unknown, revoked or expired is 401. */
  async resolveCredential(secretHash: string, userToken: boolean): Promise<ResolvedCredential> {
    if (userToken) {
      const holder = await this.users.findActiveTokenHolder(secretHash);
      if (holder) return { clientId: holder.clientId, userId: holder.userId, role: 'user', sandbox: false, rateLimit: holder.rateLimit };
    } else {
      const credential = await this.clients.findActiveCredential(secretHash);
      if (credential) {
        return {
          clientId: credential.clientId,
          userId: null,
          role: credential.kind === 'backend' ? 'backend' : 'api',
          sandbox: credential.kind === 'sandbox',
          rateLimit: credential.rateLimit,
        };
      }
    }
    throw new DomainError('UNAUTHORIZED', 'invalid, revoked or expired credential');
  }

  private async issueCredentials(
    manager: Parameters<ClientsRepository['insertCredential']>[0],
    clientId: number,
    kinds: CredentialKind[],
  ): Promise<ClientCredentials> {
    const credentials: ClientCredentials = { clientId };
    for (const kind of kinds) {
      const secret = newSecret(kind);
      await this.clients.insertCredential(manager, clientId, kind, hashSecret(secret));
      credentials[CREDENTIAL_FIELD[kind]] = secret;
    }
    return credentials;
  }
}
