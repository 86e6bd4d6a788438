import { Body, Controller, HttpCode, Inject, Post } from '@nestjs/common';
import { Actor, PromoCodeBody, SUBJECTS, currencyDecimals, fitsCurrency, milliToNumber, toMilli, toDecimalString } from '@hotel/contracts';
import { DomainError, ServiceClient } from '@hotel/platform';
import { BookingApi, CurrentActor } from '../auth/api-family';
import { SERVICE_CLIENT } from '../gateway.tokens';
import { PromoDiscountView } from '../http/reply-views';

/** Bookings are priced in USD: a code's discount is quoted on a USD amount. */
const BOOKING_CURRENCY = 'USD';

@Controller('book/promocode')
@BookingApi()
export class PromoController {
  constructor(@Inject(SERVICE_CLIENT) private readonly services: ServiceClient) {}

  /** 200 with the discount, or 400 PROMO_CODE_INVALID saying why (unknown, expired, minimum amount, used up in the key's world). */
  @Post()
  @HttpCode(200)
  async validate(@CurrentActor() actor: Actor, @Body() body: PromoCodeBody): Promise<PromoDiscountView> {
    if (!fitsCurrency(toMilli(body.booking_amount), BOOKING_CURRENCY)) {
      throw DomainError.validation([{ field: 'booking_amount', message: `booking_amount must have at most ${currencyDecimals(BOOKING_CURRENCY)} decimals in ${BOOKING_CURRENCY}` }]);
    }
    const quote = await this.services.send(SUBJECTS.PROMO_CODE_QUOTE, {
      code: body.code,
      amount: toDecimalString(body.booking_amount),
      currency: BOOKING_CURRENCY,
      // A sandbox key is quoted against the code's sandbox uses, a live key against its live ones.
      sandbox: actor.sandbox,
    });
    return { price_discount_amount: milliToNumber(toMilli(quote.discount)), price_currency: quote.currency };
  }
}
