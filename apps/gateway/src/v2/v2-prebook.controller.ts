import { Body, Controller, Inject } from '@nestjs/common';
import { Actor, ClientPricing, PrebookData, SUBJECTS, TestScenario, V2PrebookBody, prebookAnswer } from '@hotel/contracts';
import { ServiceClient } from '@hotel/platform';
import { BookingApi, CurrentActor, CurrentPricing } from '../auth/api-family';
import { TestScenarioHeader } from '../booking/test-scenario';
import { SERVICE_CLIENT } from '../gateway.tokens';
import { Route } from '../http/route';

/** V2 prebook: holds a rate from /v2/rates by its id; the answer's prebook_id is what /v2/book takes. */
@Controller()
@BookingApi()
export class V2PrebookController {
  constructor(@Inject(SERVICE_CLIENT) private readonly services: ServiceClient) {}

  @Route('POST /v2/prebook')
  async prebook(
    @CurrentActor() actor: Actor,
    @CurrentPricing() pricing: ClientPricing,
    @Body() body: V2PrebookBody,
    @TestScenarioHeader() scenario?: TestScenario,
  ): Promise<PrebookData> {
    const prebook = await this.services.send(SUBJECTS.RATES_PREBOOK_CREATE, {
      actor,
      pricing,
      rateId: body.rate_id,
      paymentMethod: body.payment_method,
      ...(body.promo_code !== undefined && { promoCode: body.promo_code }),
      ...(scenario && { testScenario: scenario }),
    });
    return prebookAnswer(prebook);
  }
}
