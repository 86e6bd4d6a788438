import { Body, Controller, Header, HttpCode, Inject, Post } from '@nestjs/common';
import { Actor, SUBJECTS, V2RatesBody, commaSeparated } from '@hotel/contracts';
import { ServiceClient } from '@hotel/platform';
import { BookingApi, CurrentActor } from '../auth/api-family';
import { SERVICE_CLIENT } from '../gateway.tokens';

const CLOSING = Buffer.from(']}');

/** V2 rates: the rates of given hotels for a stay, at once, without a search session. */
@Controller('v2')
@BookingApi()
export class V2RatesController {
  constructor(@Inject(SERVICE_CLIENT) private readonly services: ServiceClient) {}

  /**
   * The specification gives this response without an envelope: it is returned
   * as bytes, which the envelope hook leaves alone. The search service sends the
   * rates already serialized, as raw JSON bytes in chunks, joined here without
   * being decoded.
   */
  @Post('rates')
  @HttpCode(200)
  @Header('content-type', 'application/json; charset=utf-8')
  async rates(@CurrentActor() actor: Actor, @Body() body: V2RatesBody): Promise<Buffer> {
    const [first, ...rateChunks] = await this.services.sendForAll(SUBJECTS.SEARCH_V2_RATES_SEARCH, { actor, search: body });
    if (!first || !('head' in first)) throw new Error('search.v2-rates answered without a head');
    const rates = rateChunks.filter((chunk): chunk is Uint8Array => chunk instanceof Uint8Array && chunk.length > 0);
    return Buffer.concat([Buffer.from(`${JSON.stringify(first.head).slice(0, -1)},"rates":[`), ...commaSeparated(rates), CLOSING]);
  }
}
