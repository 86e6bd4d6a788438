import { hostname } from 'node:os';
import { connect as tlsConnect } from 'node:tls';
import { GUEST, TWO_ADULTS, bearer, bookV1, day } from '@hotel/testing';
import { rawRequest } from './raw-https';
import { ClientKeys, TestSystem } from './system';

const MIB = 1024 * 1024;
const STAY = { check_in: day(40), check_out: day(42), rooms: TWO_ADULTS };
const NEW_USER = { firstName: 'Ada', lastName: 'Lovelace', email: 'ada@example.com', phone: '+44 20', clientAccountLimit: 100 };
const SESSION = '00000000-0000-4000-8000-000000000000';

/** The error envelope, with its code (and the fields named, when given). */
function expectError(response: { status: number; body: any }, status: number, code: string, fields?: string[]) {
  expect({ status: response.status, code: response.body?.code }).toEqual({ status, code });
  expect(response.body).toMatchObject({ data: null, success: false, message: expect.any(String) });
  if (fields) expect(response.body.errors.map((error: { field: string }) => error.field)).toEqual(expect.arrayContaining(fields));
}

/** Input limits: no input gives a 5xx, and no unauthenticated request costs a parse. */
describe('hardened input', () => {
  let system: TestSystem, acme: ClientKeys, booking: Record<string, string>;
  let backend: Record<string, string>;

  beforeAll(async () => {
    ({ system, acme, auth: booking } = await TestSystem.startWithClient({ RPC_TIMEOUT_MS: '10000' }));
    backend = { authorization: acme.backend_token };
  });
  afterAll(() => system?.close());

  describe('JSON bodies', () => {
    it('answers 1 MiB of nested arrays at once with 400, and without a credential with 401, never parsing it', async () => {
      const nested = '['.repeat(MIB);
      const started = Date.now();
      const deep = await system.request('POST', '/search', { headers: booking, raw: nested });
      expectError(deep, 400, 'VALIDATION_FAILED');
      expect(deep.body.message).toMatch(/nested deeper than 32 levels/);
      expect(Date.now() - started).toBeLessThan(5000);
      const objects = await system.request('POST', '/api/user', { headers: backend, raw: '{"a":'.repeat(200_000) });
      expectError(objects, 400, 'VALIDATION_FAILED');

      expectError(await system.request('POST', '/search', { raw: nested }), 401, 'UNAUTHORIZED');
      expectError(await system.request('POST', '/search', { headers: bearer('hb_live_unknown'), raw: nested }), 401, 'UNAUTHORIZED');
      // A valid credential on the other API: 403, the body unread.
      expectError(await system.request('POST', '/search', { headers: bearer(acme.backend_token), raw: nested }), 403, 'FORBIDDEN');
      // Not even valid JSON: authentication comes first.
      expectError(await system.request('POST', '/api/user', { raw: '{"firstName": ' }), 401, 'UNAUTHORIZED');
    });

    it('answers an unauthenticated request before its body has even arrived', async () => {
      const response = await rawRequest(system.url, '/v2/rates', {
        headers: { 'content-type': 'application/json', 'content-length': String(MIB) },
        chunks: ['{"hotel_ids":['],
        keepOpen: true,
      });
      expectError(response, 401, 'UNAUTHORIZED');
    });

    it('asks a client that sends Expect: 100-continue for its body only once its credential is accepted', async () => {
      const body = JSON.stringify({ code: 'NOPE', booking_amount: 10 });
      const headers = { 'content-type': 'application/json', 'content-length': String(body.length) };
      const refused = await rawRequest(system.url, '/book/promocode', { headers, chunks: [body], expectContinue: true });
      expectError(refused, 401, 'UNAUTHORIZED');
      expect(refused.continued).toBe(false);
      const accepted = await rawRequest(system.url, '/book/promocode', { headers: { ...headers, ...booking }, chunks: [body], expectContinue: true });
      expect(accepted.continued).toBe(true);
      expectError(accepted, 400, 'PROMO_CODE_INVALID');
      // Any other expectation: 417, with the envelope.
      expectError(await system.request('GET', '/me', { headers: { ...booking, expect: 'the-unexpected' } }), 417, 'VALIDATION_FAILED');
    });

    it('refuses more than 10,000 values, duplicate keys, prototype keys, invalid UTF-8 and bodies that are not objects', async () => {
      const many = await system.request('POST', '/v2/rates', { headers: booking, json: { ...STAY, hotel_ids: Array.from({ length: 10_001 }, () => 1) } });
      expectError(many, 400, 'VALIDATION_FAILED', ['hotel_ids']);
      expect(many.body.message).toMatch(/more than 10000 values/);
      const raw = (text: string | Buffer) => system.request('POST', '/book/promocode', { headers: booking, raw: text });
      expectError(await raw('{"code":"ABC","code":"XYZ","booking_amount":10}'), 400, 'VALIDATION_FAILED', ['code']);
      expectError(await raw('{"code":"ABC","booking_amount":10,"__proto__":{"admin":true}}'), 400, 'VALIDATION_FAILED', ['__proto__']);
      expectError(await raw('{"code":"ABC","booking_amount":10,"constructor":{"prototype":{}}}'), 400, 'VALIDATION_FAILED', ['constructor']);
      expectError(await raw(Buffer.from([0x7b, 0x22, 0xff, 0x22, 0x3a, 0x31, 0x7d])), 400, 'VALIDATION_FAILED');
      for (const body of ['[]', 'null', '12', '"text"']) expectError(await raw(body), 400, 'VALIDATION_FAILED');
    });

    it('answers a body over 1 MiB with a 413 the client can read, declared or chunked, with or without a credential', async () => {
      const huge = JSON.stringify({ ...NEW_USER, firstName: 'x'.repeat(2 * MIB) });
      expectError(await system.request('POST', '/api/user', { headers: backend, raw: huge }), 413, 'PAYLOAD_TOO_LARGE');
      expectError(await system.request('POST', '/api/user', { raw: huge }), 401, 'UNAUTHORIZED');
      const chunk = Buffer.alloc(64 * 1024, 'x');
      const chunked = await rawRequest(system.url, '/api/user', {
        headers: { ...backend, 'content-type': 'application/json' },
        chunks: ['{"firstName":"', ...Array.from({ length: 32 }, () => chunk), '"}'],
      });
      expectError(chunked, 413, 'PAYLOAD_TOO_LARGE');
      // The connections stay usable: the next request answers as usual.
      expect((await system.request('GET', '/api/accounting/balance', { headers: backend })).status).toBe(200);
    });
  });

  describe('strings', () => {
    it('refuses NUL and unpaired surrogates in bodies, naming the field, nested fields and keys included', async () => {
      expectError(await system.request('POST', '/api/user', { headers: backend, json: { ...NEW_USER, firstName: 'Ada\u0000' } }), 400, 'VALIDATION_FAILED', ['firstName']);
      expectError(await system.request('POST', '/api/user', { headers: backend, json: { ...NEW_USER, lastName: 'Love\ud800lace' } }), 400, 'VALIDATION_FAILED', ['lastName']);
      const nested = await system.request('POST', '/v2/book', {
        headers: booking,
        json: { ...GUEST, prebook_id: SESSION, rooms: [{ lead_first_name: 'A\udc00', lead_last_name: 'B' }] },
      });
      expectError(nested, 400, 'VALIDATION_FAILED', ['rooms.0.lead_first_name']);
      expectError(await system.request('POST', '/api/user', { headers: backend, json: { ...NEW_USER, 'x\u0000': 1 } }), 400, 'VALIDATION_FAILED');
      // A surrogate pair is a character like any other.
      const emoji = await system.request('POST', '/api/user', { headers: backend, json: { ...NEW_USER, firstName: 'Ada 😀' } });
      expect(emoji.status).toBe(201);
    });

    it('refuses NUL in query strings and path parameters, and URLs that do not decode', async () => {
      expectError(await system.request('GET', '/places/search?text_query=par%00is', { headers: booking }), 400, 'VALIDATION_FAILED', ['text_query']);
      expectError(await system.request('GET', '/book?hotel_name=%00', { headers: booking }), 400, 'VALIDATION_FAILED', ['hotel_name']);
      expectError(await system.request('GET', `/search/${SESSION.slice(0, -1)}%00`, { headers: booking }), 400, 'VALIDATION_FAILED', ['session_id']);
      expectError(await system.request('GET', '/api/user/%ED%A0%80', { headers: backend }), 400, 'VALIDATION_FAILED');
      expectError(await system.request('GET', `/api/user/${'1'.repeat(500)}`, { headers: backend }), 400, 'VALIDATION_FAILED');
    });
  });

  describe('dates, ids, pages and numbers', () => {
    it('refuses impossible dates in every date field and filter', async () => {
      for (const query of ['check_in=2026-02-30', 'check_out=2026-13-01', 'created_at=2026-01-01..2026-02-30', 'created_at=0000-01-01', 'check_in=2026-1-1', 'check_in=2026-01-01..2026-01-02..2026-01-03']) {
        const field = query.split('=')[0];
        expectError(await system.request('GET', `/book?${query}`, { headers: booking }), 400, 'VALIDATION_FAILED', [field]);
      }
      expect((await system.request('GET', '/book?check_in=2028-02-29&created_at=2026-01-01..2026-12-31', { headers: booking })).status).toBe(200);
      const year = Number(day(400).slice(0, 4));
      expectError(await system.request('POST', '/search', { headers: booking, json: { place_id: 'gn:2988507', ...STAY, check_in: `${year}-02-30` } }), 400, 'VALIDATION_FAILED', ['check_in']);
      expectError(await system.request('POST', '/v2/rates', { headers: booking, json: { place_id: 'gn:2988507', ...STAY, check_out: `${year}-04-31` } }), 400, 'VALIDATION_FAILED', ['check_out']);
      const promo = await system.admin('create-promo', '--code', 'LEAP', '--percent', '5', '--expires', `${year + 1}-02-30`);
      expect(promo.code).toBe(2);
      expect(promo.stderr).toContain('--expires');
    });

    it('refuses ids that do not fit PostgreSQL integer, in paths, filters and bodies', async () => {
      for (const path of ['/api/user/2147483648', '/api/accounting/2147483648', '/api/accounting/booking/2147483648', '/api/booking/user/2147483648']) {
        expectError(await system.request('GET', path, { headers: backend }), 400, 'VALIDATION_FAILED');
      }
      expectError(await system.request('GET', '/api/user/2147483647', { headers: backend }), 404, 'NOT_FOUND');
      for (const path of ['/book/precancel/2147483648', `/hotel/2147483648/${SESSION}`, '/book?id=2147483648', '/book?id=1e3']) {
        expectError(await system.request('GET', path, { headers: booking }), 400, 'VALIDATION_FAILED');
      }
      expect((await system.request('GET', '/book?id=2147483647', { headers: booking })).body).toMatchObject({ data: [], total: 0 });
      const entry = { debit: 0, credit: 10, name: 'Wire', clientId: 2147483648 };
      expectError(await system.request('POST', '/api/accounting', { headers: backend, json: entry }), 400, 'VALIDATION_FAILED', ['clientId']);
    });

    it.each(['/book', '/api/booking', '/api/accounting'])('bounds and checks page and limit on %s', async (list) => {
      const headers = list === '/book' ? booking : backend;
      for (const query of ['page=1e300', 'page=100001', 'page=0x10', 'page=1.5', 'limit=1.5', 'limit=-1', 'page=', 'page=1&page=2']) {
        expectError(await system.request('GET', `${list}?${query}`, { headers }), 400, 'VALIDATION_FAILED', [query.split('=')[0]]);
      }
      for (const query of ['__proto__=1', 'constructor=1', '=1', 'a%00=1', 'toString=1']) {
        expectError(await system.request('GET', `${list}?${query}`, { headers }), 400, 'VALIDATION_FAILED');
      }
      const last = await system.request('GET', `${list}?page=100000&limit=1`, { headers });
      expect(last.status).toBe(200);
      expect(last.body.data).toEqual([]);
    });

    it('refuses numbers a field cannot hold exactly', async () => {
      const promo = (raw: string) => system.request('POST', '/book/promocode', { headers: booking, raw });
      for (const amount of ['1e-320', '0.000000001', '1.005', '1e300', '1e400', '"NaN"', '"12.5"', '-0.01', '0']) {
        expectError(await promo(`{"code":"NOPE","booking_amount":${amount}}`), 400, 'VALIDATION_FAILED', ['booking_amount']);
      }
      // A valid amount reaches the promo service, which does not know the code.
      expectError(await promo('{"code":"NOPE","booking_amount":12.5}'), 400, 'PROMO_CODE_INVALID');
      const entry = (debit: string) => system.request('POST', '/api/accounting', { headers: backend, raw: `{"debit":${debit},"credit":0,"name":"Fee","clientId":${acme.client_id}}` });
      for (const debit of ['1e-320', '0.30000000000000004', '1e13']) expectError(await entry(debit), 400, 'VALIDATION_FAILED', ['debit']);
      expect((await entry('0.3')).status).toBe(201);
      expectError(await system.request('POST', '/v2/rates', { headers: booking, json: { place_id: 'gn:2988507', ...STAY, page: 1e300 } }), 400, 'VALIDATION_FAILED', ['page']);
    });
  });
});

