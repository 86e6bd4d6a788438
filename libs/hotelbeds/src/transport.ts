import * as http from 'node:http';
import * as https from 'node:https';
import type { Readable } from 'node:stream';
import * as zlib from 'node:zlib';

export interface OutgoingRequest {
  method: string;
  url: URL;
  headers: Record<string, string>;
  body?: Buffer;
  /** Aborts the exchange wherever it is (connecting, waiting, reading the body): the deadline. */
  signal: AbortSignal;
  /** The largest decoded body read; a larger one ends the exchange. */
  maxBodyBytes: number;
}

export interface ReceivedAnswer {
  status: number;
  headers: http.IncomingHttpHeaders;
  /** Decoded (gunzipped) bytes. */
  body: Buffer;
}

export type TransportFailureCode = 'CONNECTION_FAILED' | 'TIMEOUT' | 'BODY_TOO_LARGE' | 'BAD_ENCODING';

/** No whole answer. `sent`: a connection was made, so the vendor may have read the request. */
export class TransportFailure extends Error {
  override readonly name = 'TransportFailure';
  constructor(
    readonly code: TransportFailureCode,
    message: string,
    readonly sent: boolean,
    options?: { cause?: unknown },
  ) {
    super(message, options);
  }
}

/** Keep-alive agents for one vendor endpoint: at most `maxSockets` connections, in use or idle. */
export function keepAliveAgents(maxSockets: number): { http: http.Agent; https: https.Agent } {
  const options = { keepAlive: true, maxSockets, maxTotalSockets: maxSockets, maxFreeSockets: maxSockets, scheduling: 'lifo' as const };
  return { http: new http.Agent(options), https: new https.Agent(options) };
}

/**
 * One request and its whole answer. The signal covers the entire exchange, body included,
 * so an answer that trickles in slower than the deadline fails as TIMEOUT instead of hanging;
 * gzip (and identity) bodies are decoded, anything else refused.
 */
export function exchange(request: OutgoingRequest, agents: { http: http.Agent; https: https.Agent }): Promise<ReceivedAnswer> {
  return new Promise((resolve, reject) => {
    if (request.signal.aborted) return reject(new TransportFailure('TIMEOUT', 'the deadline passed before the request was sent', false));
    const isHttps = request.url.protocol === 'https:';
    let sent = false;
    let settled = false;
    let incoming: http.IncomingMessage | undefined;
    const send = isHttps ? https.request : http.request;
    const outgoing = send(request.url, { method: request.method, headers: request.headers, agent: isHttps ? agents.https : agents.http }, (response) => {
      incoming = response;
      const encoding = String(response.headers['content-encoding'] ?? 'identity').trim().toLowerCase();
      let body: Readable = response;
      if (encoding === 'gzip' || encoding === 'x-gzip') {
        const gunzip = zlib.createGunzip();
        gunzip.on('error', (error) => fail('BAD_ENCODING', `the gzip body does not decode: ${error.message}`, error));
        body = response.pipe(gunzip);
      } else if (encoding !== 'identity' && encoding !== '') {
        return fail('BAD_ENCODING', `an answer in ${encoding}, which was not asked for`);
      }
      const chunks: Buffer[] = [];
      let size = 0;
      let responseEnded = false;
      response.on('end', () => (responseEnded = true));
      response.on('error', (error) => fail('CONNECTION_FAILED', `the answer broke off: ${error.message}`, error));
      response.on('close', () => {
        if (!responseEnded) fail('CONNECTION_FAILED', 'the connection closed before the answer ended');
      });
      body.on('data', (chunk: Buffer) => {
        size += chunk.length;
        if (size > request.maxBodyBytes) return fail('BODY_TOO_LARGE', `the answer is over ${request.maxBodyBytes} bytes`);
        chunks.push(chunk);
      });
      body.on('end', () => finish({ answer: { status: response.statusCode ?? 0, headers: response.headers, body: Buffer.concat(chunks) } }));
    });

    const finish = (outcome: { answer: ReceivedAnswer } | { failure: TransportFailure }) => {
      if (settled) return;
      settled = true;
      request.signal.removeEventListener('abort', onAbort);
      if ('answer' in outcome) return resolve(outcome.answer);
      // Destroying drops the connection instead of returning a half-read one to the pool.
      incoming?.destroy();
      outgoing.destroy();
      reject(outcome.failure);
    };
    const fail = (code: TransportFailureCode, message: string, cause?: unknown) => finish({ failure: new TransportFailure(code, message, sent, { cause }) });
    const onAbort = () => fail('TIMEOUT', 'no whole answer before the deadline');
    request.signal.addEventListener('abort', onAbort, { once: true });

    outgoing.on('socket', (socket) => {
      // A pooled socket is already connected; a new one counts once it connects.
      if (!socket.connecting) sent = true;
      else socket.once('connect', () => (sent = true));
    });
    outgoing.on('error', (error: NodeJS.ErrnoException) => fail('CONNECTION_FAILED', `no answer: ${error.code ?? error.message}`, error));
    outgoing.end(request.body);
  });
}
