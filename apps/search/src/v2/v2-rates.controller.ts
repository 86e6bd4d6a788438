import { Controller } from '@nestjs/common';
import { Payload } from '@nestjs/microservices';
import { Observable, from } from 'rxjs';
import { OPERATIONS, V2RatesChunk, V2RatesQueryChunk, V2RatesRequest, V2RatesRequestV3, v2RatesHeadOf, v2RatesQueryOf } from '@hotel/contracts';
import { Handles } from '@hotel/platform';
import { unknownPlaceInApiWords } from '../previous-release';
import { V2RatesService } from './v2-rates.service';

@Controller()
export class V2RatesController {
  constructor(private readonly v2: V2RatesService) {}

  /** Answers in several NATS messages: the head, then the rates in chunks. */
  @Handles(OPERATIONS.SEARCH_V2_RATES_SEARCH)
  search(@Payload() request: V2RatesRequestV3): Observable<V2RatesQueryChunk> {
    return from(this.v2.answer(request.query, request.pricing));
  }

  /** v2, for the gateways of the previous release during a rolling upgrade (remove in the next): the API's body and head. */
  @Handles(OPERATIONS.SEARCH_V2_RATES_SEARCH_V2)
  searchV2(@Payload() request: V2RatesRequest): Observable<V2RatesChunk> {
    return from(this.answerV2(request));
  }

  private async *answerV2({ search: body, pricing }: V2RatesRequest): AsyncGenerator<V2RatesChunk> {
    try {
      for await (const chunk of this.v2.answer(v2RatesQueryOf(body), pricing)) {
        yield chunk instanceof Uint8Array ? chunk : { head: v2RatesHeadOf(body, chunk.head) };
      }
    } catch (error) {
      throw unknownPlaceInApiWords(error, body.place_id !== undefined ? 'place_id' : 'destination_id');
    }
  }
}
