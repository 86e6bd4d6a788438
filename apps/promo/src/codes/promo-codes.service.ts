import { Inject, Injectable } from '@nestjs/common';
import { Counter } from 'prom-client';
import { CreatePromoRequest, PromoQuote, PromoView, QuotePromoRequest, RedeemPromoRequest, centsToDecimal, toCents, todayUtc } from '@hotel/contracts';
import { APP_METRICS, AppMetrics, DomainError } from '@hotel/platform';
import { PromoCode, PromoCodesRepository } from './promo-codes.repository';

const invalid = (message: string) => new DomainError('PROMO_CODE_INVALID', message);

/** The discount a code gives on an amount, in cents: percent rounded half up, never more than the amount. */
export function discountCents(code: Pick<PromoView, 'kind' | 'value'>, amountCents: number): number {
  const value = toCents(code.value);
  const discount = code.kind === 'percent' ? Math.round((amountCents * value) / 10_000) : value;
  return Math.min(discount, amountCents);
}

@Injectable()
export class PromoCodesService {
  private readonly redemptions: Counter<'outcome'>;

  constructor(
    private readonly codes: PromoCodesRepository,
    @Inject(APP_METRICS) metrics: AppMetrics,
  ) {
    this.redemptions = metrics.counter('hotel_promo_redemptions_total', 'Promo code redemptions, redeemed or rejected', ['outcome']);
  }

  async create(request: CreatePromoRequest): Promise<PromoView> {
    if (request.kind === 'percent' && toCents(request.value) > 10_000) {
      throw DomainError.validation([{ field: 'value', message: 'a percent discount is at most 100' }]);
    }
    if (toCents(request.value) === 0) throw DomainError.validation([{ field: 'value', message: 'value must be more than 0' }]);
    const created = await this.codes.create(request);
    if (!created) throw new DomainError('CONFLICT', `promo code ${request.code} exists already`);
    return created;
  }

  async quote(request: QuotePromoRequest): Promise<PromoQuote> {
    const code = await this.codes.find(normalise(request.code));
    return { code: normalise(request.code), discount: centsToDecimal(this.check(code, request)), currency: request.currency };
  }

  /** Consumes one use for a booking, atomically; a repeat for the same booking returns the first result. */
  async redeem(request: RedeemPromoRequest): Promise<PromoQuote> {
    try {
      const redemption = await this.codes.redeemOnce(normalise(request.code), request.clientId, request.bookingId, (code) =>
        centsToDecimal(this.check(code, request)),
      );
      if (redemption === 'used-up') throw invalid('promo code used up');
      this.redemptions.inc({ outcome: 'redeemed' });
      return { ...redemption, currency: request.currency };
    } catch (error) {
      if (error instanceof DomainError && error.code === 'PROMO_CODE_INVALID') this.redemptions.inc({ outcome: 'rejected' });
      throw error;
    }
  }

  private check(code: PromoCode | null, request: QuotePromoRequest): number {
    if (!code) throw invalid('unknown promo code');
    if (code.expires !== null && code.expires < todayUtc().toISOString().slice(0, 10)) throw invalid(`promo code expired on ${code.expires}`);
    if (code.maxUses !== null && code.uses >= code.maxUses) throw invalid('promo code used up');
    if (code.kind === 'amount' && code.currency !== request.currency) throw invalid(`promo code is for ${code.currency} bookings`);
    const amount = toCents(request.amount);
    if (code.minAmount !== null && amount < toCents(code.minAmount)) {
      throw invalid(`booking amount is below the minimum amount of ${code.minAmount} ${code.currency}`);
    }
    return discountCents(code, amount);
  }
}

function normalise(code: string): string {
  return code.trim().toUpperCase();
}
