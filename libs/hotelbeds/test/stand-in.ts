// A local stand-in for Hotelbeds APItude on 127.0.0.1, for the adapter's tests: it checks
// what the vendor checks (Api-key, X-Signature recomputed over key + secret + its own clock
// within a skew window, Accept, Accept-Encoding, Content-Type on bodies), records every
// request it receives, and answers from the documentation fixtures (gzip-compressed when
// asked) unless a test installs its own handler to inject a fault.
import { createHash } from 'node:crypto';
import { readFileSync } from 'node:fs';
import { createServer, IncomingHttpHeaders, IncomingMessage, Server, ServerResponse } from 'node:http';
import type { AddressInfo } from 'node:net';
import { join } from 'node:path';
import { gzipSync } from 'node:zlib';

export interface FixtureRequest {
  method: string;
  path: string;
  query: Record<string, string>;
  body?: unknown;
}

export interface Fixture {
  note: string;
  request: FixtureRequest;
  response: { status: number; body: unknown };
}

export type FixtureName = 'availability' | 'checkrate' | 'booking' | 'booking-detail' | 'booking-list' | 'cancellation' | 'content-hotels';

export function fixture(name: FixtureName): Fixture {
  return JSON.parse(readFileSync(join(__dirname, 'fixtures', `${name}.json`), 'utf8')) as Fixture;
}

export interface ErrorFixture {
  status: number;
  headers: Record<string, string>;
  body?: unknown;
  text?: string;
}

export function errorFixture(name: 'invalidData' | 'productRateGone' | 'productPriceChanged' | 'systemError' | 'overQps' | 'overRate' | 'notAuthorized'): ErrorFixture {
  const all = JSON.parse(readFileSync(join(__dirname, 'fixtures', 'errors.json'), 'utf8')) as Record<string, ErrorFixture>;
  return all[name];
}

/** A request as the stand-in received it. */
export interface ReceivedRequest {
  method: string;
  path: string;
  query: Record<string, string>;
  headers: IncomingHttpHeaders;
  /** The parsed JSON body, if one came. */
  body: unknown;
  /** The client's port: which pooled connection carried it. */
  remotePort: number | undefined;
}

export type StandInHandler = (request: ReceivedRequest, response: ServerResponse) => void | Promise<void>;

export interface StandInOptions {
  apiKey: string;
  secret: string;
  /** How far (seconds) the signature's timestamp may be from the stand-in's clock. */
  skewSeconds?: number;
  /** The stand-in's own clock (ms since the epoch). */
  now?: () => number;
  /** Answer in gzip when the request accepts it (default true). */
  gzip?: boolean;
}

export class HotelbedsStandIn {
  /** Every request that reached the stand-in, valid or not. */
  readonly requests: ReceivedRequest[] = [];
  private handler: StandInHandler;

  private constructor(
    private readonly server: Server,
    readonly url: string,
    private readonly options: Required<StandInOptions>,
  ) {
    this.handler = (request, response) => this.answerFromFixtures(request, response);
  }

  static async start(options: StandInOptions): Promise<HotelbedsStandIn> {
    const settings: Required<StandInOptions> = { skewSeconds: 60, now: () => Date.now(), gzip: true, ...options };
    const server = createServer();
    await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
    const { port } = server.address() as AddressInfo;
    const standIn = new HotelbedsStandIn(server, `http://127.0.0.1:${port}`, settings);
    server.on('request', (request: IncomingMessage, response: ServerResponse) => void standIn.receive(request, response));
    return standIn;
  }

  /** Answers every following request with this handler (after the header checks). */
  handle(handler: StandInHandler): void {
    this.handler = handler;
  }

  /** Back to answering from the fixtures. */
  answerFixtures(): void {
    this.handler = (request, response) => this.answerFromFixtures(request, response);
  }

  /** Replies with a JSON body, gzip-compressed when the request accepted it and the stand-in gzips. */
  reply(request: ReceivedRequest, response: ServerResponse, status: number, body: unknown, headers: Record<string, string> = {}): void {
    this.replyText(request, response, status, JSON.stringify(body), { 'content-type': 'application/json;charset=UTF-8', ...headers });
  }

