import { Injectable } from '@nestjs/common';
import { InjectDataSource } from '@nestjs/typeorm';
import { DataSource, EntityManager } from 'typeorm';
import { AccountingEntryView, BalanceView, ClientAccountTerms, HoldView, centsToNumber, toCents } from '@hotel/contracts';
import { rowsOf } from '@hotel/platform';

export type EntryKind = 'manual' | 'booking_debit' | 'booking_refund' | 'card_charge' | 'card_payment';

export interface NewEntry {
  clientId: number;
  kind: EntryKind;
  debit: string;
  credit: string;
  name: string;
  bookingId?: number | null;
  ccPaymentId?: string | null;
  userId?: number | null;
  bankPaymentId?: number | null;
}

interface EntryRow {
  id: number;
  debit: string;
  credit: string;
  name: string;
  client_id: number;
  booking_id: number | null;
  cc_payment_id: string | null;
  user_id: number | null;
  bank_payment_id: number | null;
  created_at: Date;
  updated_at: Date;
  deleted_at: Date | null;
}

interface AccountRow {
  client_id: number;
  currency: string;
  credit_limit: string;
  total_debit: string;
  total_credit: string;
  total_held: string;
  entry_count: number;
  /** accounting.available_funds: the one place the rule is written. */
  available: string;
}

interface HoldRow {
  booking_id: number;
  user_id: number | null;
  amount: string;
  status: HoldView['status'];
  entry_id: number | null;
}

const ENTRY_COLUMNS = `id, debit, credit, name, client_id, booking_id, cc_payment_id, user_id, bank_payment_id, created_at, updated_at, deleted_at`;

export function toEntryView(row: EntryRow): AccountingEntryView {
  return {
    id: row.id,
    debit: centsToNumber(toCents(row.debit)),
    credit: centsToNumber(toCents(row.credit)),
    name: row.name,
    clientId: row.client_id,
    bookingId: row.booking_id,
    ccPaymentId: row.cc_payment_id,
    userId: row.user_id,
    bankPaymentId: row.bank_payment_id,
    createdAt: row.created_at.toISOString(),
    updatedAt: row.updated_at.toISOString(),
    deletedAt: row.deleted_at ? row.deleted_at.toISOString() : null,
  };
}

export interface HoldOutcome {
  outcome: 'placed' | 'captured' | 'existing' | 'insufficient' | 'no_account' | 'not_found';
  hold: HoldRow | null;
}

/** A row of accounting.place_hold or accounting.capture_hold. */
type HoldOutcomeRow = HoldRow & { outcome: HoldOutcome['outcome'] };
/** What place_hold and capture_hold return, named (never `*`: a prepared statement's result type must not change). */
const HOLD_OUTCOME_COLUMNS = 'outcome, booking_id, user_id, amount, status, entry_id';

function toHoldOutcome({ outcome, ...hold }: HoldOutcomeRow): HoldOutcome {
  return { outcome, hold: hold.status ? hold : null };
}

export function toHoldView(row: HoldRow): HoldView {
  return { bookingId: row.booking_id, amount: row.amount, status: row.status, entryId: row.entry_id };
}

const ACCOUNT_COLUMNS = `client_id, currency, credit_limit, total_debit, total_credit, total_held, entry_count, accounting.available_funds(a)::text AS available`;

@Injectable()
export class LedgerRepository {
  constructor(@InjectDataSource() private readonly dataSource: DataSource) {}

  transaction<T>(work: (manager: EntityManager) => Promise<T>): Promise<T> {
    return this.dataSource.transaction(work);
  }

  async hasAccount(clientId: number): Promise<boolean> {
    const rows = await this.dataSource.query(`SELECT 1 FROM accounting.accounts WHERE client_id = $1`, [clientId]);
    return rows.length > 0;
  }

  async openAccount(terms: ClientAccountTerms): Promise<void> {
    await this.dataSource.query(
      `INSERT INTO accounting.accounts (client_id, currency, credit_limit) VALUES ($1, $2, $3) ON CONFLICT (client_id) DO NOTHING`,
      [terms.clientId, terms.currency, terms.creditLimit],
    );
  }

  /** The account row, locked until the transaction ends: every change to a client's money goes through it. */
  async lockAccount(manager: EntityManager, clientId: number): Promise<void> {
    await manager.query(`SELECT 1 FROM accounting.accounts WHERE client_id = $1 FOR UPDATE`, [clientId]);
  }

  async balance(clientId: number): Promise<BalanceView | null> {
    const rows: AccountRow[] = await this.dataSource.query(`SELECT ${ACCOUNT_COLUMNS} FROM accounting.accounts a WHERE client_id = $1`, [clientId]);
    if (!rows.length) return null;
    const account = rows[0];
    return {
      clientId,
      currency: account.currency,
      creditLimit: centsToNumber(toCents(account.credit_limit)),
      credits: centsToNumber(toCents(account.total_credit)),
      debits: centsToNumber(toCents(account.total_debit)),
      holds: centsToNumber(toCents(account.total_held)),
      available: centsToNumber(toCents(account.available)),
    };
  }

  /** Prebook's advisory check, by the same rule as the hold (accounting.funds_cover). */
  async checkFunds(clientId: number, userId: number | null, amount: string, userLimit: string | null): Promise<{ sufficient: boolean; available: string } | null> {
    const rows: { sufficient: boolean; available: string }[] = await this.dataSource.query(
      `SELECT accounting.funds_cover(a, $2, $3, $4) AS sufficient, accounting.available_funds(a)::text AS available
         FROM accounting.accounts a WHERE client_id = $1`,
      [clientId, userId, amount, userLimit],
    );
    return rows[0] ?? null;
  }

