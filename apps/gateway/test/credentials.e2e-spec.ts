import { bearer, queryTestDatabase, sleep } from '@hotel/testing';
import { ClientKeys, TestSystem } from './system';

const NEW_USER = { firstName: 'Ada', lastName: 'Lovelace', email: 'ada@example.com', phone: '+44 20 7946 0000', clientAccountLimit: 500 };

/** Which credential reaches which API, and 401/403/404 (docs/credentials.md). */
/** What GET /me says of a client created in the default currency. */
const USD_PRICING = { currency: 'USD', currency_decimals: 2, fx_margin_percent: '0' };

describe('credentials and roles', () => {
  let system: TestSystem;
  let acme: ClientKeys;
  let globex: ClientKeys;
  let acmeUserId: number;
  let otherAcmeUserId: number;

  beforeAll(async () => {
    system = await TestSystem.start({ AUTH_CACHE_TTL_MS: '200' });
    acme = await system.createClient('Acme Travel');
    globex = await system.createClient('Globex Trips');
    const created = await system.request('POST', '/api/user', { headers: { authorization: acme.backend_token }, json: NEW_USER });
    acmeUserId = created.body.data.id;
    const other = await system.request('POST', '/api/user', {
      headers: { authorization: acme.backend_token },
      json: { ...NEW_USER, email: 'grace@example.com', firstName: 'Grace' },
    });
    otherAcmeUserId = other.body.data.id;
  });
  afterAll(async () => {
    await system?.close();
  });

  const expectError = (response: { status: number; body: any }, status: number, code: string) => {
    expect(response.status).toBe(status);
    expect(response.body).toMatchObject({ data: null, success: false, code });
    expect(typeof response.body.message).toBe('string');
  };

  describe('401', () => {
    it('rejects a missing Authorization header on both APIs', async () => {
      expectError(await system.request('GET', '/me'), 401, 'UNAUTHORIZED');
      expectError(await system.request('GET', `/api/user/${acmeUserId}`), 401, 'UNAUTHORIZED');
    });

    it('rejects an unknown credential', async () => {
      expectError(await system.request('GET', '/me', { headers: bearer('hb_live_nope') }), 401, 'UNAUTHORIZED');
      expectError(await system.request('GET', `/api/user/${acmeUserId}`, { headers: { authorization: 'hb_back_nope' } }), 401, 'UNAUTHORIZED');
    });

    it('requires the Bearer scheme on the booking API', async () => {
      expectError(await system.request('GET', '/me', { headers: { authorization: acme.api_key } }), 401, 'UNAUTHORIZED');
      expectError(await system.request('GET', '/me', { headers: { authorization: `Basic ${acme.api_key}` } }), 401, 'UNAUTHORIZED');
      expectError(await system.request('GET', '/me', { headers: bearer('x'.repeat(600)) }), 401, 'UNAUTHORIZED');
    });
  });

  describe('what each credential reaches', () => {
    it('api key: booking API yes, backend API 403', async () => {
      const me = await system.request('GET', '/me', { headers: bearer(acme.api_key) });
      expect(me.status).toBe(200);
      expect(me.body).toEqual({ data: { client_id: acme.client_id, user_id: null, is_sandbox: false, ...USD_PRICING }, success: true, message: null });
      expectError(await system.request('GET', `/api/user/${acmeUserId}`, { headers: bearer(acme.api_key) }), 403, 'FORBIDDEN');
      expectError(await system.request('POST', '/api/user', { headers: bearer(acme.api_key), json: NEW_USER }), 403, 'FORBIDDEN');
    });

    it('sandbox key: booking API as a sandbox caller, backend API 403', async () => {
      const me = await system.request('GET', '/me', { headers: bearer(acme.sandbox_api_key) });
      expect(me.body.data).toEqual({ client_id: acme.client_id, user_id: null, is_sandbox: true, ...USD_PRICING });
      expectError(await system.request('GET', `/api/user/${acmeUserId}`, { headers: bearer(acme.sandbox_api_key) }), 403, 'FORBIDDEN');
    });

    it('backend token: backend API (bare or Bearer), booking API 403', async () => {
      const bare = await system.request('GET', `/api/user/${acmeUserId}`, { headers: { authorization: acme.backend_token } });
      expect(bare.status).toBe(200);
      const withBearer = await system.request('GET', `/api/user/${acmeUserId}`, { headers: bearer(acme.backend_token) });
      expect(withBearer.status).toBe(200);
      expectError(await system.request('GET', '/me', { headers: bearer(acme.backend_token) }), 403, 'FORBIDDEN');
    });

    it('user token: booking API as that user; backend reads that user only', async () => {
      const issued = await system.request('GET', `/api/user/${acmeUserId}/token`, { headers: { authorization: acme.backend_token } });
      expect(issued.status).toBe(200);
      const token: string = issued.body.data.token;

      const me = await system.request('GET', '/me', { headers: bearer(token) });
      expect(me.body.data).toEqual({ client_id: acme.client_id, user_id: acmeUserId, is_sandbox: false, ...USD_PRICING });

      const self = await system.request('GET', `/api/user/${acmeUserId}`, { headers: { authorization: token } });
      expect(self.status).toBe(200);
      expect(self.body.data.id).toBe(acmeUserId);

      expectError(await system.request('GET', `/api/user/${otherAcmeUserId}`, { headers: { authorization: token } }), 403, 'FORBIDDEN');
      expectError(await system.request('POST', '/api/user', { headers: { authorization: token }, json: NEW_USER }), 403, 'FORBIDDEN');
      expectError(
        await system.request('PUT', `/api/user/${acmeUserId}`, { headers: { authorization: token }, json: { phone: '1' } }),
        403,
        'FORBIDDEN',
      );
      expectError(await system.request('DELETE', `/api/user/${acmeUserId}`, { headers: { authorization: token } }), 403, 'FORBIDDEN');
      expectError(await system.request('GET', `/api/user/${acmeUserId}/token`, { headers: { authorization: token } }), 403, 'FORBIDDEN');
    });
  });

  describe("another client's objects are 404, never 403", () => {
    it.each(['GET', 'PUT', 'DELETE'])('%s /api/user/{id} of another client', async (method) => {
      const response = await system.request(method, `/api/user/${acmeUserId}`, {
        headers: { authorization: globex.backend_token },
        json: method === 'PUT' ? { phone: '123' } : undefined,
      });
      expectError(response, 404, 'NOT_FOUND');
    });

    it('GET /api/user/{id}/token of another client', async () => {
      expectError(await system.request('GET', `/api/user/${acmeUserId}/token`, { headers: { authorization: globex.backend_token } }), 404, 'NOT_FOUND');
    });
  });

  describe('expiry and revocation', () => {
    it('an expired user token is 401', async () => {
      const issued = await system.request('GET', `/api/user/${acmeUserId}/token`, { headers: { authorization: acme.backend_token } });
      const token: string = issued.body.data.token;
      expect(Date.parse(issued.body.data.expiresAt)).toBeGreaterThan(Date.now() + 23 * 3600 * 1000);
      expect((await system.request('GET', '/me', { headers: bearer(token) })).status).toBe(200);
      await queryTestDatabase(system.database.url, `UPDATE users.user_tokens SET expires_at = now() - interval '1 second'`);
      await sleep(300); // past the gateway's credential cache
      expectError(await system.request('GET', '/me', { headers: bearer(token) }), 401, 'UNAUTHORIZED');
    });

    it("a deleted user's tokens stop working", async () => {
      const created = await system.request('POST', '/api/user', {
        headers: { authorization: acme.backend_token },
        json: { ...NEW_USER, email: 'leaving@example.com' },
      });
      const userId = created.body.data.id;
      const token = (await system.request('GET', `/api/user/${userId}/token`, { headers: { authorization: acme.backend_token } })).body.data.token;
      expect((await system.request('GET', '/me', { headers: bearer(token) })).status).toBe(200);
      const deleted = await system.request('DELETE', `/api/user/${userId}`, { headers: { authorization: acme.backend_token } });
      expect(deleted.status).toBe(200);
      await sleep(300);
      expectError(await system.request('GET', '/me', { headers: bearer(token) }), 401, 'UNAUTHORIZED');
    });

    it('a revoked key stops working within the cache lifetime; rotation issues working keys', async () => {
      const client = await system.createClient('Initech');
      expect((await system.request('GET', '/me', { headers: bearer(client.api_key) })).status).toBe(200);

      const rotated = await system.admin('rotate-key', '--client-id', String(client.client_id), '--kind', 'live');
      expect(rotated.code).toBe(0);
      expect(Object.keys(rotated.json).sort()).toEqual(['api_key', 'client_id', 'revoked_user_tokens']);
      expect(rotated.json.revoked_user_tokens).toBe(0);
      expect(rotated.json.api_key).not.toBe(client.api_key);
      await sleep(300);
      expectError(await system.request('GET', '/me', { headers: bearer(client.api_key) }), 401, 'UNAUTHORIZED');
      expect((await system.request('GET', '/me', { headers: bearer(rotated.json.api_key) })).status).toBe(200);
      // Rotating the live key leaves the other credentials alone.
      expect((await system.request('GET', '/me', { headers: bearer(client.sandbox_api_key) })).status).toBe(200);

      const revoked = await system.admin('revoke-key', '--client-id', String(client.client_id));
      expect(revoked.json).toEqual({ client_id: client.client_id, revoked: 3, revoked_user_tokens: 0 });
      await sleep(300);
      expectError(await system.request('GET', '/me', { headers: bearer(rotated.json.api_key) }), 401, 'UNAUTHORIZED');
      expectError(await system.request('GET', '/me', { headers: bearer(client.sandbox_api_key) }), 401, 'UNAUTHORIZED');
      expectError(await system.request('POST', '/api/user', { headers: { authorization: client.backend_token }, json: NEW_USER }), 401, 'UNAUTHORIZED');
    });
  });
});
