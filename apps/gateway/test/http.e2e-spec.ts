import { mkdtempSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { connect } from 'nats';
import { SUBJECTS } from '@hotel/contracts';
import { natsConnectionOptions } from '@hotel/platform';
import { CapturedLogs, bearer, call, captureLogs } from '@hotel/testing';
import { ClientKeys, TestSystem } from './system';

const NEW_USER = { firstName: 'Ada', lastName: 'Lovelace', email: 'ada@example.com', phone: '+44 20', clientAccountLimit: 100 };

/** The envelope, the error envelope for every failure, request ids, health and the listeners. */
describe('gateway HTTP behaviour', () => {
  let system: TestSystem;
  let acme: ClientKeys;
  let logs: CapturedLogs;
  let auth: { authorization: string };

  beforeAll(async () => {
    logs = captureLogs();
    system = await TestSystem.start({ LOG_LEVEL: 'debug', RPC_TIMEOUT_MS: '1000', AUTH_CACHE_TTL_MS: '60000' });
    acme = await system.createClient('Acme Travel');
    auth = { authorization: acme.backend_token };
  });
  afterAll(async () => {
    await system?.close();
    logs?.stop();
  });

  /** GET /health/ready until an answer is as wanted (the background check's next rounds), or the last one after 5 s. */
  async function readiness(wanted: (answer: { status: number; body: any }) => boolean) {
    let answer = await system.request('GET', '/health/ready');
    for (const deadline = Date.now() + 5_000; !wanted(answer) && Date.now() < deadline; ) {
      await new Promise((resolve) => setTimeout(resolve, 100));
      answer = await system.request('GET', '/health/ready');
    }
    return answer;
  }

  describe('envelopes', () => {
    it('wraps success in {data, success, message}', async () => {
      const response = await system.request('GET', '/health');
      expect(response.status).toBe(200);
      expect(response.body).toEqual({ data: { status: 'ok' }, success: true, message: null });
    });

    it('answers malformed JSON with 400 and the error envelope', async () => {
      const response = await system.request('POST', '/api/user', { headers: auth, raw: '{"firstName": "Ada",' });
      expect(response.status).toBe(400);
      expect(response.body).toEqual({ data: null, success: false, code: 'VALIDATION_FAILED', message: expect.stringMatching(/JSON/) });
    });

    it('answers a JSON body of the wrong type with 400', async () => {
      const response = await system.request('POST', '/api/user', { headers: auth, raw: '"just a string"' });
      expect(response.status).toBe(400);
      expect(response.body.code).toBe('VALIDATION_FAILED');
    });

    it('answers an empty JSON body with 400', async () => {
      const response = await system.request('POST', '/api/user', { headers: { ...auth, 'content-type': 'application/json' }, raw: '' });
      expect(response.status).toBe(400);
      expect(response.body).toMatchObject({ data: null, success: false, code: 'VALIDATION_FAILED' });
    });

    it('answers a body over 1 MiB with 413', async () => {
      const huge = JSON.stringify({ ...NEW_USER, firstName: 'x'.repeat(1024 * 1024) });
      const response = await system.request('POST', '/api/user', { headers: auth, raw: huge });
      expect(response.status).toBe(413);
      expect(response.body).toEqual({ data: null, success: false, code: 'PAYLOAD_TOO_LARGE', message: expect.any(String) });
    });

    it('answers a body that is not JSON with 415', async () => {
      const response = await system.request('POST', '/api/user', { headers: { ...auth, 'content-type': 'text/plain' }, raw: 'hello' });
      expect(response.status).toBe(415);
      expect(response.body).toMatchObject({ data: null, success: false, code: 'UNSUPPORTED_MEDIA_TYPE' });
    });

    it('answers an unknown route with 404, with or without a credential', async () => {
      for (const [method, path] of [
        ['GET', '/no/such/route'],
        ['POST', '/api/nothing'],
        ['PATCH', '/api/user/1'],
      ]) {
        const response = await system.request(method, path, { headers: auth });
        expect(response.status).toBe(404);
        expect(response.body).toEqual({ data: null, success: false, code: 'NOT_FOUND', message: expect.any(String) });
      }
    });

    it('lists every validation error with its field', async () => {
      const response = await system.request('POST', '/api/user', { headers: auth, json: { email: 'x', clientAccountLimit: -3 } });
      expect(response.status).toBe(400);
      const fields = response.body.errors.map((error: { field: string }) => error.field);
      expect(new Set(fields)).toEqual(new Set(['firstName', 'lastName', 'email', 'phone', 'clientAccountLimit']));
      for (const error of response.body.errors) expect(typeof error.message).toBe('string');
    });
  });

  describe('request ids', () => {
    it('returns the caller’s X-Request-Id and carries it to the service’s log lines', async () => {
      const requestId = `test-${Date.now()}`;
      const created = await system.request('POST', '/api/user', { headers: { ...auth, 'x-request-id': requestId }, json: NEW_USER });
      expect(created.status).toBe(201);
      expect(created.headers['x-request-id']).toBe(requestId);
      const serviceLines = logs.lines.filter((line) => line.service === 'users' && line.requestId === requestId);
      expect(serviceLines).toEqual(
        expect.arrayContaining([expect.objectContaining({ msg: 'handled', subject: SUBJECTS.USERS_USER_CREATE, outcome: 'ok' })]),
      );
      const accessLine = logs.lines.find((line) => line.service === 'gateway' && line.msg === 'request' && line.requestId === requestId);
      expect(accessLine).toMatchObject({ method: 'POST', path: '/api/user', status: 201 });
    });

    it("logs an error answer's code and message on its access line, so a failed request is explained by its id", async () => {
      const requestId = `test-failed-${Date.now()}`;
      const invalid = await system.request('POST', '/api/user', { headers: { ...auth, 'x-request-id': requestId }, json: { ...NEW_USER, email: 'not an email' } });
      expect(invalid.status).toBe(400);
      const accessLine = logs.lines.find((line) => line.service === 'gateway' && line.msg === 'request' && line.requestId === requestId);
      expect(accessLine).toMatchObject({ path: '/api/user', status: 400, code: 'VALIDATION_FAILED', message: invalid.body.message });
      const unknownKey = await system.request('GET', '/api/user/1', { headers: { authorization: 'not-a-token', 'x-request-id': `${requestId}-401` } });
      expect(unknownKey.status).toBe(401);
      expect(logs.lines.find((line) => line.msg === 'request' && line.requestId === `${requestId}-401`)).toMatchObject({ status: 401, code: 'UNAUTHORIZED' });
      // A success carries neither.
      const ok = logs.lines.find((line) => line.msg === 'request' && line.status === 200);
      expect(ok).not.toHaveProperty('code');
    });

    it('generates a request id when none (or a malformed one) is sent, also on errors', async () => {
      const plain = await system.request('GET', '/health');
      expect(plain.headers['x-request-id']).toMatch(/^[0-9a-f-]{36}$/);
      const bad = await system.request('GET', '/nowhere', { headers: { 'x-request-id': 'bad id with spaces' } });
      expect(bad.status).toBe(404);
      expect(bad.headers['x-request-id']).toMatch(/^[0-9a-f-]{36}$/);
    });
  });

  describe('listeners', () => {
    it('serves HTTPS with the generated certificate', async () => {
      expect(system.url).toMatch(/^https:\/\//);
      expect(system.gateway.certificate).toContain('BEGIN CERTIFICATE');
    });

    it('HTTP_PORT accepts only requests forwarded from a TLS proxy', async () => {
      const second = await (async () => {
        const { startGateway } = await import('../src/start-gateway');
        const { GatewayEnv } = await import('../src/gateway.env');
        const { loadEnv } = await import('@hotel/platform');
        return startGateway(loadEnv(GatewayEnv, { ...system.env, ...system.identityEnv('gateway'), HTTP_PORT: '0', DATA_DIR: mkdtempSync(join(tmpdir(), 'gw-')) }));
      })();
      try {
        expect(second.plainUrl).toMatch(/^http:\/\/127\.0\.0\.1:\d+$/);
        const refused = await call(second.plainUrl!, 'GET', '/health');
        expect(refused.status).toBe(403);
        expect(refused.body).toMatchObject({ data: null, success: false, code: 'FORBIDDEN' });
        const forwarded = await call(second.plainUrl!, 'GET', '/me', { headers: { ...bearer(acme.api_key), 'x-forwarded-proto': 'https' } });
        expect(forwarded.status).toBe(200);
        expect(forwarded.body.data.client_id).toBe(acme.client_id);
      } finally {
        await second.close();
      }
    });

    it('HTTP_PORT refuses X-Forwarded-Proto from a peer outside TRUSTED_PROXIES', async () => {
      const { startGateway } = await import('../src/start-gateway');
      const { GatewayEnv } = await import('../src/gateway.env');
      const { loadEnv } = await import('@hotel/platform');
      // Only 10.0.0.0/8 is trusted: this test's loopback peer is not.
      const env = { ...system.env, ...system.identityEnv('gateway'), HTTP_PORT: '0', TRUSTED_PROXIES: '10.0.0.0/8', DATA_DIR: mkdtempSync(join(tmpdir(), 'gw-')) };
      const untrusting = await startGateway(loadEnv(GatewayEnv, env));
      try {
        const spoofed = await call(untrusting.plainUrl!, 'GET', '/me', { headers: { ...bearer(acme.api_key), 'x-forwarded-proto': 'https' } });
        expect(spoofed.status).toBe(403);
        expect(spoofed.body).toMatchObject({ data: null, success: false, code: 'FORBIDDEN' });
        // HTTPS itself is unaffected.
        expect((await call(untrusting.url, 'GET', '/me', { headers: bearer(acme.api_key) })).status).toBe(200);
      } finally {
        await untrusting.close();
      }
      await expect(startGateway(loadEnv(GatewayEnv, { ...env, TRUSTED_PROXIES: '10.0.0.0/40' }))).rejects.toThrow(/TRUSTED_PROXIES: 10.0.0.0\/40/);
    });
  });

  describe('when services are down', () => {
    it('answers 503 with Retry-After when a service does not answer in time', async () => {
      const created = await system.request('POST', '/api/user', { headers: auth, json: NEW_USER });
      expect(created.status).toBe(201);
      // A replica that takes the message but never answers (hung process).
      const hung = await connect(natsConnectionOptions(system.nats.bus('users')));
      hung.subscribe(SUBJECTS.USERS_USER_GET, { queue: 'users' });
      await system.stopService('users');
      try {
        const started = Date.now();
        const response = await system.request('GET', `/api/user/${created.body.data.id}`, { headers: auth });
        expect(response.status).toBe(503);
        expect(response.headers['retry-after']).toBe('1');
        expect(response.body).toEqual({ data: null, success: false, code: 'SERVICE_UNAVAILABLE', message: expect.stringMatching(/users/) });
        expect(Date.now() - started).toBeGreaterThanOrEqual(900);
      } finally {
        await hung.close();
      }
    });

    it('answers 503 at once when no replica of a service runs, and readiness names it', async () => {
      const response = await system.request('GET', '/api/user/1', { headers: auth });
      expect(response.status).toBe(503);
      expect(response.body.code).toBe('SERVICE_UNAVAILABLE');

      await system.stopService('accounting');
      // Readiness is the background check's: it tells within a round or two.
      const ready = await readiness((answer) => answer.status === 503 && answer.body.message.includes('accounting'));
      expect(ready.status).toBe(503);
      expect(ready.headers['retry-after']).toBeDefined();
      expect(ready.body).toMatchObject({ data: null, success: false, code: 'SERVICE_UNAVAILABLE' });
      expect(ready.body.message).toContain('users');
      expect(ready.body.message).toContain('accounting');
      expect(ready.body.message).not.toContain('search');
      // Liveness does not depend on the services.
      expect((await system.request('GET', '/health')).status).toBe(200);

      await system.startReplica('users');
      await system.startReplica('accounting');
      const back = await readiness((answer) => answer.status === 200);
      expect(back.status).toBe(200);
      expect(Object.keys(back.body.data.services).sort()).toEqual(['accounting', 'booking', 'promo', 'rates', 'search', 'users', 'webhooks']);
    });
  });
});
