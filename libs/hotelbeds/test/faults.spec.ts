// The client under faults, against the local stand-in (loopback only): no connection,
// server failures, throttling, unreadable and trickling answers, oversized requests, and the
// circuit breaker.
import type { ServerResponse } from 'node:http';
import { HotelbedsClient, HotelbedsClientOptions, HotelbedsError } from '../src';
import type { AvailabilityRQ, BookingRQ } from '../src';
import { closedPort, fixture, HotelbedsStandIn, ReceivedRequest } from './stand-in';

const API_KEY = 'fault-key';
const SECRET = 'fault-secret';
const AVAILABILITY = fixture('availability').request.body as AvailabilityRQ;
const BOOKING = fixture('booking').request.body as BookingRQ;

let standIn: HotelbedsStandIn;
const clients: HotelbedsClient[] = [];

beforeEach(async () => {
  standIn = await HotelbedsStandIn.start({ apiKey: API_KEY, secret: SECRET });
});

afterEach(async () => {
  while (clients.length) clients.pop()?.close();
  await standIn.close();
});

function clientOf(options: Partial<HotelbedsClientOptions> = {}): HotelbedsClient {
  const client = new HotelbedsClient({ baseUrl: standIn.url, apiKey: API_KEY, secret: SECRET, retry: { baseDelayMs: 5, maxDelayMs: 20 }, ...options });
  clients.push(client);
  return client;
}

async function failureOf(call: Promise<unknown>): Promise<HotelbedsError> {
  try {
    await call;
  } catch (error) {
    if (error instanceof HotelbedsError) return error;
    throw error;
  }
  throw new Error('expected a HotelbedsError');
}

/** Answers the first `failures` requests with `status`, then from the fixtures. */
function failFirst(failures: number, status: number, headers: Record<string, string> = {}): void {
  let seen = 0;
  standIn.handle((request, response) => {
    seen += 1;
    if (seen <= failures) return standIn.reply(request, response, status, { error: { code: 'SYSTEM_ERROR', message: 'try later' } }, headers);
    standIn.answerFromFixtures(request, response);
  });
}

describe('no connection', () => {
  it('connection refused: availability is retried, then unavailable; a booking is not retried and was not sent', async () => {
    const port = await closedPort();
    const client = clientOf({ baseUrl: `http://127.0.0.1:${port}` });
    const search = await failureOf(client.availability(AVAILABILITY));
    expect(search).toMatchObject({ kind: 'unavailable', code: 'CONNECTION_FAILED', attempts: 3, outcomeUnknown: false });
    const booking = await failureOf(client.book(BOOKING));
    expect(booking).toMatchObject({ kind: 'unavailable', code: 'CONNECTION_FAILED', attempts: 1, outcomeUnknown: false });
  });
});

describe('server failures', () => {
  it('503 then success: availability is retried and succeeds', async () => {
    failFirst(1, 503);
    const answer = await clientOf().availability(AVAILABILITY);
    expect(answer.hotels.hotels?.[0].code).toBe(3424);
    expect(standIn.requests).toHaveLength(2);
  });

  it('500 to a booking: not retried, unavailable with its outcome unknown', async () => {
    failFirst(1, 500);
    const error = await failureOf(clientOf().book(BOOKING));
    expect(error).toMatchObject({ kind: 'unavailable', code: 'VENDOR_FAILURE', status: 500, attempts: 1, outcomeUnknown: true });
    expect(standIn.requests).toHaveLength(1);
  });

  it('503 to a cancellation: a simulation is retried, a real cancellation is not', async () => {
    const client = clientOf();
    failFirst(1, 503);
    await client.simulateCancellation('52-1274418');
    expect(standIn.requests).toHaveLength(2);

    failFirst(1, 503);
    const error = await failureOf(client.cancel('52-1274418'));
    expect(error).toMatchObject({ code: 'VENDOR_FAILURE', attempts: 1, outcomeUnknown: true });
    expect(standIn.requests).toHaveLength(3);
  });

  it('429 with Retry-After: the retry waits at least that long', async () => {
    const sentAt: number[] = [];
    let seen = 0;
    standIn.handle((request, response) => {
      sentAt.push(Date.now());
      seen += 1;
      if (seen === 1) return standIn.reply(request, response, 429, { error: 'Too Many Requests' }, { 'retry-after': '1' });
      standIn.reply(request, response, 200, fixture('availability').response.body);
    });
    await clientOf().availability(AVAILABILITY);
    expect(sentAt).toHaveLength(2);
    expect(sentAt[1] - sentAt[0]).toBeGreaterThanOrEqual(1000);
  });

  it('Retry-After as an HTTP date is honoured too; one beyond the cap ends the call at once', async () => {
    let seen = 0;
    const sentAt: number[] = [];
    standIn.handle((request, response) => {
      sentAt.push(Date.now());
      seen += 1;
      // An HTTP date has whole seconds: two seconds ahead is at least one second's wait.
      if (seen === 1) return standIn.reply(request, response, 429, {}, { 'retry-after': new Date(Date.now() + 2000).toUTCString() });
      standIn.reply(request, response, 200, fixture('availability').response.body);
    });
    await clientOf().availability(AVAILABILITY);
    expect(sentAt[1] - sentAt[0]).toBeGreaterThanOrEqual(1000);

    standIn.handle((request, response) => standIn.reply(request, response, 429, {}, { 'retry-after': '120' }));
    const started = Date.now();
    const error = await failureOf(clientOf().availability(AVAILABILITY));
    expect(error).toMatchObject({ kind: 'unavailable', code: 'RATE_LIMITED', status: 429, retryAfterMs: 120_000, attempts: 1 });
    expect(Date.now() - started).toBeLessThan(1000);
  });
});

