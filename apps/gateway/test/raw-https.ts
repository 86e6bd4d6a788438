import { request } from 'node:https';
import { TestResponse } from '@hotel/testing';

export interface RawRequest {
  method?: string;
  headers?: Record<string, string>;
  /** Chunks written one after the other (without content-length: chunked encoding). */
  chunks?: (string | Buffer)[];
  /** Leave the request unfinished: the answer must come before the body does. */
  keepOpen?: boolean;
  /** Send `Expect: 100-continue` and the body only once the server says so. */
  expectContinue?: boolean;
}

/**
 * One request on a fresh connection, with control over how its body is sent, for
 * what the test client cannot do: a chunked body, or a body that never completes.
 */
export function rawRequest(baseUrl: string, path: string, options: RawRequest = {}): Promise<TestResponse & { continued: boolean }> {
  let continued = false;
  const headers = { ...options.headers, ...(options.expectContinue && { expect: '100-continue' }) };
  return new Promise((resolve, reject) => {
    const req = request(new URL(path, baseUrl), { method: options.method ?? 'POST', headers, rejectUnauthorized: false, agent: false }, (res) => {
      const chunks: Buffer[] = [];
      res.on('data', (chunk: Buffer) => chunks.push(chunk));
      res.on('end', () => {
        const bytes = Buffer.concat(chunks);
        const text = bytes.toString('utf8');
        let body: any = text;
        try {
          body = JSON.parse(text);
        } catch {
          // not JSON
        }
        resolve({ status: res.statusCode ?? 0, headers: res.headers, body, text, bytes, continued });
        if (options.keepOpen || (options.expectContinue && !continued)) req.destroy();
      });
    });
    req.on('error', reject);
    const send = () => {
      for (const chunk of options.chunks ?? []) req.write(chunk);
      if (!options.keepOpen) req.end();
    };
    if (options.expectContinue) {
      req.on('continue', () => {
        continued = true;
        send();
      });
      req.flushHeaders();
    } else {
      send();
    }
  });
}
