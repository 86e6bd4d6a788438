import { Body, Controller, Header, Inject } from '@nestjs/common';
import { PassThrough, Readable } from 'node:stream';
import { Actor, ClientPricing, SUBJECTS, V2RatesBody, V2RatesHead, v2RatesHeadOf, v2RatesQueryOf } from '@hotel/contracts';
import { ServiceClient } from '@hotel/platform';
import { BookingApi, CurrentActor, CurrentPricing } from '../auth/api-family';
import { SERVICE_CLIENT } from '../gateway.tokens';
import { bytesBody } from '../http/paginated';
import { Route } from '../http/route';
import { unknownPlaceInApiWords } from '../booking/booking-api-shapes';

const COMMA = Buffer.from(',');
const CLOSING = Buffer.from(']}');

/**
 * Which answers stream. A small one goes out whole when its last chunk is here: measured,
 * a 500 KB answer (50 hotels) streamed as it came cost the gateway 2.5 times the CPU of
 * the same answer sent at its end. A page of more than STREAM_HOTELS hotels (about 10 KB
 * each) starts at once, with its head, and the client gets the first hotels while the
 * rest are on their way (2000 hotels are about 16 MB); any answer streams once
 * STREAM_AFTER_BYTES of it are here.
 */
const STREAM_HOTELS = 100;
const STREAM_AFTER_BYTES = 1024 * 1024;

/** How many hotels the head says its page has. */
function hotelsOnPage(head: V2RatesHead): number {
  return Math.max(0, Math.min(head.limit, head.totalHotels - (head.page - 1) * head.limit));
}

/** V2 rates: the rates of given hotels for a stay, at once, without a search session. */
@Controller()
@BookingApi()
export class V2RatesController {
  constructor(@Inject(SERVICE_CLIENT) private readonly services: ServiceClient) {}

  /**
   * The specification gives this response without an envelope: it is written as
   * bytes, which the envelope hook leaves alone. The search service sends the head
   * (rendered here: the request echoed, and the metadata), then the rates already serialized in chunks of raw JSON,
   * passed on undecoded. A large page starts with its head (chunked transfer) and
   * each chunk goes on as it arrives (see STREAM_HOTELS). A failure
   * before the answer starts is an error answer; after, the response is cut off (the
   * client sees an incomplete body, never a shorter valid one).
   */
  @Route('POST /v2/rates')
  @Header('content-type', 'application/json; charset=utf-8')
  async rates(@CurrentActor() actor: Actor, @CurrentPricing() pricing: ClientPricing, @Body() body: V2RatesBody): Promise<Readable> {
    return new Promise<Readable>((resolve, reject) => {
      const gathered: Uint8Array[] = [];
      let size = 0;
      let rateChunks = 0;
      let streaming: PassThrough | undefined;
      const add = (part: Uint8Array, streamNow = false) => {
        if (streaming) return streaming.write(part);
        gathered.push(part);
        size += part.length;
        if (size < STREAM_AFTER_BYTES && !streamNow) return;
        streaming = new PassThrough();
        for (const earlier of gathered.splice(0)) streaming.write(earlier);
        resolve(streaming);
      };
      this.services
        .sendForEach(SUBJECTS.SEARCH_V2_RATES_SEARCH, { actor, pricing, query: v2RatesQueryOf(body) }, (chunk) => {
          if (size === 0) {
            if (!('head' in chunk)) throw new Error('search.v2-rates answered without a head');
            add(Buffer.from(`${JSON.stringify(v2RatesHeadOf(body, chunk.head)).slice(0, -1)},"rates":[`), hotelsOnPage(chunk.head) > STREAM_HOTELS);
          } else if (chunk instanceof Uint8Array && chunk.length > 0) {
            if (rateChunks++ > 0) add(COMMA);
            add(chunk);
          }
        })
        .then(
          () => {
            if (size === 0) return reject(new Error('search.v2-rates answered without a head'));
            if (streaming) return streaming.end(CLOSING);
            gathered.push(CLOSING);
            resolve(bytesBody(gathered));
          },
          (error: unknown) => (streaming ? streaming.destroy(error instanceof Error ? error : new Error(String(error))) : reject(unknownPlaceInApiWords(error, body))),
        );
    });
  }
}