describe('unreadable answers', () => {
  const answerWith = (text: string) => standIn.handle((request, response) => standIn.replyText(request, response, 200, text, { 'content-type': 'application/json' }));

  it('a body that is not JSON is malformed, never a success', async () => {
    answerWith('{"hotels": {"hotels": [');
    const error = await failureOf(clientOf().availability(AVAILABILITY));
    expect(error).toMatchObject({ kind: 'malformed', code: 'BAD_JSON', status: 200, attempts: 1 });
  });

  it('JSON of the wrong shape is malformed, naming where', async () => {
    answerWith('{"hotels": {"hotels": [{"code": "three thousand", "rooms": []}]}}');
    const error = await failureOf(clientOf().availability(AVAILABILITY));
    expect(error).toMatchObject({ kind: 'malformed', code: 'BAD_SHAPE' });
    expect(error.message).toContain('hotels.hotels[0].code');
  });

  it('an unreadable answer to a booking leaves its outcome unknown', async () => {
    answerWith('<html>200 OK</html>');
    expect(await failureOf(clientOf().book(BOOKING))).toMatchObject({ kind: 'malformed', outcomeUnknown: true });
  });

  it('an answer over the size cap is malformed', async () => {
    const error = await failureOf(clientOf({ maxResponseBytes: 200 }).availability(AVAILABILITY));
    expect(error).toMatchObject({ kind: 'malformed', code: 'BODY_TOO_LARGE' });
  });

  it('identity answers (no gzip) are read as well as gzip ones', async () => {
    await standIn.close();
    standIn = await HotelbedsStandIn.start({ apiKey: API_KEY, secret: SECRET, gzip: false });
    const answer = await clientOf().availability(AVAILABILITY);
    expect(answer.hotels.hotels?.[0].rooms?.[0].rates?.[0].net).toBe('118.27');
  });

  it('a body that trickles slower than the deadline is unavailable by the deadline', async () => {
    const timers: NodeJS.Timeout[] = [];
    standIn.handle((_request: ReceivedRequest, response: ServerResponse) => {
      response.writeHead(200, { 'content-type': 'application/json' });
      const body = JSON.stringify(fixture('availability').response.body);
      let sent = 0;
      const drip = setInterval(() => {
        if (response.destroyed || sent >= body.length) return clearInterval(drip);
        response.write(body[sent++]);
      }, 50);
      timers.push(drip);
    });
    const started = Date.now();
    const error = await failureOf(clientOf({ timeoutsMs: { availability: 400 } }).availability(AVAILABILITY));
    const elapsed = Date.now() - started;
    timers.forEach(clearInterval);
    expect(error).toMatchObject({ kind: 'unavailable', code: 'TIMEOUT' });
    expect(elapsed).toBeGreaterThanOrEqual(390);
    expect(elapsed).toBeLessThan(1500);
  });
});

