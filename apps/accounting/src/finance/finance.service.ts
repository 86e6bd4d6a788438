import { Inject, Injectable } from '@nestjs/common';
import {
  Actor,
  DailyBalanceView,
  EntryFx,
  ExportPage,
  ExportPageRequest,
  ReconciliationView,
  SUBJECTS,
  StatementSummary,
  csvRecord,
  formatAmount,
  milliToDecimal,
  milliToNumber,
  parseDay,
  toMilli,
  toMilliBig,
} from '@hotel/contracts';
import { DomainError, SERVICE_CLIENT, ServiceClient, requireLedgerReader } from '@hotel/platform';
import { EntryFields, toEntryView } from '../ledger/ledger.repository';
import { LedgerService } from '../ledger/ledger.service';
import { Reconciliation, amountIn } from './reconciliation';
import { BookingEntryRow, PeriodTotals, ReportsRepository, Span } from './reports.repository';

const DAY_MS = 86_400_000;
/** Entries read per export page. */
const PAGE_ROWS = 2000;
/**
 * Bytes of rendered text per export page: under NATS's 1 MB message even when JSON
 * escaping doubles it (every character a quote or a line break).
 */
const PAGE_BYTES = 400_000;
/** Bookings asked of the booking service at once (its page limit). */
const BOOKING_PAGE = 2000;

/** The UTC days `from` to `to`, both included, as instants [start, end). */
export function spanOf(from: string, to: string): Span {
  return { start: parseDay(from)!, end: new Date(parseDay(to)!.getTime() + DAY_MS) };
}

/** A sum read from SQL (a numeric without a limit) as a JSON number. */
const money = (decimal: string) => milliToNumber(toMilliBig(decimal));

/**
 * The finance team's reports over one client's ledger: statements, exports page by
 * page, the daily balance, and the reconciliation with the booking service's
 * bookings (asked over the bus: the bookings are that service's data).
 */
@Injectable()
export class FinanceService {
  constructor(
    private readonly reports: ReportsRepository,
    private readonly ledger: LedgerService,
    @Inject(SERVICE_CLIENT) private readonly services: ServiceClient,
  ) {}

  async statementSummary(actor: Actor, from: string, to: string): Promise<StatementSummary> {
    const { clientId } = await this.clientOf(actor, 'statements');
    const totals = await this.reports.snapshot((read) => read.totals(clientId, spanOf(from, to)));
    return summaryOf(clientId, from, to, totals!);
  }

  async dailyBalance(actor: Actor, from: string, to: string): Promise<DailyBalanceView> {
    const { clientId } = await this.clientOf(actor, 'daily balances');
    const span = spanOf(from, to);
    const { totals, days } = await this.reports.snapshot(async (read) => ({ totals: (await read.totals(clientId, span))!, days: await read.days(clientId, span) }));
    // bigint: the running balance of a ledger of any length.
    const limit = toMilliBig(totals.creditLimit);
    let balance = toMilliBig(totals.opening);
    return {
      clientId,
      currency: totals.currency,
      creditLimit: milliToNumber(limit),
      from,
      to,
      openingBalance: milliToNumber(balance),
      days: days.map((day) => {
        balance += toMilliBig(day.credits) - toMilliBig(day.debits);
        return { day: day.day, credits: money(day.credits), debits: money(day.debits), closingBalance: milliToNumber(balance), available: milliToNumber(limit + balance) };
      }),
    };
  }

