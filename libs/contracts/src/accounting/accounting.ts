import { Type } from 'class-transformer';
import { IsDefined, IsInt, IsOptional, IsPositive, IsString, Matches, Max, MaxLength, Min, MinLength, ValidateNested } from 'class-validator';
import { ActorScoped } from '../common/actor';
import { IDEMPOTENCY_KEY_PATTERN, IsIsoCurrency, IsMoneyAmount, MAX_INT_ID, MAX_STORED_AMOUNT } from '../common/validators';

/** Body of `POST /api/accounting`, validated as the specification gives it. */
export class NewAccountingEntry {
  @IsDefined()
  @IsMoneyAmount({ allowString: false })
  debit: number;

  @IsDefined()
  @IsMoneyAmount({ allowString: false })
  credit: number;

  @IsString()
  @MinLength(1)
  @MaxLength(500)
  name: string;

  @IsInt()
  @IsPositive()
  @Max(MAX_INT_ID)
  clientId: number;

  @IsOptional()
  @IsInt()
  @IsPositive()
  @Max(MAX_INT_ID)
  bookingId?: number;

  @IsOptional()
  @IsString()
  @MinLength(1)
  @MaxLength(200)
  ccPaymentId?: string;

  @IsOptional()
  @IsInt()
  @IsPositive()
  @Max(MAX_INT_ID)
  userId?: number;

  @IsOptional()
  @IsInt()
  @IsPositive()
  @Max(MAX_INT_ID)
  bankPaymentId?: number;
}

/** The accounting entry resource of the backend API. */
export interface AccountingEntryView {
  id: number;
  debit: number;
  credit: number;
  name: string;
  clientId: number;
  bookingId: number | null;
  ccPaymentId: string | null;
  userId: number | null;
  bankPaymentId: number | null;
  createdAt: string;
  updatedAt: string;
  deletedAt: string | null;
}

export interface BalanceView {
  clientId: number;
  currency: string;
  creditLimit: number;
  credits: number;
  debits: number;
  holds: number;
  /** creditLimit + credits − debits − holds */
  available: number;
}

export interface EntryPage {
  entries: AccountingEntryView[];
  total: number;
  page: number;
  limit: number;
}


/** accounting.entry.create.v1 */
export class CreateEntryRequest extends ActorScoped {
  @IsDefined()
  @ValidateNested()
  @Type(() => NewAccountingEntry)
  entry: NewAccountingEntry;

  /** The caller's Idempotency-Key: the same key and entry again answers what the first post made, once per client. */
  @IsOptional()
  @Matches(IDEMPOTENCY_KEY_PATTERN)
  idempotencyKey?: string;
}


/** Which entries of a ledger page: each condition optional, all of them together. */
export class LedgerFilter {
  @IsOptional()
  @Matches(/^\d{4}-\d{2}-\d{2}$/)
  from?: string;

  @IsOptional()
  @Matches(/^\d{4}-\d{2}-\d{2}$/)
  to?: string;

  @IsOptional()
  @IsString()
  @MaxLength(100)
  name?: string;

  @IsOptional()
  @IsInt()
  @IsPositive()
  bookingId?: number;

  @IsOptional()
  @Matches(/^\d{1,12}(\.\d{1,3})?$/)
  minAmount?: string;

  @IsOptional()
  @Matches(/^\d{1,12}(\.\d{1,3})?$/)
  maxAmount?: string;
}

/** accounting.entry.list.v1 */
export class ListEntriesRequest extends ActorScoped {
  @IsInt()
  @Min(1)
  page: number;

  @IsInt()
  @Min(1)
  @Max(500)
  limit: number;

  /** Only the entries that match (the gateway's ledger filters); every entry without. */
  @IsOptional()
  @ValidateNested()
  @Type(() => LedgerFilter)
  filter?: LedgerFilter;
}


/** accounting.entry.get.v1 */
export class EntryIdRequest extends ActorScoped {
  @IsInt()
  @IsPositive()
  id: number;
}

/** accounting.entry.list-by-booking.v1 */
export class BookingEntriesRequest extends ActorScoped {
  @IsInt()
  @IsPositive()
  bookingId: number;
}

/** accounting.balance.get.v1 */
export class BalanceRequest extends ActorScoped {}

/**
 * accounting.funds.check.v2: advisory, for prebook. v2: the amount's currency, which
 * the ledger holds to the account's (a price in any other is refused, never booked).
 */
export class FundsCheckRequest {
  @IsInt()
  @IsPositive()
  clientId: number;

  @IsIsoCurrency()
  currency: string;

  @IsOptional()
  @IsInt()
  @IsPositive()
  userId?: number;

  /** The user's clientAccountLimit, when a user is booking. */
  @IsOptional()
  @IsMoneyAmount({ allowNumber: false, max: MAX_STORED_AMOUNT })
  userLimit?: string;

  @IsMoneyAmount({ allowNumber: false, max: MAX_STORED_AMOUNT })
  amount: string;
}

export interface FundsCheckReply {
  sufficient: boolean;
  available: string;
}

/** accounting.hold.place.v2: reserve an account booking's price, idempotent by booking (v2: with its currency). */
export class PlaceHoldRequest extends FundsCheckRequest {
  @IsInt()
  @IsPositive()
  bookingId: number;
}

/** One client's booking, as the saga's accounting calls name it. */
class BookingRef {
  @IsInt()
  @IsPositive()
  clientId: number;

  @IsInt()
  @IsPositive()
  bookingId: number;
}

/** accounting.hold.capture.v1 / release.v1 */
export class HoldRequest extends BookingRef {
  /** The ledger entry's name when a hold is captured. */
  @IsOptional()
  @IsString()
  @MaxLength(500)
  name?: string;
}

export interface HoldView {
  bookingId: number;
  amount: string;
  status: 'active' | 'captured' | 'released';
  /** The debit entry, once captured. */
  entryId: number | null;
}

/** An amount written to the ledger for one booking, in its currency (the account's: refused otherwise), with the entry's name. */
class BookingLedgerRequest extends BookingRef {
  @IsIsoCurrency()
  currency: string;

  @IsOptional()
  @IsInt()
  @IsPositive()
  userId?: number;

  @IsMoneyAmount({ allowNumber: false, max: MAX_STORED_AMOUNT })
  amount: string;

  @IsString()
  @MaxLength(500)
  name: string;
}

/** accounting.card-payment.record.v2: a card booking's debit and the matching card credit, once per booking (v2: with its currency). */
export class CardPaymentRequest extends BookingLedgerRequest {
  @IsString()
  @MinLength(1)
  @MaxLength(200)
  ccPaymentId: string;
}

/** accounting.refund.create.v2: the credit for a cancelled booking, once per booking (v2: with its currency). */
export class RefundRequest extends BookingLedgerRequest {}
