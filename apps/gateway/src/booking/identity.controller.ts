import { Controller, Get } from '@nestjs/common';
import { Actor } from '@hotel/contracts';
import { BookingApi, CurrentActor } from '../auth/api-family';
import { IdentityView } from '../http/reply-views';

/**
 * `GET /me`, an addition to the specification: tells an integrator which client
 * (and user) a credential acts for and whether it is a sandbox key, the first
 * call to make when wiring up a key.
 */
@Controller('me')
@BookingApi()
export class IdentityController {
  @Get()
  whoAmI(@CurrentActor() actor: Actor): IdentityView {
    return { client_id: actor.clientId, user_id: actor.userId, is_sandbox: actor.sandbox };
  }
}
