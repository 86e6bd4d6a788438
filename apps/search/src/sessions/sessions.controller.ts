import { Controller } from '@nestjs/common';
import { Payload } from '@nestjs/microservices';
import {
  CreateSearchSessionRequestV3,
  HotelRates,
  HotelRatesRequest,
  OPERATIONS,
  PollSearchSessionRequest,
  ResolveRateRequest,
  ResolvedRate,
  SearchProgress,
} from '@hotel/contracts';
import { Handles } from '@hotel/platform';
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

  @Handles(OPERATIONS.SEARCH_RATE_RESOLVE)
  resolveRate(@Payload() request: ResolveRateRequest): Promise<ResolvedRate> {
    return this.sessions.resolveRate(request.actor, request.sessionId, request.hotelId, request.rateId);
  }

  @Handles(OPERATIONS.SEARCH_HOTEL_RATES_GET)
  hotelRates(@Payload() request: HotelRatesRequest): Promise<HotelRates> {
    return this.sessions.hotelRates(request.actor, request.sessionId, request.hotelId);
  }
}

