import { Injectable } from '@nestjs/common';
import { InjectDataSource } from '@nestjs/typeorm';
import { DataSource, EntityManager } from 'typeorm';
import { NewUser, RateLimit, UserView } from '@hotel/contracts';
import { rowsOf } from '@hotel/platform';
import { RateLimitColumns, rateLimitOf } from '../clients/rate-limit';

interface UserRow {
  id: number;
  first_name: string;
  last_name: string;
  email: string;
  phone: string;
  client_account_limit: string;
  created_at: Date;
  updated_at: Date;
  deleted_at: Date | null;
}

const USER_COLUMNS = `id, first_name, last_name, email, phone, client_account_limit, created_at, updated_at, deleted_at`;

export interface UserFieldChanges {
  firstName?: string;
  lastName?: string;
  email?: string;
  phone?: string;
  clientAccountLimit?: string;
}

const COLUMN_BY_FIELD: Record<keyof UserFieldChanges, string> = {
  firstName: 'first_name',
  lastName: 'last_name',
  email: 'email',
  phone: 'phone',
  clientAccountLimit: 'client_account_limit',
};

function toView(row: UserRow): UserView {
  return {
    id: row.id,
    firstName: row.first_name,
    lastName: row.last_name,
    email: row.email,
    phone: row.phone,
    clientAccountLimit: row.client_account_limit,
    createdAt: row.created_at.toISOString(),
    updatedAt: row.updated_at.toISOString(),
    deletedAt: row.deleted_at ? row.deleted_at.toISOString() : null,
  };
}

/** Users and their tokens; every query is scoped by the owning client. */
@Injectable()
export class UsersRepository {
  constructor(@InjectDataSource() private readonly dataSource: DataSource) {}

  async create(clientId: number, user: Omit<NewUser, 'clientAccountLimit'> & { clientAccountLimit: string }): Promise<UserView> {
    const rows: UserRow[] = await this.dataSource.query(
      `INSERT INTO users.users (client_id, first_name, last_name, email, phone, client_account_limit)
       VALUES ($1, $2, $3, $4, $5, $6) RETURNING ${USER_COLUMNS}`,
      [clientId, user.firstName, user.lastName, user.email, user.phone, user.clientAccountLimit],
    );
    return toView(rows[0]);
  }

  async find(clientId: number, userId: number): Promise<UserView | null> {
    const rows: UserRow[] = await this.dataSource.query(
      `SELECT ${USER_COLUMNS} FROM users.users WHERE client_id = $1 AND id = $2`,
      [clientId, userId],
    );
    return rows.length ? toView(rows[0]) : null;
  }

  /** Updates a user that is not deleted; null when there is none. */
  async update(clientId: number, userId: number, changes: UserFieldChanges): Promise<UserView | null> {
    const assignments: string[] = [];
    const values: unknown[] = [clientId, userId];
    for (const [field, value] of Object.entries(changes)) {
      if (value === undefined) continue;
      values.push(value);
      assignments.push(`${COLUMN_BY_FIELD[field as keyof UserFieldChanges]} = $${values.length}`);
    }
    const rows = rowsOf<UserRow>(
      await this.dataSource.query(
        `UPDATE users.users SET ${[...assignments, 'updated_at = now()'].join(', ')}
          WHERE client_id = $1 AND id = $2 AND deleted_at IS NULL RETURNING ${USER_COLUMNS}`,
        values,
      ),
    );
    return rows.length ? toView(rows[0]) : null;
  }

  /** Marks a user deleted (once; a repeat keeps the first time). */
  async softDelete(clientId: number, userId: number): Promise<UserView | null> {
    const rows = rowsOf<UserRow>(
      await this.dataSource.query(
        `UPDATE users.users SET deleted_at = coalesce(deleted_at, now()), updated_at = now()
          WHERE client_id = $1 AND id = $2 RETURNING ${USER_COLUMNS}`,
        [clientId, userId],
      ),
    );
    return rows.length ? toView(rows[0]) : null;
  }

  async insertToken(userId: number, tokenHash: string, ttlSeconds: number): Promise<Date> {
    const rows: { expires_at: Date }[] = await this.dataSource.query(
      `INSERT INTO users.user_tokens (user_id, token_hash, expires_at)
       VALUES ($1, $2, now() + make_interval(secs => $3)) RETURNING expires_at`,
      [userId, tokenHash, ttlSeconds],
    );
    return rows[0].expires_at;
  }

  /** Revokes every active token of the client's users (of one user, when given); how many. */
  async revokeTokens(clientId: number, userId?: number, manager: EntityManager | DataSource = this.dataSource): Promise<number> {
    const rows = rowsOf(
      await manager.query(
        `UPDATE users.user_tokens t SET revoked_at = now()
           FROM users.users u
          WHERE u.id = t.user_id AND u.client_id = $1 AND ($2::int IS NULL OR u.id = $2) AND t.revoked_at IS NULL AND t.expires_at > now()
          RETURNING t.id`,
        [clientId, userId ?? null],
      ),
    );
    return rows.length;
  }

  /** The user a token belongs to, if the token has not expired or been revoked and the user is not deleted. */
  async findActiveTokenHolder(tokenHash: string): Promise<{ userId: number; clientId: number; rateLimit: RateLimit | null } | null> {
    const rows: ({ user_id: number; client_id: number } & RateLimitColumns)[] =
      await this.dataSource.query(
        `SELECT t.user_id, u.client_id, c.rate_limit_rps, c.rate_limit_burst
           FROM users.user_tokens t
           JOIN users.users u ON u.id = t.user_id
           JOIN users.clients c ON c.id = u.client_id
          WHERE t.token_hash = $1 AND t.expires_at > now() AND t.revoked_at IS NULL AND u.deleted_at IS NULL AND c.deleted_at IS NULL`,
        [tokenHash],
      );
    if (!rows.length) return null;
    return { userId: rows[0].user_id, clientId: rows[0].client_id, rateLimit: rateLimitOf(rows[0]) };
  }
}
