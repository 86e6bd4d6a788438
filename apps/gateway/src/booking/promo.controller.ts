import { Body, Controller, Inject } from '@nestjs/common';
import { Actor, ClientPricing, PromoCodeBody, SUBJECTS, milliToNumber, toMilli, toDecimalString } from '@hotel/contracts';
import { ServiceClient, requireAmountFits } from '@hotel/platform';
import { BookingApi, CurrentActor, CurrentPricing } from '../auth/api-family';
import { SERVICE_CLIENT } from '../gateway.tokens';
import { PromoDiscountView } from '../http/reply-views';
import { Route } from '../http/route';

@Controller()
@BookingApi()
export class PromoController {
  constructor(@Inject(SERVICE_CLIENT) private readonly services: ServiceClient) {}

  /** 200 with the discount, or 400 PROMO_CODE_INVALID saying why (unknown, expired, minimum amount, used up in the key's world). */
  @Route('POST /book/promocode')
  async validate(@CurrentActor() actor: Actor, @CurrentPricing() pricing: ClientPricing, @Body() body: PromoCodeBody): Promise<PromoDiscountView> {
    // The amount is a booking's price, in the client's account currency.
    requireAmountFits('booking_amount', body.booking_amount, pricing.currency);
    const quote = await this.services.send(SUBJECTS.PROMO_CODE_QUOTE, {
      code: body.code,
      amount: toDecimalString(body.booking_amount),
      currency: pricing.currency,
      // A sandbox key is quoted against the code's sandbox uses, a live key against its live ones.
      sandbox: actor.sandbox,
    });
    return { price_discount_amount: milliToNumber(toMilli(quote.discount)), price_currency: quote.currency };
  }
}
