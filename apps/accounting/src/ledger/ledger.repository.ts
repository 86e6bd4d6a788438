import { Injectable } from '@nestjs/common';
import { InjectDataSource } from '@nestjs/typeorm';
import { DataSource, EntityManager } from 'typeorm';
import {
  AccountingEntryView,
  BalanceView,
  ClientAccountTerms,
  CreditRequestStatus,
  CreditRequestView,
  EntryPosted,
  HoldView,
  LedgerFilter,
  SelfCreditPolicy,
  decimalToNumber,
  milliToDecimal,
  milliToNumber,
  toMilli,
  toMilliBig,
} from '@hotel/contracts';
import { DomainError, getPage, rowsOf } from '@hotel/platform';
import { AccountEntity } from './account.entity';
import { CreditRequestEntity } from './credit-request.entity';
import { EntryEntity, EntryKind } from './entry.entity';
import { HoldEntity } from './hold.entity';
import { SelfCreditDefaultEntity } from './self-credit-default.entity';

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

/** An entry the finance team writes by hand: always a new one. */
export type ManualEntry = Omit<NewEntry, 'kind'>;

/** A booking's automatic entry (of the client the call names): one per client, booking and kind, however often a step is retried. */
export type BookingEntry = Omit<NewEntry, 'clientId' | 'kind' | 'bookingId'> & { kind: Exclude<EntryKind, 'manual'>; bookingId: number };

/** A booking's hold as the service sees it. */
export type Hold = Pick<HoldEntity, 'bookingId' | 'userId' | 'amount' | 'status' | 'entryId'>;

export interface HoldOutcome {
  outcome: 'placed' | 'captured' | 'existing' | 'insufficient' | 'no_account' | 'not_found';
  hold: Hold | null;
}

/** The columns an AccountingEntryView is read from, by name. */
const ENTRY_FIELDS = {
  id: true,
  debit: true,
  credit: true,
  name: true,
  clientId: true,
  bookingId: true,
  ccPaymentId: true,
  userId: true,
  bankPaymentId: true,
  createdAt: true,
  updatedAt: true,
  deletedAt: true,
} as const;
export type EntryFields = Pick<EntryEntity, keyof typeof ENTRY_FIELDS>;
const ENTRY_PROPERTIES = Object.keys(ENTRY_FIELDS) as (keyof typeof ENTRY_FIELDS)[];
/** The same columns for a query builder over `e`. */
export const ENTRY_SELECTION = ENTRY_PROPERTIES.map((property) => `e.${property}`);

/** The columns a Hold is read from, by name. */
const HOLD_FIELDS = { bookingId: true, userId: true, amount: true, status: true, entryId: true } as const;

/** Every column of a credit request, by name (never `*`). */
const CREDIT_REQUEST_FIELDS = {
  id: true,
  clientId: true,
  debit: true,
  credit: true,
  name: true,
  bookingId: true,
  ccPaymentId: true,
  userId: true,
  bankPaymentId: true,
  status: true,
  entryId: true,
  createdAt: true,
  decidedAt: true,
} as const;

function toCreditRequestView(request: CreditRequestEntity): CreditRequestView {
  return {
    ...request,
    debit: milliToNumber(toMilli(request.debit)),
    credit: milliToNumber(toMilli(request.credit)),
    createdAt: request.createdAt.toISOString(),
    decidedAt: request.decidedAt ? request.decidedAt.toISOString() : null,
  };
}

/** The columns an entry (or a credit request) is written with; absent references as NULL. */
function entryValues(entry: ManualEntry) {
  return {
    clientId: entry.clientId,
    debit: entry.debit,
    credit: entry.credit,
    name: entry.name,
    bookingId: entry.bookingId ?? null,
    ccPaymentId: entry.ccPaymentId ?? null,
    userId: entry.userId ?? null,
    bankPaymentId: entry.bankPaymentId ?? null,
  };
}

