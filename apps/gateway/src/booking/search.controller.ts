import { Body, Controller, Inject, Param, Query } from '@nestjs/common';
import { Actor, ClientPricing, HotelRatesData, PlacesQuery, PlacesReply, SUBJECTS, SearchBody, SearchData, hotelRatesAnswer, searchAnswer, staySearchOf } from '@hotel/contracts';
import { ServiceClient } from '@hotel/platform';
import { BookingApi, CurrentActor, CurrentPricing } from '../auth/api-family';
import { SERVICE_CLIENT } from '../gateway.tokens';
import { placesAnswer, unknownPlaceInApiWords } from './booking-api-shapes';
import { PlacesCache } from './places-cache';
import { HotelSessionParams, SessionParams } from './search.params';
import { Route } from '../http/route';

/** Places, V1 search with polling, and one hotel's rates (V2 rates: V2RatesController). */
@Controller()
@BookingApi()
export class SearchController {
  private readonly placesCache = new PlacesCache(10 * 60_000);

  constructor(@Inject(SERVICE_CLIENT) private readonly services: ServiceClient) {}

  @Route('GET /places/search')
  places(@Query() query: PlacesQuery): Promise<PlacesReply> {
    const key = `${query.limit ?? ''}|${query.text_query.trim().toLowerCase()}`;
    return this.placesCache.get(key, async () => placesAnswer(await this.services.send(SUBJECTS.SEARCH_PLACE_FIND, { text: query.text_query, limit: query.limit })));
  }

  /** Starts a search, or with `{session_id}` alone polls one. */
  @Route('POST /search')
  async search(@CurrentActor() actor: Actor, @CurrentPricing() pricing: ClientPricing, @Body() body: SearchBody): Promise<SearchData> {
    if (body.session_id !== undefined) {
      return searchAnswer(await this.services.send(SUBJECTS.SEARCH_SESSION_POLL, { actor, sessionId: body.session_id }));
    }
    try {
      return searchAnswer(await this.services.send(SUBJECTS.SEARCH_SESSION_CREATE, { actor, pricing, search: staySearchOf(body) }));
    } catch (error) {
      throw unknownPlaceInApiWords(error, body);
    }
  }

  @Route('GET /search/{session_id}')
  async poll(@CurrentActor() actor: Actor, @Param() params: SessionParams): Promise<SearchData> {
    return searchAnswer(await this.services.send(SUBJECTS.SEARCH_SESSION_POLL, { actor, sessionId: params.session_id }));
  }

  @Route('GET /hotel/{hotel_id}/{session_id}')
  async hotel(@CurrentActor() actor: Actor, @Param() params: HotelSessionParams): Promise<HotelRatesData> {
    return hotelRatesAnswer(await this.services.send(SUBJECTS.SEARCH_HOTEL_RATES_GET, { actor, sessionId: params.session_id, hotelId: Number(params.hotel_id) }));
  }
}