describe('requests refused before sending', () => {
  it('more than 2000 hotel codes: refused, nothing sent', async () => {
    const hotel = Array.from({ length: 2001 }, (_, index) => index + 1);
    const error = await failureOf(clientOf().availability({ ...AVAILABILITY, hotels: { hotel } }));
    expect(error).toMatchObject({ kind: 'invalid', code: 'TOO_MANY_HOTELS', attempts: 0 });
    expect(standIn.requests).toHaveLength(0);

    await clientOf().availability({ ...AVAILABILITY, hotels: { hotel: hotel.slice(0, 2000) } });
    expect(standIn.requests).toHaveLength(1);
  });

  it('a client reference over the 20 characters the vendor allows: refused, nothing sent', async () => {
    const error = await failureOf(clientOf().book({ ...BOOKING, clientReference: 'X'.repeat(21) }));
    expect(error).toMatchObject({ kind: 'invalid', code: 'INVALID_REQUEST', attempts: 0 });
    expect(standIn.requests).toHaveLength(0);
  });
});

describe('signature', () => {
  it('a client clock off by more than the skew window is refused as unauthorized', async () => {
    const client = clientOf({ clock: { now: () => Date.now() - 10 * 60_000 } });
    const error = await failureOf(client.availability(AVAILABILITY));
    expect(error).toMatchObject({ kind: 'invalid', code: 'UNAUTHORIZED', status: 401, attempts: 1 });
  });

  it('a clock within the window is accepted', async () => {
    await clientOf({ clock: { now: () => Date.now() - 30_000 } }).availability(AVAILABILITY);
  });
});

describe('connections', () => {
  it('keeps connections alive and opens no more than maxSockets', async () => {
    const client = clientOf({ maxSockets: 2 });
    await Promise.all(Array.from({ length: 6 }, () => client.bookingDetail('52-1274418')));
    await client.bookingDetail('52-1274418');
    const ports = new Set(standIn.requests.map((request) => request.remotePort));
    expect(standIn.requests).toHaveLength(7);
    expect(ports.size).toBeLessThanOrEqual(2);
  });
});

describe('circuit breaker', () => {
  it('opens after N failures, fails fast while open, half-opens after the cooldown and closes on a success', async () => {
    const changes: string[] = [];
    const client = clientOf({
      retry: { maxAttempts: 1 },
      breaker: { failureThreshold: 3, cooldownMs: 300 },
      onBreakerStateChange: (operation, state) => changes.push(`${operation}:${state}`),
    });
    standIn.handle((request, response) => standIn.reply(request, response, 503, {}));
    for (let i = 0; i < 3; i++) expect(await failureOf(client.availability(AVAILABILITY))).toMatchObject({ code: 'VENDOR_FAILURE' });
    expect(client.health().availability).toMatchObject({ state: 'open', failures: 3 });
    expect(client.health().availability.openedAt).toBeInstanceOf(Date);
    // Other operations have their own breakers.
    expect(client.health().booking).toEqual({ state: 'closed', failures: 0, openedAt: null });

    const fast = await failureOf(client.availability(AVAILABILITY));
    expect(fast).toMatchObject({ kind: 'unavailable', code: 'BREAKER_OPEN', attempts: 0 });
    expect(standIn.requests).toHaveLength(3);

    await new Promise((resolve) => setTimeout(resolve, 350));
    expect(client.health().availability.state).toBe('half-open');
    standIn.answerFixtures();
    await client.availability(AVAILABILITY);
    expect(standIn.requests).toHaveLength(4);
    expect(client.health().availability).toEqual({ state: 'closed', failures: 0, openedAt: null });
    expect(changes).toEqual(['availability:open', 'availability:half-open', 'availability:closed']);
  });

  it('a failed probe opens it again', async () => {
    const client = clientOf({ retry: { maxAttempts: 1 }, breaker: { failureThreshold: 1, cooldownMs: 100 } });
    standIn.handle((request, response) => standIn.reply(request, response, 500, {}));
    await failureOf(client.checkRate({ rooms: [{ rateKey: 'k' }] }));
    await new Promise((resolve) => setTimeout(resolve, 150));
    await failureOf(client.checkRate({ rooms: [{ rateKey: 'k' }] }));
    expect(client.health().checkRate.state).toBe('open');
    expect(standIn.requests).toHaveLength(2);
  });

  it('a refusal or an invalid request is an answer: it does not count', async () => {
    const client = clientOf({ retry: { maxAttempts: 1 }, breaker: { failureThreshold: 1, cooldownMs: 10_000 } });
    standIn.handle((request, response) => standIn.reply(request, response, 400, { error: { code: 'PRODUCT_ERROR', message: 'Stop sales' } }));
    expect(await failureOf(client.book(BOOKING))).toMatchObject({ kind: 'refused', code: 'RATE_NOT_AVAILABLE', outcomeUnknown: false });
    expect(client.health().booking.state).toBe('closed');
  });
});
