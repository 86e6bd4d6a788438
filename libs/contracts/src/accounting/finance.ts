import { Type } from 'class-transformer';
import { BookingFx } from '../rates/fx';
// A type only: the vendor reconciliation contract takes its period rules from this file.
import type { VendorReconciliationSection } from '../rates/vendor-reconciliation';
import { ArrayMaxSize, IsArray, IsIn, IsInt, IsOptional, IsPositive, Matches, Max, Min, ValidationArguments, ValidationOptions, registerDecorator } from 'class-validator';
import { ActorScoped } from '../common/actor';
import { PageQuery, QueryId } from '../common/page-query';
import { isCalendarDay } from '../common/validators';
import { parseDay } from '../search/stay';
import { AccountingEntryView, ListEntriesRequest } from './accounting';

/** The longest period a statement, a reconciliation or a daily balance covers: 366 days, both ends counted. */
export const MAX_PERIOD_DAYS = 366;

const DAY_MS = 86_400_000;

/** Days from `from` to `to`, both counted (0 or less when `to` is before `from`). */
export function periodDays(from: string, to: string): number {
  return Math.round((parseDay(to)!.getTime() - parseDay(from)!.getTime()) / DAY_MS) + 1;
}

/** A class-validator decorator of a period's field. */
function periodField(name: string, message: (property: string) => string, validate: (value: unknown, args: ValidationArguments) => boolean) {
  return (options?: ValidationOptions) => (target: object, propertyName: string) =>
    registerDecorator({ name, target: target.constructor, propertyName, options: { message: message(propertyName), ...options }, validator: { validate } });
}

/** `from`: a real day YYYY-MM-DD. */
export const IsPeriodStart = periodField('isPeriodStart', (property) => `${property} must be a real date YYYY-MM-DD`, (value) => isCalendarDay(value));

/** `to`: a real day, not before `from`, at most `maxDays` days from it (both counted). */
export function IsPeriodEndWithin(maxDays: number) {
  return periodField(
    'isPeriodEnd',
    (property) => `${property} must be a real date YYYY-MM-DD from \`from\` to ${maxDays} days later (both counted)`,
    (value, args) => {
      const from = (args.object as { from?: unknown }).from;
      if (!isCalendarDay(value)) return false;
      if (!isCalendarDay(from)) return true; // `from` is refused on its own
      const days = periodDays(from, value);
      return days >= 1 && days <= maxDays;
    },
  );
}

/** `to`: a real day, not before `from`, at most MAX_PERIOD_DAYS days from it (both counted). */
const IsPeriodEnd = IsPeriodEndWithin(MAX_PERIOD_DAYS);

/** A period of whole UTC days, `from` and `to` included. */
class Period {
  @IsPeriodStart()
  from: string;

  @IsPeriodEnd()
  to: string;
}

export const SELF_CREDIT_POLICIES = ['immediate', 'pending'] as const;
export type SelfCreditPolicy = (typeof SELF_CREDIT_POLICIES)[number];

export const CREDIT_REQUEST_STATUSES = ['pending', 'confirmed', 'rejected'] as const;
export type CreditRequestStatus = (typeof CREDIT_REQUEST_STATUSES)[number];

export const EXPORT_FORMATS = ['json', 'csv'] as const;

/**
 * The columns of a ledger export (oldest first). Amounts in `currency`, the account's,
 * with its decimals; for an entry of a booking, the vendor's net price in its currency,
 * the exchange rate the price was converted at and the rate's date (empty otherwise).
 * New columns go at the end: readers of the first nine keep working.
 */
export const LEDGER_CSV_COLUMNS = [
  'id',
  'createdAt',
  'name',
  'debit',
  'credit',
  'bookingId',
  'ccPaymentId',
  'userId',
  'bankPaymentId',
  'currency',
  'vendorPrice',
  'vendorCurrency',
  'fxRate',
  'fxRateDate',
] as const;
/** The columns of a statement export: each entry with the balance after it, between an opening and a closing record. */
export const STATEMENT_CSV_COLUMNS = ['date', 'entryId', 'name', 'debit', 'credit', 'balance'] as const;
export const STATEMENT_FORMATS = ['json', 'csv', 'pdf'] as const;
export type StatementFormat = (typeof STATEMENT_FORMATS)[number];

