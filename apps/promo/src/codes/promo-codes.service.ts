import { Inject, Injectable } from '@nestjs/common';
import { Counter } from 'prom-client';
import {
  CreatePromoRequest,
  PromoQuote,
  PromoView,
  QuotePromoRequest,
  RedeemPromoRequest,
  currencyDecimals,
  fitsCurrency,
  isIsoCurrency,
  milliToDecimal,
  scaleToCurrency,
  toMilli,
  todayUtc,
} from '@hotel/contracts';
import { APP_METRICS, AppMetrics, DomainError, requireAmountFits } from '@hotel/platform';
import { PromoCode, PromoCodesRepository, toPromoView } from './promo-codes.repository';

const invalid = (message: string) => new DomainError('PROMO_CODE_INVALID', message);

/**
 * The discount a code gives on an amount in a currency, in thousandths: a percentage
 * rounded half up to the currency's minor unit, never more than the amount.
 */
export function discountMilli(code: Pick<PromoView, 'kind' | 'value'>, amountMilli: number, currency: string): number {
  const value = toMilli(code.value);
  // value is the percentage in thousandths: amount × percent / 100.
  const discount = code.kind === 'percent' ? scaleToCurrency(amountMilli, BigInt(value), 100_000n, currency) : value;
  return Math.min(discount, amountMilli);
}

@Injectable()
export class PromoCodesService {
  private readonly redemptions: Counter<'outcome' | 'world'>;

  constructor(
    private readonly codes: PromoCodesRepository,
    @Inject(APP_METRICS) metrics: AppMetrics,
  ) {
    this.redemptions = metrics.counter('hotel_promo_redemptions_total', 'Promo code redemptions, redeemed or rejected, by world (live, sandbox)', ['outcome', 'world']);
  }

  async create(request: CreatePromoRequest): Promise<PromoView> {
    if (request.kind === 'percent' && toMilli(request.value) > 100_000) {
      throw DomainError.validation([{ field: 'value', message: 'a percent discount is at most 100' }]);
    }
    if (toMilli(request.value) === 0) throw DomainError.validation([{ field: 'value', message: 'value must be more than 0' }]);
    // An amount, and a minimum amount, are in the code's currency: in its minor unit (no half yen).
    if (request.kind === 'amount') requireAmountFits('value', request.value, request.currency);
    if (request.minAmount !== undefined) requireAmountFits('minAmount', request.minAmount, request.currency);
    const created = await this.codes.create(request);
    if (!created) throw new DomainError('CONFLICT', `promo code ${request.code} exists already`);
    return toPromoView(created);
  }

  async quote(request: QuotePromoRequest): Promise<PromoQuote> {
    if (isIsoCurrency(request.currency) && !fitsCurrency(toMilli(request.amount), request.currency)) {
      throw DomainError.validation([{ field: 'amount', message: `amount must have at most ${currencyDecimals(request.currency)} decimals in ${request.currency}` }]);
    }
    const code = await this.codes.find(normalise(request.code));
    return { code: normalise(request.code), discount: milliToDecimal(this.check(code, request)), currency: request.currency };
  }

  /** Consumes one use for a booking, atomically; a repeat for the same booking returns the first result. */
  async redeem(request: RedeemPromoRequest): Promise<PromoQuote> {
    try {
      const redemption = await this.codes.redeemOnce(normalise(request.code), request.clientId, request.bookingId, request.sandbox, (code) =>
        milliToDecimal(this.check(code, request)),
      );
      if (redemption === 'used-up') throw invalid('promo code used up');
      this.redemptions.inc({ outcome: 'redeemed', world: worldOf(request) });
      return { ...redemption, currency: request.currency };
    } catch (error) {
      if (error instanceof DomainError && error.code === 'PROMO_CODE_INVALID') this.redemptions.inc({ outcome: 'rejected', world: worldOf(request) });
      throw error;
    }
  }

  private check(code: PromoCode | null, request: QuotePromoRequest): number {
    if (!code) throw invalid('unknown promo code');
    if (code.expires !== null && code.expires < todayUtc().toISOString().slice(0, 10)) throw invalid(`promo code expired on ${code.expires}`);
    // Uses of the caller's world only: sandbox traffic never uses up a live code, nor the reverse.
    if (code.maxUses !== null && (request.sandbox ? code.sandboxUses : code.uses) >= code.maxUses) throw invalid('promo code used up');
    // An amount, or a minimum amount, is in the code's currency: such a code applies only to
    // bookings in that currency (a percentage alone applies in any).
    if ((code.kind === 'amount' || code.minAmount !== null) && code.currency !== request.currency) throw invalid(`promo code is for ${code.currency} bookings`);
    const amount = toMilli(request.amount);
    if (code.minAmount !== null && amount < toMilli(code.minAmount)) {
      throw invalid(`booking amount is below the minimum amount of ${code.minAmount} ${code.currency}`);
    }
    return discountMilli(code, amount, request.currency);
  }
}

function worldOf(request: { sandbox: boolean }): 'live' | 'sandbox' {
  return request.sandbox ? 'sandbox' : 'live';
}

function normalise(code: string): string {
  return code.trim().toUpperCase();
}
