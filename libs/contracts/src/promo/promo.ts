import { IsBoolean, IsIn, IsInt, IsOptional, IsPositive, IsString, Matches, MaxLength, Min, MinLength, registerDecorator } from 'class-validator';
import { IsIsoCurrency, IsMoneyAmount, MAX_STORED_AMOUNT } from '../common/validators';
import { parseDay, todayUtc } from '../search/stay';

export const PROMO_KINDS = ['percent', 'amount'] as const;
export type PromoKind = (typeof PROMO_KINDS)[number];
export const PROMO_CODE_PATTERN = /^[A-Z0-9][A-Z0-9_-]{2,31}$/;

function IsDayFromToday() {
  return (target: object, propertyName: string) =>
    registerDecorator({
      name: 'isDayFromToday',
      target: target.constructor,
      propertyName,
      options: { message: `${propertyName} must be a date YYYY-MM-DD from today on` },
      validator: { validate: (value: unknown) => (parseDay(value)?.getTime() ?? -1) >= todayUtc().getTime() },
    });
}

/** promo.code.create.v1 (admin command line). */
export class CreatePromoRequest {
  @Matches(PROMO_CODE_PATTERN, { message: 'code must be 3 to 32 capital letters, digits, _ or -' })
  code: string;

  @IsIn(PROMO_KINDS)
  kind: PromoKind;

  /** Percent (0.01–100) or an amount in `currency`. */
  @IsMoneyAmount({ allowNumber: false })
  value: string;

  @IsIsoCurrency()
  currency: string;

  @IsOptional()
  @IsMoneyAmount({ allowNumber: false })
  minAmount?: string;

  @IsOptional()
  @IsInt()
  @Min(1)
  maxUses?: number;

  /** Last day the code can be used (YYYY-MM-DD). */
  @IsOptional()
  @IsDayFromToday()
  expires?: string;
}

export interface PromoView {
  code: string;
  kind: PromoKind;
  value: string;
  currency: string;
  minAmount: string | null;
  maxUses: number | null;
  /** Live uses (sandbox ones are counted apart, against the same maxUses). */
  uses: number;
  expires: string | null;
}

/** Body of `POST /book/promocode`. */
export class PromoCodeBody {
  @IsString()
  @MinLength(1)
  @MaxLength(64)
  code: string;

  @IsMoneyAmount({ allowString: false })
  @IsPositive()
  booking_amount: number;
}

/**
 * promo.code.quote.v2: the discount a code gives on an amount, or PROMO_CODE_INVALID with
 * the reason. A code's uses are counted per world: `max_uses` live uses and as many
 * sandbox ones, so sandbox traffic never uses up a live code.
 */
export class QuotePromoRequest {
  @IsString()
  @MinLength(1)
  @MaxLength(64)
  code: string;

  @IsMoneyAmount({ allowNumber: false, max: MAX_STORED_AMOUNT })
  amount: string;

  @Matches(/^[A-Z]{3}$/)
  currency: string;

  /** The world whose uses count: the caller's sandbox flag (a sandbox key, or a booking made with one). */
  @IsBoolean()
  sandbox: boolean;
}

export interface PromoQuote {
  code: string;
  discount: string;
  currency: string;
}

/** promo.code.redeem.v2: consumes one use of the booking's world (sandbox or live) for a confirmed booking, once per booking. */
export class RedeemPromoRequest extends QuotePromoRequest {
  @IsInt()
  @IsPositive()
  clientId: number;

  @IsInt()
  @IsPositive()
  bookingId: number;
}
