import { PassThrough, Readable } from 'node:stream';
import { FastifyReply } from 'fastify';
import { withKnownLength } from './compression';
import { ENTITY_TAGS, TaggedBookingPageChunk, commaSeparated } from '@hotel/contracts';

/**
 * A page of a list: the envelope puts `items` in `data` and adds `total` (all
 * matches across pages), as the specification's `GET /book` does.
 */
export class Paginated<T> {
  constructor(
    readonly items: T[],
    readonly total: number,
  ) {}
}

const OPENING = Buffer.from('{"data":[');

/**
 * The body of a page whose items a service sent as raw JSON bytes (a head with
 * `total`, then items joined by commas, in chunks: TaggedBookingPageChunk): the same
 * bytes the envelope hook writes for a {@link Paginated} (`{"data", "total",
 * "success", "message"}`), joined without decoding the items. A route answering
 * it sets `content-type: application/json; charset=utf-8`.
 */
export function rawPage(chunks: ({ total: number } | Uint8Array)[]): Readable {
  const [head, ...items] = chunks;
  if (!head || head instanceof Uint8Array) throw new Error('a page answered without its head');
  const parts = items.filter((chunk): chunk is Uint8Array => chunk instanceof Uint8Array && chunk.length > 0);
  return bytesBody([OPENING, ...commaSeparated(parts), Buffer.from(`],"total":${Number(head.total)},"success":true,"message":null}`)]);
}

/**
 * A body written as the parts it arrived in (a stream Fastify pipes to the socket), not
 * copied into one buffer first: a page of 200 bookings is about 900 KB.
 */
export function bytesBody(parts: Uint8Array[]): Readable {
  const body = new PassThrough();
  let length = 0;
  for (const part of parts) {
    body.write(part);
    length += part.length;
  }
  body.end();
  return withKnownLength(body, length);
}

/** The client's If-None-Match as a service reads it, if it is one (anything else: a full answer). */
export function ifNoneMatchOf(header: string | undefined): { ifNoneMatch?: string } {
  return header !== undefined && ENTITY_TAGS.test(header) ? { ifNoneMatch: header } : {};
}

/**
 * A tagged page (the lists' v3) as the route answers it: its `ETag`, `Cache-Control:
 * private, no-cache` (a client may keep it, and asks again with If-None-Match before
 * using it), and 304 with no body when the client has it, else the page (rawPage).
 */
export function taggedPageAnswer(chunks: TaggedBookingPageChunk[], reply: FastifyReply): Readable | undefined {
  const [head] = chunks;
  if (!head || head instanceof Uint8Array) throw new Error('a page answered without its head');
  reply.header('etag', head.etag).header('cache-control', 'private, no-cache');
  if (head.notModified) {
    reply.status(304);
    return undefined;
  }
  return rawPage(chunks);
}