// ---- HTTP queries of the backend API (the gateway validates them; the services validate the bus requests below) ----

/** `clientId`: which client the finance credential works on; a backend token may only name its own. */
export class ClientScopeQuery {
  @QueryId()
  clientId?: number;
}

/** `GET /api/accounting`: a page, or every entry as CSV (`format=csv` or `Accept: text/csv`). */
export class LedgerQuery extends PageQuery {
  @QueryId()
  clientId?: number;

  /** Entries from this UTC day on (YYYY-MM-DD). */
  @IsOptional()
  @IsPeriodStart()
  from?: string;

  /** Entries up to this UTC day, included (YYYY-MM-DD). */
  @IsOptional()
  @IsPeriodStart()
  to?: string;

  /** Entries whose name contains this, any case. */
  @IsOptional()
  @Matches(/^[^\u0000-\u001f]{1,100}$/, { message: 'name must be 1 to 100 characters, no control characters' })
  name?: string;

  /** The entries of one booking. */
  @QueryId()
  bookingId?: number;

  /** Entries of at least this amount (the debit or the credit), in the account's currency. */
  @IsOptional()
  @Matches(/^\d{1,12}(\.\d{1,3})?$/, { message: 'minAmount must be a decimal amount like 100 or 99.50' })
  minAmount?: string;

  /** Entries of at most this amount. */
  @IsOptional()
  @Matches(/^\d{1,12}(\.\d{1,3})?$/, { message: 'maxAmount must be a decimal amount like 100 or 99.50' })
  maxAmount?: string;

  @IsOptional()
  @IsIn(EXPORT_FORMATS)
  format?: (typeof EXPORT_FORMATS)[number];
}

/** `GET /api/accounting/clients`: the finance credential's client picker. */
export class ClientSearchQuery {
  /** A part of the client's name (any case), or its id. */
  @IsOptional()
  @Matches(/^[^\u0000-\u001f]{1,100}$/, { message: 'search must be 1 to 100 characters, no control characters' })
  search?: string;

  @IsOptional()
  @Type(() => Number)
  @IsInt()
  @Min(1)
  @Max(50)
  limit?: number;
}

/** `from` and `to` (YYYY-MM-DD, UTC days, both included) and the finance credential's `clientId`. */
export class PeriodQuery extends Period {
  @QueryId()
  clientId?: number;
}

/** `GET /api/accounting/statement`. */
export class StatementQuery extends PeriodQuery {
  @IsOptional()
  @IsIn(STATEMENT_FORMATS)
  format?: StatementFormat;
}

/** `GET /api/accounting/requests`: newest first. */
export class CreditRequestQuery extends PageQuery {
  @QueryId()
  clientId?: number;

  @IsOptional()
  @IsIn(CREDIT_REQUEST_STATUSES)
  status?: CreditRequestStatus;
}

// ---- Replies ----

/** A credit the client's own backend token posted under the `pending` policy: it moves no money until the finance team confirms it. */
export interface CreditRequestView {
  id: number;
  clientId: number;
  debit: number;
  credit: number;
  name: string;
  bookingId: number | null;
  ccPaymentId: string | null;
  userId: number | null;
  bankPaymentId: number | null;
  status: CreditRequestStatus;
  /** The ledger entry it became, once confirmed. */
  entryId: number | null;
  createdAt: string;
  decidedAt: string | null;
}

/** accounting.entry.create.v2: the entry, or (a credit waiting for the finance team) the credit request. */
export type EntryPosted = ({ entry: AccountingEntryView; creditRequest: null } | { entry: null; creditRequest: CreditRequestView }) & {
  /** True when an Idempotency-Key repeat answered what the first post made. */
  replayed?: boolean;
};

export interface CreditRequestPage {
  requests: CreditRequestView[];
  total: number;
}

export interface CreditPolicyView {
  clientId: number;
  selfCredits: SelfCreditPolicy;
}

