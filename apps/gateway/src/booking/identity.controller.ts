import { Controller } from '@nestjs/common';
import { Actor, ClientPricing, currencyDecimals } from '@hotel/contracts';
import { BookingApi, CurrentActor, CurrentPricing } from '../auth/api-family';
import { IdentityView } from '../http/reply-views';
import { Route } from '../http/route';

/**
 * `GET /me`, an addition to the specification: tells an integrator which client
 * (and user) a credential acts for, whether it is a sandbox key and which currency
 * the client is priced in: the first call to make when wiring up a key.
 */
@Controller()
@BookingApi()
export class IdentityController {
  @Route('GET /me')
  whoAmI(@CurrentActor() actor: Actor, @CurrentPricing() pricing: ClientPricing): IdentityView {
    return {
      client_id: actor.clientId,
      user_id: actor.userId,
      is_sandbox: actor.sandbox,
      currency: pricing.currency,
      currency_decimals: currencyDecimals(pricing.currency),
      fx_margin_percent: pricing.fxMarginPercent,
    };
  }
}
