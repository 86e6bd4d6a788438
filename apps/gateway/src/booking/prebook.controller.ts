import { Controller, Inject, Param, Query } from '@nestjs/common';
import { IsIn, IsUUID } from 'class-validator';
import { Actor, ClientPricing, PAYMENT_METHODS, PaymentMethod, PrebookData, PrebookQuery, SUBJECTS, TestScenario, prebookAnswer } from '@hotel/contracts';
import { ServiceClient } from '@hotel/platform';
import { BookingApi, CurrentActor, CurrentPricing } from '../auth/api-family';
import { SERVICE_CLIENT } from '../gateway.tokens';
import { HotelSessionParams } from './search.params';
import { TestScenarioHeader } from './test-scenario';
import { Route } from '../http/route';

export class PrebookParams extends HotelSessionParams {
  @IsUUID('all', { message: 'rate_id must be a UUID' })
  rate_id: string;

  @IsIn(PAYMENT_METHODS, { message: 'payment method must be account or credit_card' })
  payment_method: PaymentMethod;
}

@Controller()
@BookingApi()
export class PrebookController {
  constructor(@Inject(SERVICE_CLIENT) private readonly services: ServiceClient) {}

  @Route('GET /prebook/{hotel_id}/{session_id}/{rate_id}/{payment_method}')
  async v1(
    @CurrentActor() actor: Actor,
    @CurrentPricing() pricing: ClientPricing,
    @Param() params: PrebookParams,
    @Query() query: PrebookQuery,
    @TestScenarioHeader() scenario?: TestScenario,
  ): Promise<PrebookData> {
    const prebook = await this.services.send(SUBJECTS.RATES_PREBOOK_CREATE, {
      actor,
      pricing,
      ...(scenario && { testScenario: scenario }),
      sessionId: params.session_id,
      hotelId: Number(params.hotel_id),
      rateId: params.rate_id,
      paymentMethod: params.payment_method,
      ...(query.promo_code !== undefined && { promoCode: query.promo_code }),
    });
    return prebookAnswer(prebook);
  }
}