  /**
   * One page of an export, rendered: ledger entries as CSV records, or a statement's
   * as CSV records with the running balance or as JSON entries joined by commas. The
   * first page fixes the last entry id the export covers (a client's entries are
   * appended under its account lock, so ids commit in order and nothing below it
   * appears later).
   */
  async exportPage(request: ExportPageRequest): Promise<ExportPage> {
    if (request.kind === 'statement' && (!request.from || !request.to)) throw DomainError.validation([{ field: 'from', message: 'a statement page needs from and to' }]);
    const { clientId, currency } = await this.clientOf(request.actor, 'exports');
    const upTo = request.upTo ?? (await this.reports.lastEntryId(clientId));
    const span = request.kind === 'statement' ? spanOf(request.from!, request.to!) : null;
    const after = span && request.after === 0 ? await this.reports.idBefore(clientId, span) : request.after;
    const rows = await this.reports.entryPage(clientId, after, upTo, PAGE_ROWS, span);
    // The statement CSV has no room for them (its columns are fixed); the ledger CSV and JSON pages have.
    const fx = request.kind === 'statement' && request.format === 'csv' ? new Map<number, EntryFx>() : await this.bookingFx(clientId, rows);
    // bigint: the running balance of a ledger of any length.
    let balance = toMilliBig(request.balance);
    const parts: string[] = [];
    let bytes = 0;
    let last: number | null = null;
    for (const row of rows) {
      balance += toMilliBig(row.credit) - toMilliBig(row.debit);
      const text = render(request, row, balance, currency, row.bookingId === null ? null : (fx.get(row.bookingId) ?? null));
      bytes += Buffer.byteLength(text);
      parts.push(text);
      last = row.id;
      if (bytes >= PAGE_BYTES) break;
    }
    const complete = parts.length === rows.length && rows.length < PAGE_ROWS;
    return { text: parts.join(request.format === 'json' ? ',' : ''), rows: parts.length, next: complete ? null : last, upTo, balance: milliToDecimal(balance) };
  }

  /**
   * How the bookings these entries name were priced (vendor price, currency, rate),
   * asked of the booking service in batches of its page size; bookings it does not
   * know (an entry naming a booking that does not exist) are left out.
   */
  private async bookingFx(clientId: number, rows: EntryFields[]): Promise<Map<number, EntryFx>> {
    const ids = [...new Set(rows.flatMap((row) => (row.bookingId === null ? [] : [row.bookingId])))];
    const found = new Map<number, EntryFx>();
    // The request names a period (required), which bookingIds overrides: any day does.
    const day = new Date().toISOString().slice(0, 10);
    for (let i = 0; i < ids.length; i += BOOKING_PAGE) {
      const batch = ids.slice(i, i + BOOKING_PAGE);
      const { bookings } = await this.services.send(SUBJECTS.BOOKING_RECONCILIATION_LIST, { clientId, from: day, to: day, after: 0, limit: BOOKING_PAGE, bookingIds: batch });
      for (const booking of bookings) {
        found.set(booking.id, {
          vendorPrice: amountIn(toMilli(booking.vendorPrice), booking.vendorCurrency),
          vendorCurrency: booking.vendorCurrency,
          fxRate: booking.fxRate,
          fxRateDate: booking.fxRateDate,
        });
      }
    }
    return found;
  }

  async reconcile(actor: Actor, from: string, to: string): Promise<ReconciliationView> {
    const { clientId, currency } = await this.clientOf(actor, 'reconciliation');
    // The vendors' reports cover every client's bookings (and the vendors' net prices): the finance team's alone.
    const [ledger, vendors] = await Promise.all([
      this.reconcileLedger(clientId, currency, from, to),
      actor.role === 'finance' ? this.services.send(SUBJECTS.RATES_VENDOR_RECONCILIATION_LIST, { from, to }) : null,
    ]);
    return { ...ledger, vendors };
  }

  private async reconcileLedger(clientId: number, currency: string, from: string, to: string): Promise<Omit<ReconciliationView, 'vendors'>> {
    const span = spanOf(from, to);
    const reconciliation = new Reconciliation(currency);
    const seen = new Set<number>();
    let leaseSeconds = 0;
    for (let after = 0; ; ) {
      const page = await this.services.send(SUBJECTS.BOOKING_RECONCILIATION_LIST, { clientId, from, to, after, limit: BOOKING_PAGE });
      leaseSeconds = page.leaseSeconds;
      if (!page.bookings.length) break;
      const ids = page.bookings.map((booking) => booking.id);
      ids.forEach((id) => seen.add(id));
      reconciliation.addBookings(page.bookings, await this.reports.bookingEntries(clientId, ids));
      after = ids[ids.length - 1];
      if (page.bookings.length < BOOKING_PAGE) break;
    }
    await this.findOrphans(clientId, from, to, span, seen, reconciliation);
    for (const hold of await this.reports.staleHolds(clientId, span, leaseSeconds)) reconciliation.addStaleHold(hold.bookingId, hold.amount, leaseSeconds);
    return reconciliation.result(clientId, from, to);
  }

