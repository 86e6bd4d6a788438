import { Controller } from '@nestjs/common';
import { Payload } from '@nestjs/microservices';
import { Observable, from } from 'rxjs';
import { OPERATIONS, V2RatesQueryChunk, V2RatesRequestV3 } from '@hotel/contracts';
import { Handles } from '@hotel/platform';
import { V2RatesService } from './v2-rates.service';

@Controller()
export class V2RatesController {
  constructor(private readonly v2: V2RatesService) {}

  /** Answers in several NATS messages: the head, then the rates in chunks. */
  @Handles(OPERATIONS.SEARCH_V2_RATES_SEARCH)
  search(@Payload() request: V2RatesRequestV3): Observable<V2RatesQueryChunk> {
    return from(this.v2.answer(request.query, request.pricing));
  }
}