export function toEntryView(entry: EntryFields): AccountingEntryView {
  return {
    id: entry.id,
    debit: milliToNumber(toMilli(entry.debit)),
    credit: milliToNumber(toMilli(entry.credit)),
    name: entry.name,
    clientId: entry.clientId,
    bookingId: entry.bookingId,
    ccPaymentId: entry.ccPaymentId,
    userId: entry.userId,
    bankPaymentId: entry.bankPaymentId,
    createdAt: entry.createdAt.toISOString(),
    updatedAt: entry.updatedAt.toISOString(),
    deletedAt: entry.deletedAt ? entry.deletedAt.toISOString() : null,
  };
}

export function toHoldView(hold: Hold): HoldView {
  return { bookingId: hold.bookingId, amount: hold.amount, status: hold.status, entryId: hold.entryId };
}

/** A row of accounting.place_hold or accounting.capture_hold. */
interface HoldOutcomeRow {
  outcome: HoldOutcome['outcome'];
  booking_id: number | null;
  user_id: number | null;
  amount: string | null;
  status: Hold['status'] | null;
  entry_id: number | null;
}
/** What place_hold and capture_hold return, named (never `*`: a prepared statement's result type must not change). */
const HOLD_OUTCOME_COLUMNS = 'outcome, booking_id, user_id, amount, status, entry_id';

function toHoldOutcome(row: HoldOutcomeRow): HoldOutcome {
  // The functions return the column's numeric(15,3) as PostgreSQL writes it ("120.000"): read back canonical, as AMOUNT_COLUMN does.
  const hold = row.status ? { bookingId: row.booking_id!, userId: row.user_id, amount: milliToDecimal(toMilliBig(row.amount!)), status: row.status, entryId: row.entry_id } : null;
  return { outcome: row.outcome, hold };
}

/**
 * A client's account, its ledger entries and its holds: one aggregate, whose every
 * change to money runs under the lock of the account row. Owns its transactions:
 * the service never sees a connection. The ledger is append-only: entries are only
 * ever inserted.
 */
@Injectable()
export class LedgerRepository {
  constructor(@InjectDataSource() private readonly dataSource: DataSource) {}

  private get accounts() {
    return this.dataSource.getRepository(AccountEntity);
  }

  private get entries() {
    return this.dataSource.getRepository(EntryEntity);
  }

  /** Holds placed and neither captured nor released yet. */
  async countActiveHolds(): Promise<number> {
    return this.dataSource.getRepository(HoldEntity).countBy({ status: 'active' });
  }

  /** The account's currency (it never changes once the account is open); null when the client has no account yet. */
  async accountCurrency(clientId: number): Promise<string | null> {
    const account = await this.accounts.findOne({ select: { clientId: true, currency: true }, where: { clientId } });
    return account?.currency ?? null;
  }

  /** The self-credit policies new accounts start with, by the day their client was created (oldest first). */
  async selfCreditDefaults(): Promise<{ selfCredits: SelfCreditPolicy; since: Date }[]> {
    return this.dataSource.getRepository(SelfCreditDefaultEntity).find({ select: { selfCredits: true, since: true }, order: { since: 'ASC' } });
  }

  /** Opens a client's account with its credit terms and self-credit policy; an account that exists already is left as it is. */
  async openAccount(terms: ClientAccountTerms, selfCredits: SelfCreditPolicy): Promise<void> {
    await this.dataSource
      .createQueryBuilder()
      .insert()
      .into(AccountEntity)
      .values({ clientId: terms.clientId, currency: terms.currency, creditLimit: terms.creditLimit, selfCredits })
      // ON CONFLICT DO NOTHING: the primary key is the table's only unique constraint.
      .orIgnore()
      .updateEntity(false)
      .execute();
  }

