import { HotelClient, HotelClientOptions } from './client';
import { HotelApiError, HotelNetworkError } from './errors';
import { RetryEvent } from './retry';

/** One answer of the fake fetch: a status with a JSON (or text) body, a thrown error, or no answer until aborted. */
type Reply = { status: number; json?: unknown; text?: string; headers?: Record<string, string> } | Error | 'hang';

interface Sent {
  method: string;
  url: URL;
  headers: Record<string, string>;
  body: any;
}

const RATE = { hotel_id: 298850701, session_id: 'e6798519-bb40-475c-8488-37e1336b003f', rate_id: '26108017-7d5b-8066-af7b-ef94390cd684', payment_method: 'account' } as const;
const GUEST = { rooms: [{ lead_first_name: 'Ada', lead_last_name: 'Lovelace' }], email: 'ada@example.com', phone: '+44 20 7946 0000' };
const BOOKING = { id: 42, status: 'confirmed' };
const ok = (data: unknown, status = 200): Reply => ({ status, json: { data, success: true, message: null } });
const unavailable = (retryAfter = '1'): Reply => ({
  status: 503,
  json: { data: null, success: false, message: 'booking service did not answer in time', code: 'SERVICE_UNAVAILABLE' },
  headers: { 'retry-after': retryAfter, 'x-request-id': 'gw-503' },
});

/** A client on a fake fetch that answers `replies` in turn and records what was sent; sleeps are recorded, not waited. */
function clientWith(replies: Reply[], options: Partial<HotelClientOptions> = {}) {
  const sent: Sent[] = [];
  const slept: number[] = [];
  const retries: RetryEvent[] = [];
  const fetch = async (input: string | URL | Request, init: RequestInit = {}) => {
    const headers = init.headers as Record<string, string>;
    sent.push({ method: init.method ?? 'GET', url: new URL(String(input)), headers, body: init.body === undefined ? undefined : JSON.parse(String(init.body)) });
    const reply = replies.shift();
    if (reply === undefined) throw new Error('no more replies');
    if (reply instanceof Error) throw reply;
    if (reply === 'hang') return new Promise<Response>((_, reject) => init.signal?.addEventListener('abort', () => reject(init.signal?.reason)));
    const body = reply.text ?? JSON.stringify(reply.json);
    return new Response(body, { status: reply.status, headers: { 'content-type': 'application/json', 'x-request-id': headers['x-request-id'], ...reply.headers } });
  };
  const client = new HotelClient({
    baseUrl: 'https://hotel.test',
    apiKey: 'hb_test_abc',
    fetch,
    sleep: async (ms) => void slept.push(ms),
    onRetry: (event) => retries.push(event),
    retry: { random: () => 0.5, baseDelayMs: 100 },
    ...options,
  });
  return { client, sent, slept, retries };
}

