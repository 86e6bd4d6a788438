import { Body, Controller, HttpCode, Inject, Post } from '@nestjs/common';
import { PromoCodeBody, SUBJECTS, milliToNumber, toMilli, toDecimalString } from '@hotel/contracts';
import { ServiceClient } from '@hotel/platform';
import { BookingApi } from '../auth/api-family';
import { SERVICE_CLIENT } from '../gateway.tokens';
import { PromoDiscountView } from '../http/reply-views';

/** Bookings are priced in USD: a code's discount is quoted on a USD amount. */
const BOOKING_CURRENCY = 'USD';

@Controller('book/promocode')
@BookingApi()
export class PromoController {
  constructor(@Inject(SERVICE_CLIENT) private readonly services: ServiceClient) {}

  /** 200 with the discount, or 400 PROMO_CODE_INVALID saying why (unknown, expired, minimum amount, used up). */
  @Post()
  @HttpCode(200)
  async validate(@Body() body: PromoCodeBody): Promise<PromoDiscountView> {
    const quote = await this.services.send(SUBJECTS.PROMO_CODE_QUOTE, {
      code: body.code,
      amount: toDecimalString(body.booking_amount),
      currency: BOOKING_CURRENCY,
    });
    return { price_discount_amount: milliToNumber(toMilli(quote.discount)), price_currency: quote.currency };
  }
}