/**
 * A statement's figures (balance = credits − debits, so a client in credit has a
 * positive one). `availableAtEnd` = creditLimit + closingBalance: holds are not
 * ledger entries and are left out (the balance endpoint gives the current ones).
 */
export interface StatementSummary {
  clientId: number;
  currency: string;
  from: string;
  to: string;
  openingBalance: number;
  totalDebits: number;
  totalCredits: number;
  closingBalance: number;
  creditLimit: number;
  availableAtEnd: number;
  entryCount: number;
  /** The last entry id the statement covers: its pages read up to it (a snapshot of an append-only ledger). */
  lastEntryId: number;
  /** The same figures as exact decimal strings with the currency's decimals, for the CSV and PDF statements (a JSON number is exact to 15 digits only). */
  amounts: StatementAmounts;
}

export type StatementAmounts = Record<'openingBalance' | 'totalDebits' | 'totalCredits' | 'closingBalance' | 'creditLimit' | 'availableAtEnd', string>;

/**
 * How a booking's price came to be in the account's currency, as the ledger's exports
 * show it beside the booking's entries: the vendor's net price (with the vendor
 * currency's decimals) and currency, and the exchange rate used, with its ECB date
 * (null when no conversion was needed).
 */
export interface EntryFx {
  vendorPrice: string;
  vendorCurrency: string;
  fxRate: string;
  fxRateDate: string | null;
}

/** An entry as an export gives it: for an entry of a booking, `fx` says how the booking's price was converted (null otherwise). */
export interface ExportedEntry extends AccountingEntryView {
  fx: EntryFx | null;
}

/** `GET /api/accounting/statement` as JSON. */
export interface StatementView extends Omit<StatementSummary, 'lastEntryId' | 'amounts'> {
  entries: ExportedEntry[];
}

/** One page of an export, already rendered (CSV rows, or JSON entries joined by commas). */
export interface ExportPage {
  text: string;
  rows: number;
  /** The id to continue after; null when the export is complete. */
  next: number | null;
  /** The snapshot's last entry id (the first page fixes it). */
  upTo: number;
  /** The running balance after this page (statement). */
  balance: string;
}

export interface DailyBalance {
  day: string;
  credits: number;
  debits: number;
  closingBalance: number;
  /** creditLimit + closingBalance (holds are not ledger entries). */
  available: number;
}

export interface DailyBalanceView {
  clientId: number;
  currency: string;
  creditLimit: number;
  from: string;
  to: string;
  openingBalance: number;
  days: DailyBalance[];
}

export const MISMATCH_KINDS = [
  'missing_debit',
  'debit_amount_differs',
  'debit_without_booking',
  'refund_differs',
  'card_pair_incomplete',
  'stale_hold',
  /** The booking is priced in another currency than the account's: its amounts cannot be compared with the ledger's. */
  'currency_differs',
] as const;
export type MismatchKind = (typeof MISMATCH_KINDS)[number];

export interface ReconciliationMismatch {
  kind: MismatchKind;
  bookingId: number | null;
  entryId: number | null;
  /** In `currency`. */
  expected: number | null;
  /** What the ledger holds, in the account's currency. */
  actual: number | null;
  /** The currency of `expected`: the booking's (for currency_differs not the account's), else the account's. */
  currency: string;
  /** The vendor's net price of the booking (with its currency's decimals), its currency and the rate that converted it; null without a booking. */
  vendorPrice: string | null;
  vendorCurrency: string | null;
  fxRate: string | null;
  /** The ECB reference date of the rate; null when no conversion was needed (or without a booking). */
  fxRateDate: string | null;
  message: string;
}

export interface StatusTotal {
  count: number;
  amount: number;
  currency: string;
}

export type StatusTotals = Record<'pending' | 'confirmed' | 'cancelled' | 'failed', StatusTotal>;

