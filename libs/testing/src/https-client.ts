import { Agent as HttpAgent, request as httpRequest } from 'node:http';
import { Agent as HttpsAgent, request as httpsRequest } from 'node:https';

export interface TestResponse<T = any> {
  status: number;
  headers: Record<string, string | string[] | undefined>;
  body: T;
  text: string;
  /** The body's bytes as they came (a PDF, an image). */
  bytes: Buffer;
}

export interface TestRequest {
  headers?: Record<string, string>;
  /** Sent as JSON. */
  json?: unknown;
  /** Sent as is (for malformed bodies). */
  raw?: string | Buffer;
}

/**
 * A kept-alive connection left idle this long is closed by the tests' clients: before the
 * gateway closes it (HTTP_KEEP_ALIVE_TIMEOUT_MS, 5 s, which Node's agent would otherwise
 * match to the millisecond), so that no request goes out on a connection the server is
 * closing at that moment ("socket hang up", a race of the client's, not an answer).
 */
export const KEEP_ALIVE_IDLE_MS = 2000;

const httpsAgent = new HttpsAgent({ keepAlive: true, rejectUnauthorized: false, maxSockets: 64, timeout: KEEP_ALIVE_IDLE_MS });
const httpAgent = new HttpAgent({ keepAlive: true, maxSockets: 64, timeout: KEEP_ALIVE_IDLE_MS });

/**
 * Whether a request failed because it went out on a kept-alive connection that the server
 * closed at that moment: the request never reached a handler, and Node's documentation
 * (`request.reusedSocket`) has the client send it again. The idle limit above makes this rare;
 * a client starved past it (a loaded machine delays its timers) still meets it.
 */
export function lostToKeepAliveRace(request: { reusedSocket: boolean }, error: NodeJS.ErrnoException): boolean {
  return request.reusedSocket && error.code === 'ECONNRESET';
}

/** A small HTTP(S) client for tests; it accepts the gateway's self-signed certificate. */
export function call<T = any>(baseUrl: string, method: string, path: string, options: TestRequest = {}): Promise<TestResponse<T>> {
  const url = new URL(path, baseUrl);
  const payload = options.raw ?? (options.json === undefined ? undefined : JSON.stringify(options.json));
  const headers: Record<string, string> = { ...(options.headers ?? {}) };
  if (payload !== undefined) {
    headers['content-type'] ??= 'application/json';
    headers['content-length'] = String(Buffer.byteLength(payload));
  }
  const secure = url.protocol === 'https:';
  const send = secure ? httpsRequest : httpRequest;
  return new Promise((resolve, reject) => {
    const req = send(url, { method, headers, agent: secure ? httpsAgent : httpAgent }, (res) => {
      const chunks: Buffer[] = [];
      res.on('data', (chunk) => chunks.push(chunk));
      res.on('end', () => {
        const bytes = Buffer.concat(chunks);
        const text = bytes.toString('utf8');
        let body: any = text;
        try {
          body = text ? JSON.parse(text) : undefined;
        } catch {
          // not JSON: leave the text
        }
        resolve({ status: res.statusCode ?? 0, headers: res.headers, body, text, bytes });
      });
    });
    req.on('error', (error) => (lostToKeepAliveRace(req, error) ? call<T>(baseUrl, method, path, options).then(resolve, reject) : reject(error)));
    if (payload !== undefined) req.write(payload);
    req.end();
  });
}
