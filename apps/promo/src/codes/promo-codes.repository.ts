import { Injectable } from '@nestjs/common';
import { InjectDataSource } from '@nestjs/typeorm';
import { DataSource, EntityManager } from 'typeorm';
import { CreatePromoRequest, PromoView } from '@hotel/contracts';
import { rowsOf } from '@hotel/platform';

interface CodeRow {
  code: string;
  kind: PromoView['kind'];
  value: string;
  currency: string;
  min_amount: string | null;
  max_uses: number | null;
  uses: number;
  expires: string | null;
  expired: boolean;
}

export type PromoCode = PromoView & { expired: boolean };

const COLUMNS = `code, kind, value, currency, min_amount, max_uses, uses, to_char(expires, 'YYYY-MM-DD') AS expires, (expires IS NOT NULL AND expires < current_date) AS expired`;

function toCode(row: CodeRow): PromoCode {
  return {
    code: row.code,
    kind: row.kind,
    value: row.value,
    currency: row.currency,
    minAmount: row.min_amount,
    maxUses: row.max_uses,
    uses: row.uses,
    expires: row.expires,
    expired: row.expired,
  };
}

@Injectable()
export class PromoCodesRepository {
  constructor(@InjectDataSource() private readonly dataSource: DataSource) {}

  transaction<T>(work: (manager: EntityManager) => Promise<T>): Promise<T> {
    return this.dataSource.transaction(work);
  }

  /** Inserts a code; null when the code exists already. */
  async create(request: CreatePromoRequest): Promise<PromoCode | null> {
    const rows: CodeRow[] = await this.dataSource.query(
      `INSERT INTO promo.codes (code, kind, value, currency, min_amount, max_uses, expires)
       VALUES ($1, $2, $3, $4, $5, $6, $7) ON CONFLICT (code) DO NOTHING RETURNING ${COLUMNS}`,
      [request.code, request.kind, request.value, request.currency, request.minAmount ?? null, request.maxUses ?? null, request.expires ?? null],
    );
    return rows.length ? toCode(rows[0]) : null;
  }

  async find(code: string, manager: EntityManager | DataSource = this.dataSource): Promise<PromoCode | null> {
    const rows: CodeRow[] = await manager.query(`SELECT ${COLUMNS} FROM promo.codes WHERE code = $1`, [code]);
    return rows.length ? toCode(rows[0]) : null;
  }

  async findRedemption(manager: EntityManager, clientId: number, bookingId: number): Promise<{ code: string; discount: string } | null> {
    const rows: { code: string; discount: string }[] = await manager.query(
      `SELECT code, discount FROM promo.redemptions WHERE client_id = $1 AND booking_id = $2`,
      [clientId, bookingId],
    );
    return rows[0] ?? null;
  }

  /**
   * Takes one use in a single conditional statement: with N uses left, N
   * concurrent redemptions succeed and the next one finds nothing to update.
   */
  async consumeUse(manager: EntityManager, code: string): Promise<boolean> {
    const rows = rowsOf(
      await manager.query(
        `UPDATE promo.codes SET uses = uses + 1
          WHERE code = $1 AND (max_uses IS NULL OR uses < max_uses) AND (expires IS NULL OR expires >= current_date)
          RETURNING code`,
        [code],
      ),
    );
    return rows.length === 1;
  }

  async recordRedemption(manager: EntityManager, code: string, clientId: number, bookingId: number, discount: string): Promise<void> {
    await manager.query(`INSERT INTO promo.redemptions (code, client_id, booking_id, discount) VALUES ($1, $2, $3, $4)`, [code, clientId, bookingId, discount]);
  }
}
