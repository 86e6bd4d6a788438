import { Controller } from '@nestjs/common';
import { Payload } from '@nestjs/microservices';
import { CreateSearchSessionRequest, HotelRatesData, HotelRatesRequest, OPERATIONS, PollSearchSessionRequest, ResolveRateRequest, ResolvedRate, SearchData } from '@hotel/contracts';
import { SessionsService } from './sessions.service';
import { Handles } from '@hotel/platform';

@Controller()
export class SessionsController {
  constructor(private readonly sessions: SessionsService) {}

  @Handles(OPERATIONS.SEARCH_SESSION_CREATE)
  create(@Payload() request: CreateSearchSessionRequest): Promise<SearchData> {
    return this.sessions.create(request.actor, request.pricing, request.search);
  }

  @Handles(OPERATIONS.SEARCH_SESSION_POLL)
  poll(@Payload() request: PollSearchSessionRequest): Promise<SearchData> {
    return this.sessions.poll(request.actor, request.sessionId);
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