  async balance(clientId: number): Promise<BalanceView | null> {
    // Raw: the funds rule is the SQL function accounting.available_funds over the account row (migration OneFundsRule).
    const rows: { currency: string; creditLimit: string; totalCredit: string; totalDebit: string; totalHeld: string; available: string }[] =
      await this.dataSource.query(
        `SELECT currency, credit_limit AS "creditLimit", total_credit AS "totalCredit", total_debit AS "totalDebit", total_held AS "totalHeld",
                accounting.available_funds(a)::text AS available
           FROM accounting.accounts a WHERE client_id = $1`,
        [clientId],
      );
    if (!rows.length) return null;
    const account = rows[0];
    // The totals are numerics without a limit: read as bigints, never as a safe integer that a long ledger outgrows.
    return {
      clientId,
      currency: account.currency,
      creditLimit: decimalToNumber(account.creditLimit),
      credits: decimalToNumber(account.totalCredit),
      debits: decimalToNumber(account.totalDebit),
      holds: decimalToNumber(account.totalHeld),
      available: decimalToNumber(account.available),
    };
  }

  /** Prebook's advisory check, by the same rule as the hold (accounting.funds_cover). */
  async checkFunds(clientId: number, userId: number | null, amount: string, userLimit: string | null): Promise<{ sufficient: boolean; available: string } | null> {
    // Raw: the rule is the SQL functions accounting.funds_cover and available_funds (migration OneFundsRule), nothing computes it here.
    const rows: { sufficient: boolean; available: string }[] = await this.dataSource.query(
      `SELECT accounting.funds_cover(a, $2, $3, $4) AS sufficient, accounting.available_funds(a)::text AS available
         FROM accounting.accounts a WHERE client_id = $1`,
      [clientId, userId, amount, userLimit],
    );
    return rows[0] ?? null;
  }

  /**
   * Newest first; the total is the account's entry count (no count over the entries). With
   * a filter, only the entries that match, and a count of them (over the client's entries).
   */
  async listEntries(clientId: number, page: number, limit: number, filter?: LedgerFilter): Promise<{ entries: AccountingEntryView[]; total: number }> {
    if (filter && Object.values(filter).some((value) => value !== undefined)) return this.listMatchingEntries(clientId, page, limit, filter);
    const [rows, account] = await Promise.all([
      // getPage: LIMIT and OFFSET as parameters (one prepared statement for every page).
      getPage(
        this.entries
          .createQueryBuilder('e')
          .select(ENTRY_SELECTION)
          .where('e.clientId = :clientId', { clientId })
          .orderBy('e.id', 'DESC'),
        limit,
        (page - 1) * limit,
      ),
      this.accounts.findOne({ select: { clientId: true, entryCount: true }, where: { clientId } }),
    ]);
    return { entries: rows.map(toEntryView), total: account?.entryCount ?? 0 };
  }

  private async listMatchingEntries(clientId: number, page: number, limit: number, filter: LedgerFilter): Promise<{ entries: AccountingEntryView[]; total: number }> {
    const query = this.entries.createQueryBuilder('e').select(ENTRY_SELECTION).where('e.clientId = :clientId', { clientId });
    // UTC days, as every period of the ledger is.
    if (filter.from) query.andWhere(`e.createdAt >= CAST(:from AS timestamp) AT TIME ZONE 'UTC'`, { from: filter.from });
    if (filter.to) query.andWhere(`e.createdAt < (CAST(:to AS timestamp) + interval '1 day') AT TIME ZONE 'UTC'`, { to: filter.to });
    // A substring, whatever it holds (no LIKE pattern to escape).
    if (filter.name) query.andWhere('position(lower(:name) in lower(e.name)) > 0', { name: filter.name });
    if (filter.bookingId) query.andWhere('e.bookingId = :bookingId', { bookingId: filter.bookingId });
    if (filter.minAmount) query.andWhere('GREATEST(e.debit, e.credit) >= CAST(:minAmount AS numeric)', { minAmount: filter.minAmount });
    if (filter.maxAmount) query.andWhere('GREATEST(e.debit, e.credit) <= CAST(:maxAmount AS numeric)', { maxAmount: filter.maxAmount });
    const [rows, total] = await Promise.all([getPage(query.clone().orderBy('e.id', 'DESC'), limit, (page - 1) * limit), query.getCount()]);
    return { entries: rows.map(toEntryView), total };
  }

