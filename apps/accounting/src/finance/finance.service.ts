import { Inject, Injectable } from '@nestjs/common';
import {
  Actor,
  DailyBalanceView,
  ExportPage,
  ExportPageRequest,
  ReconciliationView,
  SUBJECTS,
  StatementSummary,
  milliToDecimal,
  milliToNumber,
  csvRecord,
  parseDay,
  toMilli,
} from '@hotel/contracts';
import { DomainError, SERVICE_CLIENT, ServiceClient, requireLedgerReader } from '@hotel/platform';
import { EntryFields, toEntryView } from '../ledger/ledger.repository';
import { LedgerService } from '../ledger/ledger.service';
import { Reconciliation } from './reconciliation';
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

const money = (decimal: string) => milliToNumber(toMilli(decimal));

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
    const clientId = await this.clientOf(actor, 'statements');
    const totals = await this.reports.snapshot((read) => read.totals(clientId, spanOf(from, to)));
    return summaryOf(clientId, from, to, totals!);
  }

  async dailyBalance(actor: Actor, from: string, to: string): Promise<DailyBalanceView> {
    const clientId = await this.clientOf(actor, 'daily balances');
    const span = spanOf(from, to);
    const { totals, days } = await this.reports.snapshot(async (read) => ({ totals: (await read.totals(clientId, span))!, days: await read.days(clientId, span) }));
    const limit = toMilli(totals.creditLimit);
    let balance = toMilli(totals.opening);
    return {
      clientId,
      currency: totals.currency,
      creditLimit: milliToNumber(limit),
      from,
      to,
      openingBalance: milliToNumber(balance),
      days: days.map((day) => {
        balance += toMilli(day.credits) - toMilli(day.debits);
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
    const clientId = requireLedgerReader(request.actor, 'exports');
    if (request.kind === 'statement' && (!request.from || !request.to)) throw DomainError.validation([{ field: 'from', message: 'a statement page needs from and to' }]);
    const upTo = request.upTo ?? (await this.reports.lastEntryId(clientId));
    const span = request.kind === 'statement' ? spanOf(request.from!, request.to!) : null;
    const after = span && request.after === 0 ? await this.reports.idBefore(clientId, span) : request.after;
    const rows = await this.reports.entryPage(clientId, after, upTo, PAGE_ROWS, span);
    let balance = toMilli(request.balance);
    const parts: string[] = [];
    let bytes = 0;
    let last: number | null = null;
    for (const row of rows) {
      balance += toMilli(row.credit) - toMilli(row.debit);
      const text = render(request, row, balance);
      bytes += Buffer.byteLength(text);
      parts.push(text);
      last = row.id;
      if (bytes >= PAGE_BYTES) break;
    }
    const complete = parts.length === rows.length && rows.length < PAGE_ROWS;
    return { text: parts.join(request.format === 'json' ? ',' : ''), rows: parts.length, next: complete ? null : last, upTo, balance: milliToDecimal(balance) };
  }

  async reconcile(actor: Actor, from: string, to: string): Promise<ReconciliationView> {
    const clientId = await this.clientOf(actor, 'reconciliation');
    const span = spanOf(from, to);
    const reconciliation = new Reconciliation();
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

  /** The client the actor reads (see requireLedgerReader), whose account exists (404 for an unknown client). */
  private async clientOf(actor: Actor, what: string): Promise<number> {
    const clientId = requireLedgerReader(actor, what);
    await this.ledger.ensureAccount(clientId);
    return clientId;
  }
}

function summaryOf(clientId: number, from: string, to: string, totals: PeriodTotals): StatementSummary {
  const opening = toMilli(totals.opening);
  const closing = opening + toMilli(totals.credits) - toMilli(totals.debits);
  return {
    clientId,
    currency: totals.currency,
    from,
    to,
    openingBalance: milliToNumber(opening),
    totalDebits: money(totals.debits),
    totalCredits: money(totals.credits),
    closingBalance: milliToNumber(closing),
    creditLimit: money(totals.creditLimit),
    availableAtEnd: milliToNumber(toMilli(totals.creditLimit) + closing),
    entryCount: totals.count,
    lastEntryId: totals.upTo,
  };
}

/** One entry as LEDGER_CSV_COLUMNS or STATEMENT_CSV_COLUMNS give it, or as JSON. */
function render(request: ExportPageRequest, row: EntryFields, balance: number): string {
  if (request.format === 'json') return JSON.stringify(toEntryView(row));
  const debit = milliToDecimal(toMilli(row.debit));
  const credit = milliToDecimal(toMilli(row.credit));
  if (request.kind === 'statement') return csvRecord([row.createdAt.toISOString().slice(0, 10), row.id, row.name, debit, credit, milliToDecimal(balance)]);
  return csvRecord([row.id, row.createdAt.toISOString(), row.name, debit, credit, row.bookingId, row.ccPaymentId, row.userId, row.bankPaymentId]);
}
