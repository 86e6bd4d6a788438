import { Controller } from '@nestjs/common';
import { Payload } from '@nestjs/microservices';
import {
  CreateSearchSessionRequest,
  CreateSearchSessionRequestV3,
  HotelRates,
  HotelRatesData,
  HotelRatesRequest,
  OPERATIONS,
  PollSearchSessionRequest,
  ResolveRateRequest,
  ResolvedRate,
  SearchData,
  SearchProgress,
  hotelRatesAnswer,
  searchAnswer,
  staySearchOf,
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
    const field = request.search.place_id !== undefined ? 'place_id' : 'destination_id';
    const progress = await this.sessions.create(request.actor, request.pricing, staySearchOf(request.search)).catch((error: unknown) => {
      throw unknownPlaceInApiWords(error, field);
    });
    return searchAnswer(progress);
  }

  /** v2, as createV2. */
  @Handles(OPERATIONS.SEARCH_SESSION_POLL_V2)
  async pollV2(@Payload() request: PollSearchSessionRequest): Promise<SearchData> {
    return searchAnswer(await this.sessions.poll(request.actor, request.sessionId));
  }

  @Handles(OPERATIONS.SEARCH_RATE_RESOLVE)
  resolveRate(@Payload() request: ResolveRateRequest): Promise<ResolvedRate> {
    return this.sessions.resolveRate(request.actor, request.sessionId, request.hotelId, request.rateId);
  }

  @Handles(OPERATIONS.SEARCH_HOTEL_RATES_GET)
  hotelRates(@Payload() request: HotelRatesRequest): Promise<HotelRates> {
    return this.sessions.hotelRates(request.actor, request.sessionId, request.hotelId);
  }

  /** v2, as createV2. */
  @Handles(OPERATIONS.SEARCH_HOTEL_RATES_GET_V2)
  async hotelRatesV2(@Payload() request: HotelRatesRequest): Promise<HotelRatesData> {
    return hotelRatesAnswer(await this.sessions.hotelRates(request.actor, request.sessionId, request.hotelId));
  }
}