describe('HotelClient', () => {
  describe('credentials', () => {
    it('tells sandbox from live by the key', () => {
      const sandbox = new HotelClient({ baseUrl: 'https://hotel.test', apiKey: 'hb_test_1' });
      const live = new HotelClient({ baseUrl: 'https://hotel.test', apiKey: 'hb_live_1' });
      expect([sandbox.isSandbox, sandbox.environment, live.isSandbox, live.environment]).toEqual([true, 'sandbox', false, 'live']);
      expect(() => new HotelClient({ baseUrl: 'https://hotel.test', apiKey: 'hb_back_1' })).toThrow(/backendToken/);
      expect(() => new HotelClient({ baseUrl: 'https://hotel.test', backendToken: 'hb_live_1' })).toThrow(/apiKey/);
    });

    it('sends the API key as Bearer and the backend token as it is, each on its own API', async () => {
      const { client, sent } = clientWith([ok({ client_id: 1 }), ok({ id: 3 })], { baseUrl: 'https://hotel.test/gateway', backendToken: 'hb_back_xyz' });
      await client.getIdentity();
      await client.getUser(3);
      expect(sent.map((call) => [call.method, call.url.href, call.headers.authorization])).toEqual([
        ['GET', 'https://hotel.test/gateway/me', 'Bearer hb_test_abc'],
        ['GET', 'https://hotel.test/gateway/api/user/3', 'hb_back_xyz'],
      ]);
    });

    it('refuses a call whose credential it was not given, before sending', async () => {
      const { client, sent } = clientWith([], { apiKey: undefined });
      await expect(client.listBookings()).rejects.toThrow('listBookings needs apiKey');
      await expect(client.getBalance()).rejects.toThrow('getBalance needs backendToken');
      expect(sent).toEqual([]);
    });

    it('sends X-Test-Scenario with a sandbox key and refuses it with a live one', async () => {
      const { client, sent } = clientWith([ok({ prebook_id: 'p' })]);
      await client.prebookRate({ ...RATE, promo_code: 'SUMMER10' }, { testScenario: 'price_changed' });
      expect(sent[0].headers['x-test-scenario']).toBe('price_changed');
      expect(sent[0].url.pathname).toBe(`/prebook/${RATE.hotel_id}/${RATE.session_id}/${RATE.rate_id}/account`);
      expect(sent[0].url.searchParams.get('promo_code')).toBe('SUMMER10');
      const live = clientWith([], { apiKey: 'hb_live_abc' });
      await expect(live.client.bookRate(RATE, GUEST, { testScenario: 'supplier_error' })).rejects.toThrow(/sandbox key/);
      expect(live.sent).toEqual([]);
    });
  });

  describe('idempotency keys', () => {
    it('generates an idempotency_key for every book that has none, a new one each time', async () => {
      const { client, sent } = clientWith([ok(BOOKING, 201), ok(BOOKING, 201), ok(BOOKING, 201)]);
      await client.bookRate(RATE, GUEST);
      await client.bookV2({ prebook_id: '1d5e0000-0000-4000-8000-000000000000', ...GUEST });
      await client.bookRate(RATE, { ...GUEST, idempotency_key: 'acme-000123-try1' });
      const keys = sent.map((call) => call.body.idempotency_key);
      expect(keys[0]).toMatch(/^[0-9a-f-]{36}$/);
      expect(keys[1]).toMatch(/^[0-9a-f-]{36}$/);
      expect(keys[0]).not.toBe(keys[1]);
      expect(keys[2]).toBe('acme-000123-try1');
    });

    it('retries a book after a 503 with the same key, body and request id', async () => {
      const { client, sent, retries } = clientWith([unavailable(), ok(BOOKING, 200)]);
      expect(await client.bookRate(RATE, GUEST)).toEqual(BOOKING);
      expect(sent).toHaveLength(2);
      expect(sent[1].body).toEqual(sent[0].body);
      expect(sent[1].headers['x-request-id']).toBe(sent[0].headers['x-request-id']);
      expect(retries).toMatchObject([{ attempt: 1, error: { status: 503, code: 'SERVICE_UNAVAILABLE' } }]);
    });

    it('retries a book that got no answer, with the same key', async () => {
      const { client, sent } = clientWith([new TypeError('fetch failed', { cause: { code: 'ECONNRESET' } }), ok(BOOKING, 200)]);
      await client.bookV2({ prebook_id: '1d5e0000-0000-4000-8000-000000000000', ...GUEST });
      expect(sent).toHaveLength(2);
      expect(sent[1].body.idempotency_key).toBe(sent[0].body.idempotency_key);
    });

    it('never retries a book without a key (autoIdempotencyKey: false)', async () => {
      const { client, sent } = clientWith([unavailable(), ok(BOOKING, 201)], { autoIdempotencyKey: false });
      const error = await client.bookRate(RATE, GUEST).catch((e) => e);
      expect(error).toBeInstanceOf(HotelApiError);
      expect(error).toMatchObject({ status: 503, attempts: 1 });
      expect(sent).toHaveLength(1);
      expect(sent[0].body.idempotency_key).toBeUndefined();
      const noAnswer = clientWith([new TypeError('fetch failed')], { autoIdempotencyKey: false });
      await expect(noAnswer.client.bookV2({ prebook_id: 'p', ...GUEST })).rejects.toBeInstanceOf(HotelNetworkError);
      expect(noAnswer.sent).toHaveLength(1);
    });
  });

  describe('retries', () => {
    it('retries a GET after 429 and 503, waiting Retry-After plus jitter', async () => {
      const limited: Reply = { status: 429, json: { data: null, success: false, message: 'rate limit', code: 'RATE_LIMITED' }, headers: { 'retry-after': '2' } };
      const { client, sent, slept } = clientWith([limited, unavailable('1'), ok([BOOKING])]);
      expect(await client.listBookings({ status: 'confirmed' })).toEqual([BOOKING]);
      expect(sent).toHaveLength(3);
      // random 0.5 of the step: 100 ms, then 200 ms.
      expect(slept).toEqual([2050, 1100]);
    });

    it('does not retry calls that are not safe to repeat', async () => {
      const { client, sent } = clientWith([unavailable()], { backendToken: 'hb_back_xyz' });
      await expect(client.issueUserToken(1)).rejects.toMatchObject({ status: 503 });
      expect(sent).toHaveLength(1);
    });

    it('retries a manual ledger entry with the same Idempotency-Key (made, or given)', async () => {
      const entry = { id: 7, clientId: 1, credit: 100 };
      const { client, sent } = clientWith([unavailable(), ok(entry, 201)], { backendToken: 'hb_back_xyz' });
      expect(await client.createAccountingEntry({ clientId: 1, debit: 0, credit: 100, name: 'top-up' } as any)).toEqual(entry);
      expect(sent).toHaveLength(2);
      expect(sent[0].headers['idempotency-key']).toMatch(/^[0-9a-f-]{36}$/);
      expect(sent[1].headers['idempotency-key']).toBe(sent[0].headers['idempotency-key']);
      const given = clientWith([ok(entry, 201)], { backendToken: 'hb_back_xyz' });
      await given.client.createAccountingEntry({ clientId: 1, debit: 0, credit: 100, name: 'top-up' } as any, { idempotencyKey: 'wire-42' });
      expect(given.sent[0].headers['idempotency-key']).toBe('wire-42');
    });

    it('does not retry other errors', async () => {
      const { client, sent } = clientWith([{ status: 500, json: { data: null, success: false, message: 'internal error', code: 'INTERNAL_ERROR' } }]);
      await expect(client.getIdentity()).rejects.toMatchObject({ status: 500, code: 'INTERNAL_ERROR' });
      expect(sent).toHaveLength(1);
    });

    it('gives up after maxAttempts with the last error', async () => {
      const { client, sent } = clientWith([unavailable(), unavailable(), unavailable()], { retry: { maxAttempts: 3 } });
      await expect(client.getIdentity()).rejects.toMatchObject({ status: 503, attempts: 3 });
      expect(sent).toHaveLength(3);
    });

    it('gives up at once when Retry-After is beyond the time budget', async () => {
      const { client, sent } = clientWith([unavailable('600')]);
      await expect(client.getIdentity()).rejects.toMatchObject({ status: 503, retryAfterSeconds: 600, attempts: 1 });
      expect(sent).toHaveLength(1);
    });

    it('retry: false sends once', async () => {
      const { client, sent } = clientWith([unavailable()], { retry: false });
      await expect(client.getIdentity()).rejects.toMatchObject({ status: 503 });
      expect(sent).toHaveLength(1);
    });

    it('a call that gets no answer in time is a TIMEOUT, retried like a 503', async () => {
      const { client, sent } = clientWith(['hang', ok({ client_id: 1 })], { timeoutMs: 20 });
      expect(await client.getIdentity()).toEqual({ client_id: 1 });
      expect(sent).toHaveLength(2);
      const once = clientWith(['hang'], { timeoutMs: 20, retry: false });
      const error = await once.client.getIdentity().catch((e) => e);
      expect(error).toBeInstanceOf(HotelNetworkError);
      expect(error).toMatchObject({ code: 'TIMEOUT', requestId: once.sent[0].headers['x-request-id'], site: { operation: 'getIdentity', method: 'GET', path: '/me' } });
    });

    it('does not retry an untrusted certificate: TLS_ERROR', async () => {
      const { client, sent } = clientWith([new TypeError('fetch failed', { cause: { code: 'DEPTH_ZERO_SELF_SIGNED_CERT' } })]);
      await expect(client.getIdentity()).rejects.toMatchObject({ name: 'HotelNetworkError', code: 'TLS_ERROR', message: 'no answer: DEPTH_ZERO_SELF_SIGNED_CERT' });
      expect(sent).toHaveLength(1);
    });

    it("the caller's abort ends the call without a retry", async () => {
      const controller = new AbortController();
      const { client, sent } = clientWith(['hang', ok({})]);
      const call = client.getIdentity({ signal: controller.signal });
      controller.abort(new Error('user went away'));
      await expect(call).rejects.toThrow('user went away');
      expect(sent).toHaveLength(1);
    });
  });

  describe('errors', () => {
    it('throws HotelApiError with status, code, message, field errors and the request id', async () => {
      const invalid: Reply = {
        status: 400,
        json: { data: null, success: false, message: 'email: email must be an email', code: 'VALIDATION_FAILED', errors: [{ field: 'email', message: 'email must be an email' }] },
        headers: { 'x-request-id': 'req-123' },
      };
      const { client } = clientWith([invalid]);
      const error = await client.bookRate(RATE, { ...GUEST, email: 'nope' }).catch((e) => e);
      expect(error).toBeInstanceOf(HotelApiError);
      expect(error).toBeInstanceOf(Error);
      expect(error).toMatchObject({
        name: 'HotelApiError',
        status: 400,
        code: 'VALIDATION_FAILED',
        message: 'email: email must be an email',
        requestId: 'req-123',
        errors: [{ field: 'email', message: 'email must be an email' }],
        site: { operation: 'bookRate', method: 'POST' },
        attempts: 1,
      });
    });

    it('gives an answer without the envelope the code of its status, and the request id it sent', async () => {
      const { client, sent } = clientWith([{ status: 502, text: '<html>bad gateway</html>', headers: { 'content-type': 'text/html', 'x-request-id': '' } }]);
      const error = await client.getIdentity({ requestId: 'mine-1' }).catch((e) => e);
      expect(sent[0].headers['x-request-id']).toBe('mine-1');
      expect(error).toMatchObject({ status: 502, code: 'INTERNAL_ERROR', errors: [] });
      const notFound = clientWith([{ status: 404, text: '' }]);
      await expect(notFound.client.getIdentity()).rejects.toMatchObject({ status: 404, code: 'NOT_FOUND' });
    });
  });

  describe('answers', () => {
    it('resolves with data, {data, total} for pages, and V2 rates as they come', async () => {
      const v2 = { search_completed: true, search: {}, metadata: {}, rates: [] };
      const { client, sent } = clientWith([ok({ results: [] }), { status: 200, json: { data: [BOOKING], total: 7, success: true, message: null } }, { status: 200, json: v2 }]);
      expect(await client.searchPlaces({ text_query: 'par', limit: 2 })).toEqual({ results: [] });
      expect(await client.listBookings({ page: 2, limit: 1, hotel_name: undefined })).toEqual({ data: [BOOKING], total: 7 });
      expect(await client.searchRatesV2({ place_id: 'gn:2988507', check_in: '2027-03-15', check_out: '2027-03-17', rooms: [{ adults: 2, children: 0, children_ages: [] }] })).toEqual(v2);
      expect(sent[0].url.search).toBe('?text_query=par&limit=2');
      expect(sent[1].url.search).toBe('?page=2&limit=1');
      expect(sent[2].headers['content-type']).toBe('application/json');
    });

    it('reads a voucher as bytes from its signed link, sending no credential', async () => {
      const sent: Sent[] = [];
      const client = new HotelClient({
        baseUrl: 'https://hotel.test',
        apiKey: 'hb_test_abc',
        fetch: async (input, init) => {
          sent.push({ method: init?.method ?? 'GET', url: new URL(String(input)), headers: init?.headers as Record<string, string>, body: undefined });
          return new Response(new Uint8Array([0x25, 0x50, 0x44, 0x46]), { status: 200, headers: { 'content-type': 'application/pdf' } });
        },
      });
      const pdf = await client.getVoucher('https://vouchers.test/vouchers/42?expires=1798168464&signature=abc');
      expect(Buffer.from(pdf).toString()).toBe('%PDF');
      expect(sent[0].url.href).toBe('https://vouchers.test/vouchers/42?expires=1798168464&signature=abc');
      expect(sent[0].headers.authorization).toBeUndefined();
      await client.getVoucher({ booking_id: 42, expires: '1798168464', signature: 'abc' });
      expect(sent[1].url.href).toBe('https://hotel.test/vouchers/42?expires=1798168464&signature=abc');
      expect(sent[1].headers.authorization).toBeUndefined();
    });

    it('searchUntilComplete starts a search and polls its session until search_completed', async () => {
      const session = 'e6798519-bb40-475c-8488-37e1336b003f';
      const partial = { session_id: session, search_completed: false, results: [] };
      const { client, sent, slept } = clientWith([ok(partial), ok(partial), ok({ ...partial, search_completed: true, results: [{ hotel: { id: 1 } }] })]);
      const result = await client.searchUntilComplete({ place_id: 'gn:2988507', check_in: '2027-03-15', check_out: '2027-03-17', rooms: [{ adults: 2, children: 0, children_ages: [] }] }, { intervalMs: 750 });
      expect(result.search_completed).toBe(true);
      expect(sent.map((call) => `${call.method} ${call.url.pathname}`)).toEqual(['POST /search', `GET /search/${session}`, `GET /search/${session}`]);
      expect(slept).toEqual([750, 750]);
    });

    it('hotelRatesUntilComplete polls one hotel of a search', async () => {
      const { client, sent } = clientWith([ok({ search_completed: false, rates: [] }), ok({ search_completed: true, rates: [{ id: 'r' }] })]);
      const result = await client.hotelRatesUntilComplete({ hotel_id: 7, session_id: 's' });
      expect(result).toEqual({ search_completed: true, rates: [{ id: 'r' }] });
      expect(sent.map((call) => call.url.pathname)).toEqual(['/hotel/7/s', '/hotel/7/s']);
    });
  });
});