export interface ReconciliationView {
  clientId: number;
  from: string;
  to: string;
  /** The account's currency. */
  currency: string;
  /** Bookings created in the period in the account's currency, by status, with the sum of their prices. */
  totals: StatusTotals;
  /** Bookings of the period priced in another currency (each also a currency_differs mismatch), totalled per currency. */
  otherCurrencies: { currency: string; totals: StatusTotals }[];
  /** Every mismatch found (the first 1000 listed; `mismatchCount` counts all). */
  mismatches: ReconciliationMismatch[];
  mismatchCount: number;
  /**
   * The vendors' reconciliation reports whose period overlaps this one (their bookings with
   * every client, compared with each vendor's own list); null for a client's backend token,
   * which sees only its own client's figures.
   */
  vendors: VendorReconciliationSection | null;
}

// ---- Bus requests ----

/** accounting.credit-policy.set.v1 (admin command line). */
export class SetCreditPolicyRequest {
  @IsInt()
  @IsPositive()
  clientId: number;

  @IsIn(SELF_CREDIT_POLICIES)
  selfCredits: SelfCreditPolicy;
}

/** accounting.statement.summary.v2, accounting.balance.daily.v1, accounting.reconciliation.get.v3 */
export class PeriodRequest extends ActorScoped {
  @IsPeriodStart()
  from: string;

  @IsPeriodEnd()
  to: string;
}

/** accounting.export.page.v2: the next page of the ledger (oldest first) or of a statement's entries. */
export class ExportPageRequest extends ActorScoped {
  @IsIn(['ledger', 'statement'])
  kind: 'ledger' | 'statement';

  @IsIn(EXPORT_FORMATS)
  format: (typeof EXPORT_FORMATS)[number];

  /** Statement only. */
  @IsOptional()
  @IsPeriodStart()
  from?: string;

  @IsOptional()
  @IsPeriodEnd()
  to?: string;

  @IsInt()
  @Min(0)
  after: number;

  /** Absent on the first page, which fixes it. */
  @IsOptional()
  @IsInt()
  @Min(0)
  upTo?: number;

  /** The running balance before this page (statement CSV): an exact decimal of any size (a ledger's sum has no limit). */
  @Matches(/^-?\d{1,40}(\.\d{1,3})?$/, { message: 'balance must be a signed decimal with at most three decimals' })
  balance: string;
}

/** accounting.credit-request.list.v1: a page, as the ledger's entries are paged. */
export class ListCreditRequestsRequest extends ListEntriesRequest {
  @IsOptional()
  @IsIn(CREDIT_REQUEST_STATUSES)
  status?: CreditRequestStatus;
}

/** accounting.credit-request.confirm.v1 / reject.v1 (the finance credential). */
export class CreditRequestDecision extends ActorScoped {
  @IsInt()
  @IsPositive()
  id: number;
}

/** booking.reconciliation.list.v2 (accounting): a client's bookings of a period, or the ones named, by id. */
export class ReconciliationBookingsRequest {
  @IsInt()
  @IsPositive()
  clientId: number;

  @IsPeriodStart()
  from: string;

  @IsPeriodEnd()
  to: string;

  /** Keyset: bookings with a greater id. */
  @IsInt()
  @Min(0)
  after: number;

  @IsInt()
  @Min(1)
  @Max(2000)
  limit: number;

  /** When given: these bookings (whatever their day), not the period's. */
  @IsOptional()
  @IsArray()
  @ArrayMaxSize(2000)
  @IsInt({ each: true })
  @IsPositive({ each: true })
  bookingIds?: number[];
}

/** What reconciliation needs of a booking; money as decimal strings. */
export interface ReconciliationBooking extends BookingFx {
  id: number;
  status: 'pending' | 'confirmed' | 'cancelled' | 'failed';
  paymentMethod: 'account' | 'credit_card';
  sandbox: boolean;
  /** In `currency`, the client's account currency when the booking was priced. */
  priceChargeable: string;
  currency: string;
  cancellationPenalty: string | null;
  /** Whether the booking was ever confirmed (a cancelled one was). */
  confirmed: boolean;
}

export interface ReconciliationBookingPage {
  bookings: ReconciliationBooking[];
  /** The saga's lease: a hold older than this belongs to a saga that should have ended. */
  leaseSeconds: number;
}