  async findEntry(clientId: number, id: number): Promise<AccountingEntryView | null> {
    const entry = await this.entries.findOne({ select: ENTRY_FIELDS, where: { clientId, id } });
    return entry ? toEntryView(entry) : null;
  }

  async entriesForBooking(clientId: number, bookingId: number): Promise<AccountingEntryView[]> {
    const entries = await this.entries.find({ select: ENTRY_FIELDS, where: { clientId, bookingId }, order: { id: 'ASC' } });
    return entries.map(toEntryView);
  }

  /** A manual entry, written under the account's lock with the account's totals, in one transaction. */
  /**
   * A manual post under an Idempotency-Key, in one transaction under the account's lock:
   * the first post with the key makes its entry (or its credit request, `asRequest`) and
   * records the key; a repeat with the same entry (`fingerprint`) answers what the first
   * made and writes nothing; a different entry under the key is refused. However many
   * race, one of them writes.
   */
  postManualOnce(entry: ManualEntry, asRequest: boolean, key: { key: string; fingerprint: string }): Promise<EntryPosted> {
    return this.dataSource.transaction(async (manager) => {
      await this.lockAccount(manager, entry.clientId);
      // Raw: a table with no entity, read and written only here.
      const [kept] = rowsOf<{ fingerprint: string; entry_id: string | null; credit_request_id: string | null }>(
        await manager.query('SELECT fingerprint, entry_id, credit_request_id FROM accounting.entry_keys WHERE client_id = $1 AND key = $2', [entry.clientId, key.key]),
      );
      if (kept) {
        if (kept.fingerprint !== key.fingerprint) throw new DomainError('IDEMPOTENCY_CONFLICT', 'the Idempotency-Key was used with another entry: send the original entry, or use a new key');
        if (kept.entry_id !== null) {
          const made = await manager.getRepository(EntryEntity).findOneOrFail({ select: ENTRY_FIELDS, where: { id: Number(kept.entry_id) } });
          return { entry: toEntryView(made), creditRequest: null, replayed: true };
        }
        const request = await manager.getRepository(CreditRequestEntity).findOneOrFail({ select: CREDIT_REQUEST_FIELDS, where: { id: Number(kept.credit_request_id) } });
        return { entry: null, creditRequest: toCreditRequestView(request), replayed: true };
      }
      const posted: EntryPosted = asRequest
        ? { entry: null, creditRequest: await this.insertCreditRequest(manager, entry) }
        : { entry: (await this.appendEntry(manager, { ...entry, kind: 'manual' }))!, creditRequest: null };
      await manager.query('INSERT INTO accounting.entry_keys (client_id, key, fingerprint, entry_id, credit_request_id) VALUES ($1, $2, $3, $4, $5)', [
        entry.clientId,
        key.key,
        key.fingerprint,
        posted.entry?.id ?? null,
        posted.creditRequest?.id ?? null,
      ]);
      return posted;
    });
  }

  appendManualEntry(entry: ManualEntry): Promise<AccountingEntryView> {
    return this.dataSource.transaction(async (manager) => {
      await this.lockAccount(manager, entry.clientId);
      // A manual entry is never a duplicate (the once-per-booking index leaves 'manual' out).
      return (await this.appendEntry(manager, { ...entry, kind: 'manual' }))!;
    });
  }

  /**
   * A booking's automatic entries, each written once: in one transaction under the
   * account's lock, an entry that exists already (a retried step) is not written
   * again and comes back as it was first written. In the order given.
   */
  appendBookingEntries(clientId: number, entries: BookingEntry[]): Promise<AccountingEntryView[]> {
    return this.dataSource.transaction(async (manager) => {
      await this.lockAccount(manager, clientId);
      const written: AccountingEntryView[] = [];
      for (const entry of entries) {
        const appended = await this.appendEntry(manager, { ...entry, clientId });
        written.push(appended ?? (await this.findBookingEntry(manager, clientId, entry.bookingId, entry.kind))!);
      }
      return written;
    });
  }

