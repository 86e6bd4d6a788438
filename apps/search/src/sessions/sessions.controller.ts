import { Controller } from '@nestjs/common';
import { MessagePattern, Payload } from '@nestjs/microservices';
import {
  CreateSearchSessionRequest,
  HotelRatesData,
  HotelRatesRequest,
  PollSearchSessionRequest,
  ResolveRateRequest,
  ResolvedRate,
  SUBJECTS,
  SearchData,
} from '@hotel/contracts';
import { SessionsService } from './sessions.service';

@Controller()
export class SessionsController {
  constructor(private readonly sessions: SessionsService) {}

  @MessagePattern(SUBJECTS.SEARCH_SESSION_CREATE)
  create(@Payload() request: CreateSearchSessionRequest): Promise<SearchData> {
    return this.sessions.create(request.actor, request.pricing, request.search);
  }

  @MessagePattern(SUBJECTS.SEARCH_SESSION_POLL)
  poll(@Payload() request: PollSearchSessionRequest): Promise<SearchData> {
    return this.sessions.poll(request.actor, request.sessionId);
  }

  @MessagePattern(SUBJECTS.SEARCH_RATE_RESOLVE)
  resolveRate(@Payload() request: ResolveRateRequest): Promise<ResolvedRate> {
    return this.sessions.resolveRate(request.actor, request.sessionId, request.hotelId, request.rateId);
  }

  @MessagePattern(SUBJECTS.SEARCH_HOTEL_RATES_GET)
  hotelRates(@Payload() request: HotelRatesRequest): Promise<HotelRatesData> {
    return this.sessions.hotelRates(request.actor, request.sessionId, request.hotelId);
  }
}