/** TLS, response headers and what the public health answers tell. */
describe('transport and headers', () => {
  let system: TestSystem, acme: ClientKeys, auth: { authorization: string };
  beforeAll(async () => ({ system, acme, auth } = await TestSystem.startWithClient({ RPC_TIMEOUT_MS: '10000' })));
  afterAll(() => system?.close());

  /** Connects with the given client TLS settings; the negotiated protocol and suite, or the error. */
  function handshake(options: { minVersion?: 'TLSv1' | 'TLSv1.2' | 'TLSv1.3'; maxVersion?: 'TLSv1.1' | 'TLSv1.2' | 'TLSv1.3'; ciphers?: string }) {
    const url = new URL(system.url);
    return new Promise<{ protocol: string | null; cipher: string } | { error: string }>((resolve) => {
      const socket = tlsConnect({ host: url.hostname, port: Number(url.port), rejectUnauthorized: false, ...options }, () => {
        resolve({ protocol: socket.getProtocol(), cipher: socket.getCipher().name });
        socket.end();
      });
      socket.on('error', (error) => resolve({ error: error.message }));
    });
  }

  it('speaks TLS 1.2+ with AEAD suites only: a CBC suite or TLS 1.1 fails the handshake', async () => {
    // The client is willing (security level 0): only the server can refuse.
    expect(await handshake({ maxVersion: 'TLSv1.2', ciphers: 'ECDHE-ECDSA-AES128-SHA:ECDHE-ECDSA-AES256-SHA:ECDHE-RSA-AES128-SHA:AES128-SHA:@SECLEVEL=0' })).toEqual({
      error: expect.any(String),
    });
    expect(await handshake({ maxVersion: 'TLSv1.2', ciphers: 'ECDHE-ECDSA-AES128-SHA256:ECDHE-ECDSA-AES256-SHA384:@SECLEVEL=0' })).toEqual({ error: expect.any(String) });
    expect(await handshake({ minVersion: 'TLSv1', maxVersion: 'TLSv1.1', ciphers: 'DEFAULT:@SECLEVEL=0' })).toEqual({ error: expect.any(String) });
    expect(await handshake({ maxVersion: 'TLSv1.2', ciphers: 'ECDHE-ECDSA-AES128-GCM-SHA256' })).toEqual({ protocol: 'TLSv1.2', cipher: 'ECDHE-ECDSA-AES128-GCM-SHA256' });
    expect(await handshake({ maxVersion: 'TLSv1.2', ciphers: 'ECDHE-ECDSA-CHACHA20-POLY1305' })).toEqual({ protocol: 'TLSv1.2', cipher: 'ECDHE-ECDSA-CHACHA20-POLY1305' });
    expect(await handshake({})).toMatchObject({ protocol: 'TLSv1.3', cipher: expect.stringMatching(/GCM|CHACHA20/) });
  });

  it('sends HSTS, nosniff, no referrer and no-store on every answer, errors included, and no banner', async () => {
    const created = await system.request('POST', '/api/user', { headers: { authorization: acme.backend_token }, json: NEW_USER });
    const token = await system.request('GET', `/api/user/${created.body.data.id}/token`, { headers: { authorization: acme.backend_token } });
    expect(token.status).toBe(200);
    for (const response of [
      token,
      created,
      await system.request('GET', '/health'),
      await system.request('GET', '/me', { headers: bearer(acme.api_key) }),
      await system.request('GET', '/me'),
      await system.request('GET', '/no/such/route'),
      await system.request('GET', '/api/user/%ff', { headers: { authorization: acme.backend_token } }),
    ]) {
      expect(response.headers).toMatchObject({
        'strict-transport-security': 'max-age=63072000; includeSubDomains',
        'x-content-type-options': 'nosniff',
        'referrer-policy': 'no-referrer',
        'cache-control': 'no-store',
      });
      expect(response.headers.server).toBeUndefined();
      expect(response.headers['x-powered-by']).toBeUndefined();
    }
  });

  it('still serves the voucher PDF, with its own caching and the security headers', async () => {
    const booked = await bookV1(system, auth, STAY);
    const url = new URL(booked.voucher_url);
    const pdf = await system.request('GET', `${url.pathname}${url.search}`);
    expect(pdf.status).toBe(200);
    expect(pdf.headers).toMatchObject({ 'content-type': 'application/pdf', 'cache-control': 'private, max-age=3600', 'x-content-type-options': 'nosniff' });
    expect(pdf.text.startsWith('%PDF-')).toBe(true);
  });

  it('answers malformed HTTP and oversized headers with the envelope too', async () => {
    const url = new URL(system.url);
    const exchange = (bytes: string) =>
      new Promise<string>((resolve) => {
        let text = '';
        const socket = tlsConnect({ host: url.hostname, port: Number(url.port), rejectUnauthorized: false }, () => socket.write(bytes));
        socket.on('data', (chunk) => (text += chunk));
        socket.on('close', () => resolve(text));
        socket.on('error', () => undefined);
      });
    const garbage = await exchange('GET /me HTTP/1.1\r\nHost: x\r\nBad Header\r\n\r\n');
    expect(garbage).toMatch(/^HTTP\/1\.1 400 /);
    expect(JSON.parse(garbage.slice(garbage.indexOf('\r\n\r\n') + 4))).toMatchObject({ data: null, success: false, code: 'VALIDATION_FAILED' });
    const huge = await exchange(`GET /me HTTP/1.1\r\nHost: x\r\nX-Big: ${'x'.repeat(20_000)}\r\n\r\n`);
    expect(huge).toMatch(/^HTTP\/1\.1 431 /);
    expect(huge).toContain('x-content-type-options: nosniff');
  });

  it('/health/ready tells readiness per service, never a host or a process id', async () => {
    const ready = await system.request('GET', '/health/ready');
    expect(ready.status).toBe(200);
    // The services that call the vendors show each one's circuit breakers, every one closed.
    const closedCircuits = expect.objectContaining({ availability: 'closed', checkRate: 'closed', booking: 'closed' });
    const vendors = { vendors: { atlas: closedCircuits, borealis: closedCircuits, cobalt: closedCircuits } };
    expect(ready.body.data.services).toEqual(
      Object.fromEntries(
        ['users', 'search', 'rates', 'booking', 'promo', 'accounting', 'webhooks'].map((name) => [name, { status: 'up', database: 'up', ...(['search', 'rates'].includes(name) && vendors) }]),
      ),
    );
    expect(ready.text).not.toContain(hostname());
    expect(ready.text).not.toContain(String(process.pid));
    expect(ready.text).not.toContain('instance');
  });
});