  /** See the migration HoldFunctions: the whole check-and-reserve under the account lock in one call. */
  async placeHold(clientId: number, bookingId: number, userId: number | null, amount: string, userLimit: string | number | null): Promise<HoldOutcome> {
    // Raw: the PL/pgSQL function accounting.place_hold keeps the check and the reservation atomic under the account lock.
    const rows: HoldOutcomeRow[] = await this.dataSource.query(
      `SELECT ${HOLD_OUTCOME_COLUMNS} FROM accounting.place_hold($1, $2, $3, $4, $5)`,
      [clientId, bookingId, userId, amount, userLimit],
    );
    return toHoldOutcome(rows[0]);
  }

  /** See the migration HoldFunctions: the debit entry, the account's totals and the hold's status in one call. */
  async captureHold(clientId: number, bookingId: number, name: string): Promise<HoldOutcome> {
    // Raw: the PL/pgSQL function accounting.capture_hold writes the debit, the totals and the hold's status atomically.
    const rows: HoldOutcomeRow[] = await this.dataSource.query(
      `SELECT ${HOLD_OUTCOME_COLUMNS} FROM accounting.capture_hold($1, $2, $3)`,
      [clientId, bookingId, name],
    );
    return toHoldOutcome(rows[0]);
  }

  /**
   * Releases a booking's active hold and gives its amount back to the account, in
   * one transaction under the account's lock. The hold as it is afterwards: released
   * (now or before), or captured and left alone; null when the booking has none.
   */
  releaseHold(clientId: number, bookingId: number): Promise<Hold | null> {
    return this.dataSource.transaction(async (manager) => {
      await this.lockAccount(manager, clientId);
      const hold = await manager
        .getRepository(HoldEntity)
        .findOne({ select: { clientId: true, ...HOLD_FIELDS }, where: { clientId, bookingId }, lock: { mode: 'pessimistic_write' } });
      if (!hold || hold.status !== 'active') return hold;
      await manager
        .createQueryBuilder()
        .update(HoldEntity)
        .set({ status: 'released', entryId: null, updatedAt: () => 'now()' })
        .where('client_id = :clientId AND booking_id = :bookingId', { clientId, bookingId })
        .andWhere(`status = 'active'`)
        .execute();
      await manager
        .createQueryBuilder()
        .update(AccountEntity)
        // In SQL numeric: exact.
        .set({ totalHeld: () => 'total_held - :amount', updatedAt: () => 'now()' })
        .where('client_id = :clientId', { clientId, amount: hold.amount })
        .execute();
      return { bookingId: hold.bookingId, userId: hold.userId, amount: hold.amount, status: 'released', entryId: null };
    });
  }

  async selfCreditPolicy(clientId: number): Promise<SelfCreditPolicy> {
    const account = await this.accounts.findOne({ select: { clientId: true, selfCredits: true }, where: { clientId } });
    return account?.selfCredits ?? 'immediate';
  }

  /** Sets the account's credit policy; false when it has no account. */
  async setSelfCreditPolicy(clientId: number, selfCredits: SelfCreditPolicy): Promise<boolean> {
    const updated = await this.accounts.update({ clientId }, { selfCredits, updatedAt: () => 'now()' });
    return updated.affected === 1;
  }

  /** A credit request (no money moves). */
  async createCreditRequest(entry: ManualEntry): Promise<CreditRequestView> {
    return this.insertCreditRequest(this.dataSource.manager, entry);
  }

  private async insertCreditRequest(manager: EntityManager, entry: ManualEntry): Promise<CreditRequestView> {
    const inserted = await manager
      .createQueryBuilder()
      .insert()
      .into(CreditRequestEntity)
      .values(entryValues(entry))
      .returning(Object.keys(CREDIT_REQUEST_FIELDS))
      .execute();
    return toCreditRequestView(inserted.generatedMaps[0] as CreditRequestEntity);
  }