  replyText(request: ReceivedRequest, response: ServerResponse, status: number, text: string, headers: Record<string, string> = {}): void {
    const gzip = this.options.gzip && /\bgzip\b/.test(String(request.headers['accept-encoding'] ?? ''));
    const bytes = gzip ? gzipSync(Buffer.from(text, 'utf8')) : Buffer.from(text, 'utf8');
    response.writeHead(status, { ...headers, ...(gzip ? { 'content-encoding': 'gzip' } : {}), 'content-length': String(bytes.length) });
    response.end(bytes);
  }

  replyError(request: ReceivedRequest, response: ServerResponse, error: ErrorFixture): void {
    if (error.text !== undefined) this.replyText(request, response, error.status, error.text, error.headers);
    else this.reply(request, response, error.status, error.body, error.headers);
  }

  async close(): Promise<void> {
    this.server.closeAllConnections();
    await new Promise<void>((resolve) => this.server.close(() => resolve()));
  }

  private async receive(incoming: IncomingMessage, response: ServerResponse): Promise<void> {
    const chunks: Buffer[] = [];
    for await (const chunk of incoming) chunks.push(chunk as Buffer);
    const raw = Buffer.concat(chunks).toString('utf8');
    const url = new URL(incoming.url ?? '/', this.url);
    const request: ReceivedRequest = {
      method: incoming.method ?? '',
      path: url.pathname,
      query: Object.fromEntries(url.searchParams),
      headers: incoming.headers,
      body: raw === '' ? undefined : JSON.parse(raw),
      remotePort: incoming.socket.remotePort,
    };
    this.requests.push(request);
    const refusal = this.checkHeaders(request, raw !== '');
    if (refusal) return this.replyText(request, response, refusal.status, `<h1>${refusal.text}</h1>`, { 'content-type': 'text/xml' });
    await this.handler(request, response);
  }

  /** The vendor's own checks, with the statuses its errors page gives them. */
  private checkHeaders(request: ReceivedRequest, hasBody: boolean): { status: number; text: string } | undefined {
    if (request.headers['api-key'] !== this.options.apiKey) return { status: 403, text: 'Developer Inactive' };
    if (!this.signatureValid(String(request.headers['x-signature'] ?? ''))) return { status: 401, text: 'Not Authorized' };
    if (request.headers.accept !== 'application/json') return { status: 406, text: 'Not Acceptable' };
    if (!/\bgzip\b/.test(String(request.headers['accept-encoding'] ?? ''))) return { status: 400, text: 'Accept-Encoding gzip expected' };
    if (hasBody && request.headers['content-type'] !== 'application/json') return { status: 415, text: 'Unsupported Media Type' };
    return undefined;
  }

  private signatureValid(signature: string): boolean {
    const now = Math.floor(this.options.now() / 1000);
    for (let t = now - this.options.skewSeconds; t <= now + this.options.skewSeconds; t++) {
      if (createHash('sha256').update(`${this.options.apiKey}${this.options.secret}${t}`).digest('hex') === signature) return true;
    }
    return false;
  }

  /** The documented answer of the fixture whose method and path the request has (404 for none). */
  answerFromFixtures(request: ReceivedRequest, response: ServerResponse): void {
    const names: FixtureName[] = ['availability', 'checkrate', 'booking', 'booking-detail', 'booking-list', 'cancellation', 'content-hotels'];
    for (const name of names) {
      const { request: documented, response: answer } = fixture(name);
      if (documented.method === request.method && documented.path === request.path) return this.reply(request, response, answer.status, answer.body);
    }
    this.replyText(request, response, 404, '<h1>Not Found</h1>', { 'content-type': 'text/html' });
  }
}

/** A free local port nobody listens on (for "connection refused"). */
export async function closedPort(): Promise<number> {
  const server = createServer();
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
  const { port } = server.address() as AddressInfo;
  await new Promise<void>((resolve) => server.close(() => resolve()));
  return port;
}
