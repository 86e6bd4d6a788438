import { Injectable } from '@nestjs/common';
import { FINANCE_NO_CLIENT, FinanceTokenCreated, FinanceTokenRevoked, ResolvedCredential, credentialHash } from '@hotel/contracts';
import { DomainError } from '@hotel/platform';
import { CredentialEvents } from '../clients/credential-events';
import { newSecret } from '../clients/credential-secrets';
import { FinanceTokensRepository } from './finance-tokens.repository';

/** The finance team's operator credentials: made and revoked by the admin command line. */
@Injectable()
export class FinanceTokensService {
  constructor(
    private readonly tokens: FinanceTokensRepository,
    private readonly events: CredentialEvents,
  ) {}

  async create(name: string): Promise<FinanceTokenCreated> {
    const token = newSecret('finance');
    const tokenId = await this.tokens.create(name.trim(), credentialHash(token));
    return { tokenId, name: name.trim(), token };
  }

  async revoke(tokenId: number): Promise<FinanceTokenRevoked> {
    const revokedAt = await this.tokens.revoke(tokenId);
    if (!revokedAt) throw DomainError.notFound(`finance token ${tokenId}`);
    // Gateways cache finance actors under the "no client" id: they forget them all.
    await this.events.revoked(FINANCE_NO_CLIENT);
    return { tokenId, revokedAt: revokedAt.toISOString() };
  }

  /** The finance actor of an active token (it names its client per request), or null. */
  async resolve(secretHash: string): Promise<ResolvedCredential | null> {
    if (!(await this.tokens.isActive(secretHash))) return null;
    return { clientId: FINANCE_NO_CLIENT, userId: null, role: 'finance', sandbox: false, rateLimit: null };
  }
}