  /** Newest first, of one client or (null) of every client. */
  async listCreditRequests(clientId: number | null, status: CreditRequestStatus | null, page: number, limit: number): Promise<{ requests: CreditRequestView[]; total: number }> {
    const where = { ...(clientId !== null && { clientId }), ...(status !== null && { status }) };
    const query = this.dataSource.getRepository(CreditRequestEntity).createQueryBuilder('r').select(Object.keys(CREDIT_REQUEST_FIELDS).map((field) => `r.${field}`)).where(where).orderBy('r.id', 'DESC');
    const [rows, total] = await Promise.all([getPage(query.clone(), limit, (page - 1) * limit), query.getCount()]);
    return { requests: rows.map(toCreditRequestView), total };
  }

  /**
   * Confirms or rejects a pending credit request (of this client, or of any with
   * null) under its account's lock, in one transaction: a confirmation appends the
   * entry and moves the totals. Concurrent decisions queue on the account lock and
   * the status moves only from pending, so an entry is written exactly once. The
   * request as it is afterwards (decided now or before); null when there is none.
   */
  decideCreditRequest(clientId: number | null, id: number, decision: 'confirmed' | 'rejected'): Promise<CreditRequestView | null> {
    return this.dataSource.transaction(async (manager) => {
      const requests = manager.getRepository(CreditRequestEntity);
      const found = await requests.findOne({ select: CREDIT_REQUEST_FIELDS, where: { id, ...(clientId !== null && { clientId }) } });
      if (!found) return null;
      await this.lockAccount(manager, found.clientId);
      const current = await requests.findOneOrFail({ select: CREDIT_REQUEST_FIELDS, where: { id } });
      if (current.status !== 'pending') return toCreditRequestView(current);
      const entry = decision === 'confirmed' ? await this.appendEntry(manager, { ...current, kind: 'manual' }) : null;
      await requests.update({ id, status: 'pending' }, { status: decision, entryId: entry?.id ?? null, decidedAt: () => 'now()' });
      return toCreditRequestView(await requests.findOneOrFail({ select: CREDIT_REQUEST_FIELDS, where: { id } }));
    });
  }

  /** The account row, locked until the transaction ends: every change to a client's money goes through it. */
  private async lockAccount(manager: EntityManager, clientId: number): Promise<void> {
    await manager.getRepository(AccountEntity).findOne({ select: { clientId: true }, where: { clientId }, lock: { mode: 'pessimistic_write' } });
  }

  /**
   * Appends an entry and moves the account's totals with it, in the caller's
   * transaction. An automatic entry that exists already is not written again:
   * null then.
   */
  private async appendEntry(manager: EntityManager, entry: NewEntry): Promise<AccountingEntryView | null> {
    const inserted = await manager
      .createQueryBuilder()
      .insert()
      .into(EntryEntity)
      .values({ ...entryValues(entry), kind: entry.kind })
      // ON CONFLICT DO NOTHING: besides the serial key, the only unique index is entries_once_per_booking.
      .orIgnore()
      .returning(ENTRY_PROPERTIES)
      .execute();
    if (!inserted.raw.length) return null;
    await manager
      .createQueryBuilder()
      .update(AccountEntity)
      // In SQL numeric: exact.
      .set({
        totalDebit: () => 'total_debit + :debit',
        totalCredit: () => 'total_credit + :credit',
        entryCount: () => 'entry_count + 1',
        updatedAt: () => 'now()',
      })
      .where('client_id = :clientId', { clientId: entry.clientId, debit: entry.debit, credit: entry.credit })
      .execute();
    // The RETURNING row, mapped to the entity's properties by TypeORM.
    return toEntryView(inserted.generatedMaps[0] as EntryFields);
  }

  private async findBookingEntry(manager: EntityManager, clientId: number, bookingId: number, kind: EntryKind): Promise<AccountingEntryView | null> {
    const entry = await manager.getRepository(EntryEntity).findOne({ select: ENTRY_FIELDS, where: { clientId, bookingId, kind } });
    return entry ? toEntryView(entry) : null;
  }
}
