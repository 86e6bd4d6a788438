import { Readable, pipeline } from 'node:stream';
import { brotliCompressSync, constants, createBrotliCompress, createGzip, gzipSync } from 'node:zlib';
import { FastifyInstance, FastifyReply } from 'fastify';

export type ContentEncoding = 'br' | 'gzip';

/**
 * The encoding of an answer for this Accept-Encoding: Brotli when the client takes it at
 * least as gladly as gzip, else gzip, else none. Each at its fastest setting (Brotli
 * quality 1, gzip level 1): measured here on a page of 50 bookings (229 KB), Brotli 1 keeps
 * 7.9 % of the bytes for 0.22 ms of CPU and gzip 1 13.4 % for 0.62 ms, while Brotli 5 keeps
 * 5.1 % for 1.1 ms (docs/engineering/benchmarks.md, "Compression").
 */
export function negotiateEncoding(acceptEncoding: string | undefined): ContentEncoding | undefined {
  if (!acceptEncoding) return undefined;
  const weights = new Map<string, number>();
  for (const part of acceptEncoding.split(',')) {
    const [name, ...parameters] = part.trim().toLowerCase().split(';');
    const q = parameters.map((parameter) => /^\s*q=([01](?:\.\d{0,3})?)\s*$/.exec(parameter)).find(Boolean);
    if (name) weights.set(name, q ? Number(q[1]) : 1);
  }
  const weight = (name: string) => weights.get(name) ?? weights.get('*') ?? 0;
  if (weight('br') > 0 && weight('br') >= weight('gzip')) return 'br';
  return weight('gzip') > 0 ? 'gzip' : undefined;
}

/** The lengths of stream bodies whose size is known (a page joined from its parts): a small one is sent as it is. */
const STREAM_LENGTHS = new WeakMap<Readable, number>();

export function withKnownLength(body: Readable, length: number): Readable {
  STREAM_LENGTHS.set(body, length);
  return body;
}

/** Only text compresses; a PDF or an image is left as it is. */
const COMPRESSIBLE = /^(application\/(json|javascript)|text\/)/;

/**
 * Compresses answers of at least `minBytes` for clients that ask (Accept-Encoding), after
 * everything else has shaped them. A body in one piece is compressed at once, in the event
 * loop (a page of 50 bookings: 0.2 ms); a stream (a V2 answer, a page of bookings) through
 * a zlib stream as it goes. `minBytes` 0 turns compression off.
 */
export function installCompression(fastify: FastifyInstance, minBytes: number): void {
  if (minBytes <= 0) return;
  fastify.addHook('onSend', (request, reply, payload, done) => {
    const type = String(reply.getHeader('content-type') ?? '');
    const status = reply.statusCode;
    if (!COMPRESSIBLE.test(type) || status === 204 || status === 304 || request.method === 'HEAD' || reply.hasHeader('content-encoding')) return done(null, payload);
    // The answer depends on Accept-Encoding whether or not this one is compressed.
    const vary = reply.getHeader('vary');
    reply.header('vary', vary ? `${String(vary)}, Accept-Encoding` : 'Accept-Encoding');
    const encoding = negotiateEncoding(request.headers['accept-encoding']);
    if (!encoding) return done(null, payload);
    if (payload instanceof Readable) {
      const length = STREAM_LENGTHS.get(payload);
      if (length !== undefined && length < minBytes) return done(null, payload);
      markEncoded(reply, encoding);
      const compressor = encoding === 'br' ? createBrotliCompress({ params: brotliParams(length) }) : createGzip({ level: 1 });
      // A failed source ends the compressed stream too (the socket is then cut, as an uncompressed stream's would be).
      return done(null, pipeline(payload, compressor, () => undefined));
    }
    if (typeof payload !== 'string' && !Buffer.isBuffer(payload)) return done(null, payload);
    const bytes = typeof payload === 'string' ? Buffer.from(payload) : payload;
    if (bytes.length < minBytes) return done(null, payload);
    markEncoded(reply, encoding);
    done(null, encoding === 'br' ? brotliCompressSync(bytes, { params: brotliParams(bytes.length) }) : gzipSync(bytes, { level: 1 }));
  });
}

/**
 * Says the body is encoded. A strong ETag becomes weak: the compressed bytes are another
 * representation of the same content (If-None-Match compares tags weakly, so 304s still work).
 */
function markEncoded(reply: FastifyReply, encoding: ContentEncoding): void {
  reply.header('content-encoding', encoding).removeHeader('content-length');
  const etag = reply.getHeader('etag');
  if (typeof etag === 'string' && etag.startsWith('"')) reply.header('etag', `W/${etag}`);
}

function brotliParams(sizeHint: number | undefined): Record<number, number> {
  return {
    [constants.BROTLI_PARAM_QUALITY]: 1,
    [constants.BROTLI_PARAM_MODE]: constants.BROTLI_MODE_TEXT,
    ...(sizeHint !== undefined && { [constants.BROTLI_PARAM_SIZE_HINT]: sizeHint }),
  };
}
