import { Agent, request } from 'node:https';
import { KEEP_ALIVE_IDLE_MS } from './https-client';

/**
 * A fetch over node:https that trusts `ca` (a test gateway's self-signed certificate) and
 * nothing else, for code that takes a fetch (the SDK): Node's own fetch reads extra CAs
 * only from NODE_EXTRA_CA_CERTS at start, or from an undici agent, which is no dependency
 * here. It answers with a real `Response` and honours `init.signal`.
 */
export function httpsFetch(ca: string): typeof fetch {
  const agent = new Agent({ keepAlive: true, ca, timeout: KEEP_ALIVE_IDLE_MS });
  return (input, init = {}) =>
    new Promise<Response>((resolve, reject) => {
      const url = new URL(input instanceof Request ? input.url : String(input));
      const headers = Object.fromEntries(new Headers(init.headers).entries());
      const req = request(url, { method: init.method ?? 'GET', headers, agent, signal: init.signal ?? undefined }, (res) => {
        const chunks: Buffer[] = [];
        res.on('data', (chunk: Buffer) => chunks.push(chunk));
        res.on('error', reject);
        res.on('end', () => {
          const answerHeaders = new Headers();
          for (let i = 0; i < res.rawHeaders.length; i += 2) answerHeaders.append(res.rawHeaders[i], res.rawHeaders[i + 1]);
          const status = res.statusCode ?? 0;
          const body = status === 204 || status === 304 ? null : Buffer.concat(chunks);
          resolve(new Response(body, { status, statusText: res.statusMessage, headers: answerHeaders }));
        });
      });
      req.on('error', reject);
      if (typeof init.body === 'string') req.write(init.body);
      req.end();
    });
}
