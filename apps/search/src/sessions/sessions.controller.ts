import { Controller } from '@nestjs/common';
import { Payload } from '@nestjs/microservices';
import {
  CreateSearchSessionRequest,
  CreateSearchSessionRequestV3,
  HotelRatesData,
  HotelRatesRequest,
  OPERATIONS,
  PollSearchSessionRequest,
  ResolveRateRequest,
  ResolvedRate,
  SearchData,
  SearchProgress,
  decimalToNumber,
} from '@hotel/contracts';
import { Handles } from '@hotel/platform';
import { unknownPlaceInApiWords } from '../previous-release';
import { SessionsService } from './sessions.service';

@Controller()
export class SessionsController {
  constructor(private readonly sessions: SessionsService) {}

  @Handles(OPERATIONS.SEARCH_SESSION_CREATE)
  create(@Payload() request: CreateSearchSessionRequestV3): Promise<SearchProgress> {
    return this.sessions.create(request.actor, request.pricing, request.search);
  }

  @Handles(OPERATIONS.SEARCH_SESSION_POLL)
  poll(@Payload() request: PollSearchSessionRequest): Promise<SearchProgress> {
    return this.sessions.poll(request.actor, request.sessionId);
  }

  /** v2, for the gateways of the previous release during a rolling upgrade (remove in the next): the API's body and answer. */
  @Handles(OPERATIONS.SEARCH_SESSION_CREATE_V2)
  async createV2(@Payload() request: CreateSearchSessionRequest): Promise<SearchData> {
    const { search } = request;
    const field = search.place_id !== undefined ? 'place_id' : 'destination_id';
    const stay = {
      placeId: (search.place_id ?? search.destination_id)!,
      checkIn: search.check_in!,
      checkOut: search.check_out!,
      rooms: search.rooms!.map((room) => ({ adults: room.adults, children: room.children, childAges: room.children_ages })),
    };
    const progress = await this.sessions.create(request.actor, request.pricing, stay).catch((error: unknown) => {
      throw unknownPlaceInApiWords(error, field);
    });
    return searchDataV2(progress);
  }

  /** v2, as createV2. */
  @Handles(OPERATIONS.SEARCH_SESSION_POLL_V2)
  async pollV2(@Payload() request: PollSearchSessionRequest): Promise<SearchData> {
    return searchDataV2(await this.sessions.poll(request.actor, request.sessionId));
  }

  @Handles(OPERATIONS.SEARCH_RATE_RESOLVE)
  resolveRate(@Payload() request: ResolveRateRequest): Promise<ResolvedRate> {
    return this.sessions.resolveRate(request.actor, request.sessionId, request.hotelId, request.rateId);
  }

  @Handles(OPERATIONS.SEARCH_HOTEL_RATES_GET)
  hotelRates(@Payload() request: HotelRatesRequest): Promise<HotelRatesData> {
    return this.sessions.hotelRates(request.actor, request.sessionId, request.hotelId);
  }
}

/** The v2 answer (the API's), for the previous release's gateways. */
function searchDataV2(progress: SearchProgress): SearchData {
  return {
    session_id: progress.sessionId,
    search_completed: progress.completed,
    results: progress.hotels.map(({ lowestRate, ...hotel }) => ({
      hotel: { ...hotel, lowest_rate: { id: lowestRate.id, price_chargeable: decimalToNumber(lowestRate.amount), price_currency: lowestRate.currency } },
    })),
  };
}
