import { Injectable } from '@nestjs/common';
import { InjectDataSource } from '@nestjs/typeorm';
import { DataSource, EntityManager } from 'typeorm';
import { ClientAccountTerms, ClientName, ClientPricing, ClientSummary, CredentialKind, RateLimit, toDecimalString } from '@hotel/contracts';
import { UserEntity, UserTokenEntity } from '../users/user.entity';
import { ClientEntity, CredentialEntity } from './client.entity';
import { PricingColumns, pricingOf } from './pricing';
import { rateLimitOf } from './rate-limit';

export interface ActiveCredential {
  id: number;
  clientId: number;
  kind: CredentialKind;
  rateLimit: RateLimit | null;
  pricing: ClientPricing;
}

/** New credentials to store: each kind's secret hash. */
export type CredentialHashes = Partial<Record<CredentialKind, string>>;

/** What a revocation took away. */
export interface Revoked {
  revoked: number;
  revokedUserTokens: number;
}

/** Which of a client's credentials to revoke. */
export interface CredentialSelection {
  kinds: CredentialKind[];
  /** Every token of the client's users. */
  userTokens: boolean;
  /** Without `userTokens`: keep the user tokens a revoked backend token issued (they go by default). */
  keepUserTokens: boolean;
}

/**
 * Clients and their credentials (keys, backend tokens, and the client-wide
 * revocation of its users' tokens). Owns its transactions: every change to a
 * client's credentials happens under the lock of the client's row.
 */
@Injectable()
export class ClientsRepository {
  constructor(@InjectDataSource() private readonly dataSource: DataSource) {}

  /** A new client with its first credentials, in one transaction; its id. */
  createClient(client: { name: string; creditLimit: string; currency: string }, hashes: CredentialHashes): Promise<number> {
    return this.dataSource.transaction(async (manager) => {
      const inserted = await manager.getRepository(ClientEntity).insert(client);
      const clientId = inserted.identifiers[0].id as number;
      await this.insertCredentials(manager, clientId, hashes);
      return clientId;
    });
  }

  /**
   * Revokes an active client's credentials as selected (see CredentialSelection) and
   * stores the new ones, in one transaction under the client's lock. Null for an
   * unknown or deleted client.
   */
  replaceCredentials(clientId: number, selection: CredentialSelection, hashes: CredentialHashes): Promise<Revoked | null> {
    return this.dataSource.transaction(async (manager) => {
      if (!(await this.lockActiveClient(manager, clientId))) return null;
      const revoked = await this.revokeInTransaction(manager, clientId, selection);
      await this.insertCredentials(manager, clientId, hashes);
      return revoked;
    });
  }

  /** Marks a client deleted (once: a repeat keeps the first time) and revokes everything; null for an unknown client. */
  deleteClient(clientId: number): Promise<(Revoked & { deletedAt: Date }) | null> {
    return this.dataSource.transaction(async (manager) => {
      const clients = manager.getRepository(ClientEntity);
      const updated = await clients
        .createQueryBuilder()
        .update()
        .set({ deletedAt: () => 'coalesce(deleted_at, now())', updatedAt: () => 'now()' })
        .where('id = :clientId', { clientId })
        .execute();
      if (updated.affected !== 1) return null;
      const { deletedAt } = await clients.findOneOrFail({ select: { deletedAt: true }, where: { id: clientId } });
      return { deletedAt: deletedAt!, ...(await this.revokeInTransaction(manager, clientId, { kinds: ['live', 'sandbox', 'backend'], userTokens: true, keepUserTokens: false })) };
    });
  }

