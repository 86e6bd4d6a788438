import { Controller } from '@nestjs/common';
import { Payload } from '@nestjs/microservices';
import { Observable, from } from 'rxjs';
import { OPERATIONS, V2RatesChunk, V2RatesRequest } from '@hotel/contracts';
import { V2RatesService } from './v2-rates.service';
import { Handles } from '@hotel/platform';

@Controller()
export class V2RatesController {
  constructor(private readonly v2: V2RatesService) {}

  /** Answers in several NATS messages: the head, then the rates in chunks. */
  @Handles(OPERATIONS.SEARCH_V2_RATES_SEARCH)
  search(@Payload() request: V2RatesRequest): Observable<V2RatesChunk> {
    return from(this.v2.answer(request.search, request.pricing));
  }
}
