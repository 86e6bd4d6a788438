import { Injectable } from '@nestjs/common';
import { InjectDataSource } from '@nestjs/typeorm';
import { DataSource, EntityManager } from 'typeorm';
import { ClientAccountTerms, ClientSummary, CredentialKind, RateLimit } from '@hotel/contracts';
import { rowsOf } from '@hotel/platform';
import { RateLimitColumns, rateLimitOf } from './rate-limit';

export interface ActiveCredential {
  clientId: number;
  kind: CredentialKind;
  rateLimit: RateLimit | null;
}

@Injectable()
export class ClientsRepository {
  constructor(@InjectDataSource() private readonly dataSource: DataSource) {}

  transaction<T>(work: (manager: EntityManager) => Promise<T>): Promise<T> {
    return this.dataSource.transaction(work);
  }

  async insertClient(manager: EntityManager, name: string, creditLimit: string, currency: string): Promise<number> {
    const rows: { id: number }[] = await manager.query(
      `INSERT INTO users.clients (name, credit_limit, currency) VALUES ($1, $2, $3) RETURNING id`,
      [name, creditLimit, currency],
    );
    return rows[0].id;
  }

  /** Locks an active client's row; false for an unknown or deleted client. */
  async lockClient(manager: EntityManager, clientId: number): Promise<boolean> {
    const rows = await manager.query(`SELECT id FROM users.clients WHERE id = $1 AND deleted_at IS NULL FOR UPDATE`, [clientId]);
    return rows.length === 1;
  }

  /** Marks a client deleted (once: a repeat keeps the first time); undefined for an unknown client. */
  async markDeleted(manager: EntityManager, clientId: number): Promise<Date | undefined> {
    const rows = rowsOf<{ deleted_at: Date }>(
      await manager.query(
        `UPDATE users.clients SET deleted_at = coalesce(deleted_at, now()), updated_at = now() WHERE id = $1 RETURNING deleted_at`,
        [clientId],
      ),
    );
    return rows[0]?.deleted_at;
  }

  async insertCredential(manager: EntityManager, clientId: number, kind: CredentialKind, secretHash: string): Promise<void> {
    await manager.query(`INSERT INTO users.credentials (client_id, kind, secret_hash) VALUES ($1, $2, $3)`, [
      clientId,
      kind,
      secretHash,
    ]);
  }

  async revokeCredentials(manager: EntityManager, clientId: number, kinds: CredentialKind[]): Promise<number> {
    const rows = rowsOf(
      await manager.query(
        `UPDATE users.credentials SET revoked_at = now()
          WHERE client_id = $1 AND kind = ANY($2) AND revoked_at IS NULL RETURNING id`,
        [clientId, kinds],
      ),
    );
    return rows.length;
  }

  async findActiveCredential(secretHash: string): Promise<ActiveCredential | null> {
    const rows: ({ client_id: number; kind: CredentialKind } & RateLimitColumns)[] =
      await this.dataSource.query(
        `SELECT k.client_id, k.kind, c.rate_limit_rps, c.rate_limit_burst
           FROM users.credentials k JOIN users.clients c ON c.id = k.client_id
          WHERE k.secret_hash = $1 AND k.revoked_at IS NULL AND c.deleted_at IS NULL`,
        [secretHash],
      );
    return rows.length ? { clientId: rows[0].client_id, kind: rows[0].kind, rateLimit: rateLimitOf(rows[0]) } : null;
  }

  async setRateLimit(clientId: number, rps: number | null, burst: number | null): Promise<RateLimit | null | undefined> {
    const rows = rowsOf<RateLimitColumns>(
      await this.dataSource.query(
        `UPDATE users.clients SET rate_limit_rps = $2, rate_limit_burst = $3, updated_at = now()
          WHERE id = $1 RETURNING rate_limit_rps, rate_limit_burst`,
        [clientId, rps, rps === null ? null : burst],
      ),
    );
    return rows.length ? rateLimitOf(rows[0]) : undefined;
  }

  async findTerms(clientId: number): Promise<ClientAccountTerms | null> {
    const rows: { credit_limit: string; currency: string }[] = await this.dataSource.query(
      `SELECT credit_limit, currency FROM users.clients WHERE id = $1`,
      [clientId],
    );
    return rows.length ? { clientId, creditLimit: rows[0].credit_limit, currency: rows[0].currency } : null;
  }

  async list(): Promise<ClientSummary[]> {
    const rows: {
      id: number;
      name: string;
      credit_limit: string;
      currency: string;
      created_at: Date;
      live: number;
      sandbox: number;
      backend: number;
      deleted_at: Date | null;
    }[] = await this.dataSource.query(`
      SELECT c.id, c.name, c.credit_limit, c.currency, c.created_at, c.deleted_at,
             count(k.id) FILTER (WHERE k.kind = 'live')::int    AS live,
             count(k.id) FILTER (WHERE k.kind = 'sandbox')::int AS sandbox,
             count(k.id) FILTER (WHERE k.kind = 'backend')::int AS backend
        FROM users.clients c
        LEFT JOIN users.credentials k ON k.client_id = c.id AND k.revoked_at IS NULL
       GROUP BY c.id ORDER BY c.id`);
    return rows.map((row) => ({
      clientId: row.id,
      name: row.name,
      creditLimit: row.credit_limit,
      currency: row.currency,
      createdAt: row.created_at.toISOString(),
      activeCredentials: { live: row.live, sandbox: row.sandbox, backend: row.backend },
      deletedAt: row.deleted_at?.toISOString() ?? null,
    }));
  }
}