  /** The active credential with this hash, of a client that is not deleted. */
  async findActiveCredential(secretHash: string): Promise<ActiveCredential | null> {
    const row = await this.dataSource
      .getRepository(CredentialEntity)
      .createQueryBuilder('k')
      .innerJoin(ClientEntity, 'c', 'c.id = k.clientId')
      .select('k.id', 'id')
      .addSelect('k.clientId', 'clientId')
      .addSelect('k.kind', 'kind')
      .addSelect('c.rateLimitRps', 'rps')
      .addSelect('c.rateLimitBurst', 'burst')
      .addSelect('c.currency', 'currency')
      .addSelect('c.fxMarginPercent', 'fxMarginPercent')
      .where('k.secretHash = :secretHash', { secretHash })
      .andWhere('k.revokedAt IS NULL')
      .andWhere('c.deletedAt IS NULL')
      .getRawOne<{ id: number; clientId: number; kind: CredentialKind; rps: number | null; burst: number | null } & PricingColumns>();
    return row ? { id: row.id, clientId: row.clientId, kind: row.kind, rateLimit: rateLimitOf(row.rps, row.burst), pricing: pricingOf(row) } : null;
  }

  /** Sets (or with nulls clears) a client's own rate limit; undefined for an unknown client. */
  async setRateLimit(clientId: number, rps: number | null, burst: number | null): Promise<RateLimit | null | undefined> {
    const updated = await this.dataSource
      .getRepository(ClientEntity)
      .createQueryBuilder()
      .update()
      .set({ rateLimitRps: rps, rateLimitBurst: rps === null ? null : burst, updatedAt: () => 'now()' })
      .where('id = :clientId', { clientId })
      .execute();
    return updated.affected === 1 ? rateLimitOf(rps, rps === null ? null : burst) : undefined;
  }

  /** Sets a client's FX margin; its pricing afterwards, undefined for an unknown client. */
  async setFxMargin(clientId: number, percent: string): Promise<ClientPricing | undefined> {
    const clients = this.dataSource.getRepository(ClientEntity);
    const updated = await clients.update({ id: clientId }, { fxMarginPercent: percent, updatedAt: () => 'now()' });
    if (updated.affected !== 1) return undefined;
    const client = await clients.findOneOrFail({ select: { id: true, currency: true, fxMarginPercent: true }, where: { id: clientId } });
    return pricingOf(client);
  }

  /** A client's account currency; undefined for an unknown client. */
  async currencyOf(clientId: number): Promise<string | undefined> {
    const client = await this.dataSource.getRepository(ClientEntity).findOne({ select: { id: true, currency: true }, where: { id: clientId } });
    return client?.currency;
  }

  async findTerms(clientId: number): Promise<ClientAccountTerms | null> {
    const client = await this.dataSource.getRepository(ClientEntity).findOne({ select: { name: true, creditLimit: true, currency: true, createdAt: true }, where: { id: clientId } });
    return client ? { clientId, name: client.name, creditLimit: client.creditLimit, currency: client.currency, createdAt: client.createdAt.toISOString() } : null;
  }

  /** Every client with how many credentials of each kind are active. */
  /** Clients whose name holds `search` (any case) or whose id it is, active ones first, by name; all of them without. */
  async search(search: string | undefined, limit: number): Promise<ClientName[]> {
    const query = this.dataSource
      .getRepository(ClientEntity)
      .createQueryBuilder('c')
      .select(['c.id', 'c.name', 'c.currency', 'c.deletedAt'])
      .orderBy('c.deletedAt IS NULL', 'DESC')
      .addOrderBy('lower(c.name)')
      .addOrderBy('c.id')
      .limit(limit);
    const text = search?.trim();
    if (text) {
      // A substring, whatever it holds (no LIKE pattern to escape); digits may also be the id.
      query.where('position(lower(:text) in lower(c.name)) > 0', { text });
      if (/^\d{1,9}$/.test(text)) query.orWhere('c.id = :id', { id: Number(text) });
    }
    const rows = await query.getMany();
    return rows.map((row) => ({ clientId: row.id, name: row.name, currency: row.currency, deletedAt: row.deletedAt?.toISOString() ?? null }));
  }

