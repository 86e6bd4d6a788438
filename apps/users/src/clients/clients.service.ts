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
  ClientName,
  ResolvedCredential,
  RevokeKeysReply,
  RotateKeysReply,
  SetRateLimitRequest,
  SetFxMarginRequest,
  ClientPricingReply,
  DEFAULT_CURRENCY,
  credentialHash,
  toDecimalString,
} from '@hotel/contracts';
import { DomainError, requireAmountFits } from '@hotel/platform';
import { FinanceTokensService } from '../finance/finance-tokens.service';
import { UsersRepository } from '../users/users.repository';
import { ClientsRepository, CredentialHashes, CredentialSelection } from './clients.repository';
import { CredentialEvents } from './credential-events';
import { newSecret } from './credential-secrets';

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
    private readonly financeTokens: FinanceTokensService,
  ) {}

  async createClient(request: CreateClientRequest): Promise<Required<ClientCredentials>> {
    const currency = request.currency ?? DEFAULT_CURRENCY;
    if (request.creditLimit !== undefined) requireAmountFits('creditLimit', request.creditLimit, currency);
    const { credentials, hashes } = newCredentials(['live', 'sandbox', 'backend']);
    const clientId = await this.clients.createClient({ name: request.name.trim(), creditLimit: toDecimalString(request.creditLimit ?? 0), currency }, hashes);
    return { clientId, ...credentials } as Required<ClientCredentials>;
  }

  /**
   * Revokes the client's active credentials of the given kinds and issues new keys. Its
   * users' tokens go too when asked (`userTokens`), and otherwise those a revoked backend
   * token issued, unless `keepUserTokens`.
   */
  async rotateKeys(request: ClientKeysRequest): Promise<RotateKeysReply> {
    const selection = selectionOf(request);
    const { credentials, hashes } = newCredentials(request.kinds);
    const revoked = await this.clients.replaceCredentials(request.clientId, selection, hashes);
    if (!revoked) throw DomainError.notFound(`client ${request.clientId}`);
    await this.events.revoked(request.clientId);
    return { clientId: request.clientId, ...credentials, revokedUserTokens: revoked.revokedUserTokens };
  }

  /** Revokes as rotateKeys does, issuing nothing. */
  async revokeKeys(request: ClientKeysRequest): Promise<RevokeKeysReply> {
    const revoked = await this.clients.replaceCredentials(request.clientId, selectionOf(request), {});
    if (!revoked) throw DomainError.notFound(`client ${request.clientId}`);
    await this.events.revoked(request.clientId);
    return { clientId: request.clientId, ...revoked };
  }

  /**
   * Deletes a client: every key, backend token and user token of it stops working at
   * once (gateways are told), and no new ones can be issued. The row stays: bookings
   * and the ledger refer to it. A repeat answers the same time and revokes nothing more.
   */
  async deleteClient(clientId: number): Promise<DeleteClientReply> {
    const deleted = await this.clients.deleteClient(clientId);
    if (!deleted) throw DomainError.notFound(`client ${clientId}`);
    await this.events.revoked(clientId);
    return { clientId, deletedAt: deleted.deletedAt.toISOString(), revoked: deleted.revoked, revokedUserTokens: deleted.revokedUserTokens };
  }

  async terms(clientId: number): Promise<ClientAccountTerms> {
    const terms = await this.clients.findTerms(clientId);
    if (!terms) throw DomainError.notFound(`client ${clientId}`);
    return terms;
  }

  search(search: string | undefined, limit: number): Promise<ClientName[]> {
    return this.clients.search(search, limit);
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

  /** The margin added to the client's conversions from now on; gateways drop what they cached of the client. */
  async setFxMargin(request: SetFxMarginRequest): Promise<ClientPricingReply> {
    const pricing = await this.clients.setFxMargin(request.clientId, request.percent);
    if (!pricing) throw DomainError.notFound(`client ${request.clientId}`);
    await this.events.revoked(request.clientId);
    return { clientId: request.clientId, ...pricing };
  }

  /** Who a secret (by its hash) belongs to; anything unknown, revoked or expired is 401. */
  async resolveCredential(secretHash: string, userToken: boolean): Promise<ResolvedCredential> {
    if (userToken) {
      const holder = await this.users.findActiveTokenHolder(secretHash);
      if (holder) return { clientId: holder.clientId, userId: holder.userId, role: 'user', sandbox: false, rateLimit: holder.rateLimit, pricing: holder.pricing };
    } else {
      const credential = await this.clients.findActiveCredential(secretHash);
      if (credential) {
        return {
          clientId: credential.clientId,
          credentialId: credential.id,
          userId: null,
          role: credential.kind === 'backend' ? 'backend' : 'api',
          sandbox: credential.kind === 'sandbox',
          rateLimit: credential.rateLimit,
          pricing: credential.pricing,
        };
      }
      const finance = await this.financeTokens.resolve(secretHash);
      if (finance) return finance;
    }
    throw new DomainError('UNAUTHORIZED', 'invalid, revoked or expired credential');
  }

}

/** New secrets of these kinds: shown once to the caller, stored only as their hashes. */
function newCredentials(kinds: CredentialKind[]): { credentials: Omit<ClientCredentials, 'clientId'>; hashes: CredentialHashes } {
  const credentials: Omit<ClientCredentials, 'clientId'> = {};
  const hashes: CredentialHashes = {};
  for (const kind of kinds) {
    const secret = newSecret(kind);
    credentials[CREDENTIAL_FIELD[kind]] = secret;
    hashes[kind] = credentialHash(secret);
  }
  return { credentials, hashes };
}

function selectionOf(request: ClientKeysRequest): CredentialSelection {
  if (request.kinds.length === 0 && !request.userTokens) {
    throw DomainError.validation([{ field: 'kinds', message: 'name at least one kind of key, or userTokens' }]);
  }
  if (request.keepUserTokens && (request.userTokens || !request.kinds.includes('backend'))) {
    throw DomainError.validation([{ field: 'keepUserTokens', message: 'keepUserTokens applies only to the backend token, without userTokens' }]);
  }
  return { kinds: request.kinds, userTokens: request.userTokens ?? false, keepUserTokens: request.keepUserTokens ?? false };
}
