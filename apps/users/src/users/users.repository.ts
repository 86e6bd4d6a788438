import { Injectable } from '@nestjs/common';
import { InjectDataSource } from '@nestjs/typeorm';
import { DataSource } from 'typeorm';
import { ClientPricing, NewUser, RateLimit, UserView } from '@hotel/contracts';
import { DomainError, rowsOf } from '@hotel/platform';
import { ClientEntity, CredentialEntity } from '../clients/client.entity';
import { PricingColumns, pricingOf } from '../clients/pricing';
import { rateLimitOf } from '../clients/rate-limit';
import { UserEntity, UserTokenEntity } from './user.entity';

export interface UserFieldChanges {
  firstName?: string;
  lastName?: string;
  email?: string;
  phone?: string;
  clientAccountLimit?: string;
}

/** The columns a UserView is read from, by name. */
const USER_FIELDS = {
  id: true,
  firstName: true,
  lastName: true,
  email: true,
  phone: true,
  clientAccountLimit: true,
  createdAt: true,
  updatedAt: true,
  deletedAt: true,
} as const;

function toView(user: UserEntity): UserView {
  return {
    id: user.id,
    firstName: user.firstName,
    lastName: user.lastName,
    email: user.email,
    phone: user.phone,
    clientAccountLimit: user.clientAccountLimit,
    createdAt: user.createdAt.toISOString(),
    updatedAt: user.updatedAt.toISOString(),
    deletedAt: user.deletedAt ? user.deletedAt.toISOString() : null,
  };
}

/** Users and their tokens; every query is scoped by the owning client. */
@Injectable()
export class UsersRepository {
  constructor(@InjectDataSource() private readonly dataSource: DataSource) {}

  private get users() {
    return this.dataSource.getRepository(UserEntity);
  }

  async create(clientId: number, user: Omit<NewUser, 'clientAccountLimit'> & { clientAccountLimit: string }): Promise<UserView> {
    const inserted = await this.users.insert({
      clientId,
      firstName: user.firstName,
      lastName: user.lastName,
      email: user.email,
      phone: user.phone,
      clientAccountLimit: user.clientAccountLimit,
    });
    return (await this.find(clientId, inserted.identifiers[0].id as number))!;
  }

  /**
   * A user made once per Idempotency-Key of the client: in one transaction holding the
   * key's lock, the first post makes the user and records the key; a repeat of the same user
   * (`fingerprint`) answers that user; another user under the key is refused.
   */
  async createOnce(clientId: number, user: Omit<NewUser, 'clientAccountLimit'> & { clientAccountLimit: string }, key: { key: string; fingerprint: string }): Promise<UserView> {
    const userId = await this.dataSource.transaction(async (manager) => {
      // Raw: a lock on no table, and a table with no entity (read and written only here).
      await manager.query(`SELECT pg_advisory_xact_lock(hashtext('user-key'), hashtext($1))`, [`${clientId}:${key.key}`]);
      const [kept] = rowsOf<{ fingerprint: string; user_id: number }>(await manager.query('SELECT fingerprint, user_id FROM users.user_keys WHERE client_id = $1 AND key = $2', [clientId, key.key]));
      if (kept) {
        if (kept.fingerprint !== key.fingerprint) throw new DomainError('IDEMPOTENCY_CONFLICT', 'the Idempotency-Key was used with another user: send the original user, or use a new key');
        return kept.user_id;
      }
      const inserted = await manager.getRepository(UserEntity).insert({ clientId, firstName: user.firstName, lastName: user.lastName, email: user.email, phone: user.phone, clientAccountLimit: user.clientAccountLimit });
      const id = inserted.identifiers[0].id as number;
      await manager.query('INSERT INTO users.user_keys (client_id, key, fingerprint, user_id) VALUES ($1, $2, $3, $4)', [clientId, key.key, key.fingerprint, id]);
      return id;
    });
    return (await this.find(clientId, userId))!;
  }

  async find(clientId: number, userId: number): Promise<UserView | null> {
    const user = await this.users.findOne({ select: USER_FIELDS, where: { clientId, id: userId } });
    return user ? toView(user) : null;
  }