  /**
   * Appends an entry and moves the account's totals with it, in the caller's
   * transaction. An automatic entry that exists already is not written again:
   * null then.
   */
  async appendEntry(manager: EntityManager, entry: NewEntry): Promise<AccountingEntryView | null> {
    const rows: EntryRow[] = await manager.query(
      `INSERT INTO accounting.entries (client_id, kind, debit, credit, name, booking_id, cc_payment_id, user_id, bank_payment_id)
       VALUES ($1, $2, $3, $4, $5, $6, $7, $8, $9)
       ON CONFLICT (client_id, booking_id, kind) WHERE kind <> 'manual' DO NOTHING
       RETURNING ${ENTRY_COLUMNS}`,
      [entry.clientId, entry.kind, entry.debit, entry.credit, entry.name, entry.bookingId ?? null, entry.ccPaymentId ?? null, entry.userId ?? null, entry.bankPaymentId ?? null],
    );
    if (!rows.length) return null;
    await manager.query(
      `UPDATE accounting.accounts
          SET total_debit = total_debit + $2, total_credit = total_credit + $3, entry_count = entry_count + 1, updated_at = now()
        WHERE client_id = $1`,
      [entry.clientId, entry.debit, entry.credit],
    );
    return toEntryView(rows[0]);
  }

  async findAutomaticEntry(manager: EntityManager, clientId: number, bookingId: number, kind: EntryKind): Promise<AccountingEntryView | null> {
    const rows: EntryRow[] = await manager.query(
      `SELECT ${ENTRY_COLUMNS} FROM accounting.entries WHERE client_id = $1 AND booking_id = $2 AND kind = $3`,
      [clientId, bookingId, kind],
    );
    return rows.length ? toEntryView(rows[0]) : null;
  }

  async listEntries(clientId: number, page: number, limit: number): Promise<{ entries: AccountingEntryView[]; total: number }> {
    const [rows, counts] = await Promise.all([
      this.dataSource.query(
        `SELECT ${ENTRY_COLUMNS} FROM accounting.entries WHERE client_id = $1 ORDER BY id DESC LIMIT $2 OFFSET $3`,
        [clientId, limit, (page - 1) * limit],
      ) as Promise<EntryRow[]>,
      this.dataSource.query(`SELECT entry_count FROM accounting.accounts WHERE client_id = $1`, [clientId]) as Promise<{ entry_count: number }[]>,
    ]);
    return { entries: rows.map(toEntryView), total: counts[0]?.entry_count ?? 0 };
  }

  async findEntry(clientId: number, id: number): Promise<AccountingEntryView | null> {
    const rows: EntryRow[] = await this.dataSource.query(`SELECT ${ENTRY_COLUMNS} FROM accounting.entries WHERE client_id = $1 AND id = $2`, [clientId, id]);
    return rows.length ? toEntryView(rows[0]) : null;
  }

  async entriesForBooking(clientId: number, bookingId: number): Promise<AccountingEntryView[]> {
    const rows: EntryRow[] = await this.dataSource.query(
      `SELECT ${ENTRY_COLUMNS} FROM accounting.entries WHERE client_id = $1 AND booking_id = $2 ORDER BY id`,
      [clientId, bookingId],
    );
    return rows.map(toEntryView);
  }

  async findHold(manager: EntityManager, clientId: number, bookingId: number): Promise<HoldRow | null> {
    const rows: HoldRow[] = await manager.query(
      `SELECT booking_id, user_id, amount, status, entry_id FROM accounting.holds WHERE client_id = $1 AND booking_id = $2 FOR UPDATE`,
      [clientId, bookingId],
    );
    return rows[0] ?? null;
  }

  /** See the migration HoldFunctions: the whole check-and-reserve under the account lock in one call. */
  async placeHold(clientId: number, bookingId: number, userId: number | null, amount: string, userLimit: string | number | null): Promise<HoldOutcome> {
    const rows: HoldOutcomeRow[] = await this.dataSource.query(
      `SELECT ${HOLD_OUTCOME_COLUMNS} FROM accounting.place_hold($1, $2, $3, $4, $5)`,
      [clientId, bookingId, userId, amount, userLimit],
    );
    return toHoldOutcome(rows[0]);
  }

  /** See the migration HoldFunctions: the debit entry, the account's totals and the hold's status in one call. */
  async captureHold(clientId: number, bookingId: number, name: string): Promise<HoldOutcome> {
    const rows: HoldOutcomeRow[] = await this.dataSource.query(
      `SELECT ${HOLD_OUTCOME_COLUMNS} FROM accounting.capture_hold($1, $2, $3)`,
      [clientId, bookingId, name],
    );
    return toHoldOutcome(rows[0]);
  }

  async settleHold(manager: EntityManager, clientId: number, bookingId: number, status: 'captured' | 'released', entryId: number | null): Promise<HoldRow> {
    const rows = rowsOf<HoldRow>(
      await manager.query(
        `UPDATE accounting.holds SET status = $3, entry_id = $4, updated_at = now()
          WHERE client_id = $1 AND booking_id = $2 AND status = 'active' RETURNING booking_id, user_id, amount, status, entry_id`,
        [clientId, bookingId, status, entryId],
      ),
    );
    await manager.query(`UPDATE accounting.accounts SET total_held = total_held - $2, updated_at = now() WHERE client_id = $1`, [clientId, rows[0].amount]);
    return rows[0];
  }
}