  /** Automatic entries of the period whose booking is not among the period's: the booking service is asked whether it exists at all. */
  private async findOrphans(clientId: number, from: string, to: string, span: Span, seen: Set<number>, reconciliation: Reconciliation): Promise<void> {
    const unknown = new Map<number, BookingEntryRow[]>();
    for (let after = 0; ; ) {
      const entries = await this.reports.automaticEntriesIn(clientId, span, after, PAGE_ROWS);
      for (const entry of entries) if (!seen.has(entry.bookingId)) unknown.set(entry.bookingId, [...(unknown.get(entry.bookingId) ?? []), entry]);
      if (entries.length < PAGE_ROWS) break;
      after = entries[entries.length - 1].id;
    }
    const ids = [...unknown.keys()];
    for (let i = 0; i < ids.length; i += BOOKING_PAGE) {
      const batch = ids.slice(i, i + BOOKING_PAGE);
      const { bookings } = await this.services.send(SUBJECTS.BOOKING_RECONCILIATION_LIST, { clientId, from, to, after: 0, limit: BOOKING_PAGE, bookingIds: batch });
      const known = new Set(bookings.map((booking) => booking.id));
      for (const id of batch) if (!known.has(id)) unknown.get(id)!.forEach((entry) => reconciliation.addOrphan(entry));
    }
  }

  /** The client the actor reads (see requireLedgerReader), whose account exists (404 for an unknown client), and the account's currency. */
  private async clientOf(actor: Actor, what: string): Promise<{ clientId: number; currency: string }> {
    const clientId = requireLedgerReader(actor, what);
    return { clientId, currency: await this.ledger.ensureAccount(clientId) };
  }
}

/** The period's figures; sums in bigint (a ledger's have no limit), each also as the currency writes it (`amounts`). */
function summaryOf(clientId: number, from: string, to: string, totals: PeriodTotals): StatementSummary {
  const opening = toMilliBig(totals.opening);
  const debits = toMilliBig(totals.debits);
  const credits = toMilliBig(totals.credits);
  const limit = toMilliBig(totals.creditLimit);
  const closing = opening + credits - debits;
  const figures = { openingBalance: opening, totalDebits: debits, totalCredits: credits, closingBalance: closing, creditLimit: limit, availableAtEnd: limit + closing };
  const each = <T>(convert: (milli: bigint) => T) => Object.fromEntries(Object.entries(figures).map(([name, milli]) => [name, convert(milli)])) as Record<keyof typeof figures, T>;
  return {
    clientId,
    currency: totals.currency,
    from,
    to,
    ...each(milliToNumber),
    entryCount: totals.count,
    lastEntryId: totals.upTo,
    amounts: each((milli) => formatAmount(milli, totals.currency)),
  };
}

/** One entry as LEDGER_CSV_COLUMNS or STATEMENT_CSV_COLUMNS give it (amounts with the currency's decimals), or as JSON (an ExportedEntry). */
function render(request: ExportPageRequest, row: EntryFields, balance: bigint, currency: string, fx: EntryFx | null): string {
  if (request.format === 'json') return JSON.stringify({ ...toEntryView(row), fx });
  const debit = formatAmount(toMilliBig(row.debit), currency);
  const credit = formatAmount(toMilliBig(row.credit), currency);
  if (request.kind === 'statement') return csvRecord([row.createdAt.toISOString().slice(0, 10), row.id, row.name, debit, credit, formatAmount(balance, currency)]);
  return csvRecord([
    row.id,
    row.createdAt.toISOString(),
    row.name,
    debit,
    credit,
    row.bookingId,
    row.ccPaymentId,
    row.userId,
    row.bankPaymentId,
    currency,
    fx?.vendorPrice ?? null,
    fx?.vendorCurrency ?? null,
    fx?.fxRate ?? null,
    fx?.fxRateDate ?? null,
  ]);
}