  /** Updates a user that is not deleted; null when there is none. */
  async update(clientId: number, userId: number, changes: UserFieldChanges): Promise<UserView | null> {
    const set = Object.fromEntries(Object.entries(changes).filter(([, value]) => value !== undefined));
    const updated = await this.users
      .createQueryBuilder()
      .update()
      .set({ ...set, updatedAt: () => 'now()' })
      .where('client_id = :clientId AND id = :userId', { clientId, userId })
      .andWhere('deleted_at IS NULL')
      .execute();
    return updated.affected === 1 ? this.find(clientId, userId) : null;
  }

  /** Marks a user deleted (once; a repeat keeps the first time). */
  async softDelete(clientId: number, userId: number): Promise<UserView | null> {
    const updated = await this.users
      .createQueryBuilder()
      .update()
      .set({ deletedAt: () => 'coalesce(deleted_at, now())', updatedAt: () => 'now()' })
      .where('client_id = :clientId AND id = :userId', { clientId, userId })
      .execute();
    return updated.affected === 1 ? this.find(clientId, userId) : null;
  }

  /** Stores a token's hash, valid for ttlSeconds from now; when it expires. */
  /**
   * Stores a user token issued by the client's backend token `mintedBy`, if that token is
   * still active; when it expires, or null when the backend token was revoked meanwhile.
   * The backend token's row is locked (FOR SHARE) until the token is stored: a rotation,
   * which updates that row, either waits and then revokes the new token with the others
   * it issued, or revokes the backend token first, and then no token is stored.
   */
  insertToken(clientId: number, userId: number, tokenHash: string, ttlSeconds: number, mintedBy: number): Promise<Date | null> {
    return this.dataSource.transaction(async (manager) => {
      const issuer = await manager
        .getRepository(CredentialEntity)
        .createQueryBuilder('k')
        .select('k.id')
        .where('k.id = :mintedBy AND k.clientId = :clientId', { mintedBy, clientId })
        .andWhere(`k.kind = 'backend' AND k.revokedAt IS NULL`)
        .setLock('pessimistic_read')
        .getOne();
      if (!issuer) return null;
      const expiresAt = new Date(Date.now() + ttlSeconds * 1000);
      await manager.getRepository(UserTokenEntity).insert({ userId, tokenHash, expiresAt, mintedBy });
      return expiresAt;
    });
  }

  /** Revokes every active token of one of the client's users; how many. */
  async revokeTokens(clientId: number, userId: number): Promise<number> {
    const revoked = await this.dataSource
      .getRepository(UserTokenEntity)
      .createQueryBuilder()
      .update()
      .set({ revokedAt: () => 'now()' })
      .where(`user_id IN ${this.dataSource.createQueryBuilder().subQuery().select('u.id').from(UserEntity, 'u').where('u.clientId = :clientId AND u.id = :userId').getQuery()}`)
      .setParameters({ clientId, userId })
      .andWhere('revoked_at IS NULL')
      .andWhere('expires_at > now()')
      .execute();
    return revoked.affected ?? 0;
  }

  /** The user a token belongs to, if the token has not expired or been revoked and neither the user nor the client is deleted. */
  async findActiveTokenHolder(tokenHash: string): Promise<{ userId: number; clientId: number; rateLimit: RateLimit | null; pricing: ClientPricing } | null> {
    const row = await this.dataSource
      .getRepository(UserTokenEntity)
      .createQueryBuilder('t')
      .innerJoin(UserEntity, 'u', 'u.id = t.userId')
      .innerJoin(ClientEntity, 'c', 'c.id = u.clientId')
      .select('t.userId', 'userId')
      .addSelect('u.clientId', 'clientId')
      .addSelect('c.rateLimitRps', 'rps')
      .addSelect('c.rateLimitBurst', 'burst')
      .addSelect('c.currency', 'currency')
      .addSelect('c.fxMarginPercent', 'fxMarginPercent')
      .where('t.tokenHash = :tokenHash', { tokenHash })
      .andWhere('t.expiresAt > now()')
      .andWhere('t.revokedAt IS NULL')
      .andWhere('u.deletedAt IS NULL')
      .andWhere('c.deletedAt IS NULL')
      .getRawOne<{ userId: number; clientId: number; rps: number | null; burst: number | null } & PricingColumns>();
    return row ? { userId: row.userId, clientId: row.clientId, rateLimit: rateLimitOf(row.rps, row.burst), pricing: pricingOf(row) } : null;
  }
}