  async list(): Promise<ClientSummary[]> {
    const rows = await this.dataSource
      .getRepository(ClientEntity)
      .createQueryBuilder('c')
      .leftJoin(CredentialEntity, 'k', 'k.clientId = c.id AND k.revokedAt IS NULL')
      .select(['c.id AS id', 'c.name AS name', 'c.creditLimit AS credit_limit', 'c.currency AS currency', 'c.createdAt AS created_at', 'c.deletedAt AS deleted_at'])
      .addSelect(`count(k.id) FILTER (WHERE k.kind = 'live')::int`, 'live')
      .addSelect(`count(k.id) FILTER (WHERE k.kind = 'sandbox')::int`, 'sandbox')
      .addSelect(`count(k.id) FILTER (WHERE k.kind = 'backend')::int`, 'backend')
      .groupBy('c.id')
      .orderBy('c.id')
      .getRawMany<{ id: number; name: string; credit_limit: string; currency: string; created_at: Date; deleted_at: Date | null; live: number; sandbox: number; backend: number }>();
    return rows.map((row) => ({
      clientId: row.id,
      name: row.name,
      // A raw row: numeric(15,3) reads back with three decimals.
      creditLimit: toDecimalString(row.credit_limit),
      currency: row.currency,
      createdAt: row.created_at.toISOString(),
      activeCredentials: { live: row.live, sandbox: row.sandbox, backend: row.backend },
      deletedAt: row.deleted_at?.toISOString() ?? null,
    }));
  }

  /** Locks an active client's row; false for an unknown or deleted client. */
  private async lockActiveClient(manager: EntityManager, clientId: number): Promise<boolean> {
    const client = await manager
      .getRepository(ClientEntity)
      .createQueryBuilder('c')
      .select('c.id')
      .where('c.id = :clientId', { clientId })
      .andWhere('c.deletedAt IS NULL')
      .setLock('pessimistic_write')
      .getOne();
    return client !== null;
  }

  private async insertCredentials(manager: EntityManager, clientId: number, hashes: CredentialHashes): Promise<void> {
    const rows = (Object.entries(hashes) as [CredentialKind, string][]).map(([kind, secretHash]) => ({ clientId, kind, secretHash }));
    if (rows.length) await manager.getRepository(CredentialEntity).insert(rows);
  }

  /**
   * The credentials are revoked first: a user token being issued holds its backend
   * token's row (UsersRepository.insertToken), so this waits for it to be stored, and
   * the user tokens' update, a later statement, sees it.
   */
  private async revokeInTransaction(manager: EntityManager, clientId: number, { kinds, userTokens, keepUserTokens }: CredentialSelection): Promise<Revoked> {
    const now = { revokedAt: () => 'now()' };
    const revoked: { id: number; kind: CredentialKind }[] = kinds.length
      ? (
          await manager
            .getRepository(CredentialEntity)
            .createQueryBuilder()
            .update()
            .set(now)
            .where('client_id = :clientId', { clientId })
            .andWhere('kind IN (:...kinds)', { kinds })
            .andWhere('revoked_at IS NULL')
            .returning(['id', 'kind'])
            .execute()
        ).raw
      : [];
    const revokedBackendTokens = revoked.filter((credential) => credential.kind === 'backend').map((credential) => credential.id);
    const issuedByRevokedBackend = !userTokens && !keepUserTokens && kinds.includes('backend');
    let revokedUserTokens = 0;
    if (userTokens || issuedByRevokedBackend) {
      const update = manager
        .getRepository(UserTokenEntity)
        .createQueryBuilder()
        .update()
        .set(now)
        .where(`user_id IN ${manager.createQueryBuilder().subQuery().select('u.id').from(UserEntity, 'u').where('u.clientId = :clientId').getQuery()}`)
        .setParameter('clientId', clientId)
        .andWhere('revoked_at IS NULL')
        .andWhere('expires_at > now()');
      // A token that does not say which backend token issued it may be one of them.
      if (!userTokens) update.andWhere('(minted_by IS NULL OR minted_by = ANY(:issuers))', { issuers: revokedBackendTokens });
      revokedUserTokens = (await update.execute()).affected ?? 0;
    }
    return { revoked: revoked.length, revokedUserTokens };
  }
}
