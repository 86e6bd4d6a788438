import { mkdtempSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { NatsConnection, connect } from 'nats';
import { Client } from 'pg';
import { SUBJECTS, credentialHash } from '@hotel/contracts';
import { loadEnv, natsConnectionOptions } from '@hotel/platform';
import { bearer, call, queryTestDatabase, userToken } from '@hotel/testing';
import { GatewayEnv } from '../src/gateway.env';
import { RunningGateway, startGateway } from '../src/start-gateway';
import { TestSystem } from './system';

async function eventually(what: string, probe: () => Promise<boolean>, timeoutMs = 20_000): Promise<void> {
  const deadline = Date.now() + timeoutMs;
  while (!(await probe())) {
    if (Date.now() > deadline) throw new Error(`timed out waiting for ${what}`);
    await new Promise((resolve) => setTimeout(resolve, 200));
  }
}

/**
 * Revocation takes effect at the next request on every gateway replica: the users
 * service announces each change and every gateway forgets that client's cached
 * credentials. The cache lifetime here is a minute (the most allowed), so nothing but the
 * announcement (or a reconnect, which empties the cache) can explain a 401.
 */
describe('revocation on every gateway replica', () => {
  let system: TestSystem;
  let second: RunningGateway;
  let gateways: string[];

  beforeAll(async () => {
    system = await TestSystem.start({ AUTH_CACHE_TTL_MS: '60000' });
    second = await startGateway(loadEnv(GatewayEnv, { ...system.env, ...system.identityEnv('gateway'), DATA_DIR: mkdtempSync(join(tmpdir(), 'gw-')) }));
    gateways = [system.url, second.url];
  });
  afterAll(async () => {
    await second?.close();
    await system?.close();
  });

  /** The status each gateway answers GET /me with for this credential. */
  const statuses = (headers: Record<string, string>, path = '/me') => Promise.all(gateways.map(async (url) => (await call(url, 'GET', path, { headers })).status));

  it('revoke-key --kind user-tokens: every user token of the client is refused at once, its keys still work', async () => {
    const client = await system.createClient('Revoked Users Travel');
    const [ada, bob] = [await userToken(system, client.backend_token), await userToken(system, client.backend_token)];
    // Cached on both replicas.
    expect(await statuses(bearer(ada.token))).toEqual([200, 200]);
    expect(await statuses(bearer(bob.token))).toEqual([200, 200]);
    expect(await statuses(bearer(client.api_key))).toEqual([200, 200]);

    const revoked = await system.admin('revoke-key', '--client-id', String(client.client_id), '--kind', 'user-tokens');
    expect(revoked.code).toBe(0);
    expect(revoked.json).toMatchObject({ client_id: client.client_id, revoked: 0, revoked_user_tokens: 2 });

    expect(await statuses(bearer(ada.token))).toEqual([401, 401]);
    expect(await statuses(bearer(bob.token))).toEqual([401, 401]);
    expect(await statuses(bearer(client.api_key))).toEqual([200, 200]);
    // A new token works.
    const again = await call(system.url, 'GET', `/api/user/${ada.userId}/token`, { headers: { authorization: client.backend_token } });
    expect(await statuses(bearer(again.body.data.token))).toEqual([200, 200]);
  });

  it('revoke-key --kind all refuses the keys, the backend token and the user tokens at once', async () => {
    const client = await system.createClient('Revoked All Travel');
    const ada = await userToken(system, client.backend_token);
    expect(await statuses(bearer(ada.token))).toEqual([200, 200]);
    expect(await statuses(bearer(client.sandbox_api_key))).toEqual([200, 200]);
    expect(await statuses({ authorization: client.backend_token }, '/api/booking')).toEqual([200, 200]);

    const revoked = await system.admin('revoke-key', '--client-id', String(client.client_id), '--kind', 'all');
    expect(revoked.json).toMatchObject({ revoked: 3, revoked_user_tokens: 1 });

    expect(await statuses(bearer(ada.token))).toEqual([401, 401]);
    expect(await statuses(bearer(client.api_key))).toEqual([401, 401]);
    expect(await statuses(bearer(client.sandbox_api_key))).toEqual([401, 401]);
    expect(await statuses({ authorization: client.backend_token }, '/api/booking')).toEqual([401, 401]);
  });

  it('a rotated key and a deleted user are refused at the next request; other clients are untouched', async () => {
    const client = await system.createClient('Rotating Travel');
    const bystander = await system.createClient('Bystander Travel');
    const ada = await userToken(system, client.backend_token);
    expect(await statuses(bearer(client.api_key))).toEqual([200, 200]);
    expect(await statuses(bearer(bystander.api_key))).toEqual([200, 200]);

    const rotated = await system.admin('rotate-key', '--client-id', String(client.client_id), '--kind', 'live');
    expect(await statuses(bearer(client.api_key))).toEqual([401, 401]);
    expect(await statuses(bearer(rotated.json.api_key))).toEqual([200, 200]);

    expect(await statuses(bearer(ada.token))).toEqual([200, 200]);
    const deleted = await call(system.url, 'DELETE', `/api/user/${ada.userId}`, { headers: { authorization: client.backend_token } });
    expect(deleted.status).toBe(200);
    expect(await statuses(bearer(ada.token))).toEqual([401, 401]);
    expect(await statuses(bearer(bystander.api_key))).toEqual([200, 200]);
  });

  it('rotating the backend token revokes the user tokens it issued at once, unless --keep-user-tokens', async () => {
    const client = await system.createClient('Rotating Backend Travel');
    const bystander = await system.createClient('Bystander Backend Travel');
    const [ada, bob] = [await userToken(system, client.backend_token), await userToken(system, client.backend_token)];
    const outsider = await userToken(system, bystander.backend_token);
    const issue = async (userId: number, backendToken: string) => (await call(system.url, 'GET', `/api/user/${userId}/token`, { headers: { authorization: backendToken } })).body.data.token as string;
    expect(await statuses(bearer(ada.token))).toEqual([200, 200]);
    expect(await statuses(bearer(bob.token))).toEqual([200, 200]);

    // Kept: the old backend token stops, what it issued goes on.
    const kept = await system.admin('rotate-key', '--client-id', String(client.client_id), '--kind', 'backend', '--keep-user-tokens');
    expect(kept.code).toBe(0);
    expect(kept.json).toEqual({ client_id: client.client_id, backend_token: expect.stringMatching(/^hb_back_/), revoked_user_tokens: 0 });
    expect(await statuses({ authorization: client.backend_token }, '/api/booking')).toEqual([401, 401]);
    expect(await statuses(bearer(ada.token))).toEqual([200, 200]);
    expect(await statuses(bearer(bob.token))).toEqual([200, 200]);

    // The default: the rotated backend token takes the tokens it issued, on every replica; those of the backend token before it stay.
    const second = kept.json.backend_token as string;
    const [adaAgain, bobAgain] = [await issue(ada.userId, second), await issue(bob.userId, second)];
    expect(await statuses(bearer(adaAgain))).toEqual([200, 200]);
    const rotated = await system.admin('rotate-key', '--client-id', String(client.client_id), '--kind', 'backend');
    expect(rotated.json).toEqual({ client_id: client.client_id, backend_token: expect.stringMatching(/^hb_back_/), revoked_user_tokens: 2 });
    expect(await statuses(bearer(adaAgain))).toEqual([401, 401]);
    expect(await statuses(bearer(bobAgain))).toEqual([401, 401]);
    expect(await statuses(bearer(ada.token))).toEqual([200, 200]);
    expect(await statuses(bearer(client.api_key))).toEqual([200, 200]);

    // --kind keys (rotate-key's default) rotates the backend token too; a token that does not say which
    // backend token issued it (issued before tokens recorded it) goes with any rotation of one.
    const third = rotated.json.backend_token as string;
    const adaThird = await issue(ada.userId, third);
    await queryTestDatabase(system.database.url, `UPDATE users.user_tokens SET minted_by = NULL WHERE token_hash = $1`, [credentialHash(bob.token)]);
    const keys = await system.admin('rotate-key', '--client-id', String(client.client_id));
    expect(keys.json).toMatchObject({ client_id: client.client_id, revoked_user_tokens: 2 });
    expect(await statuses(bearer(adaThird))).toEqual([401, 401]);
    expect(await statuses(bearer(bob.token))).toEqual([401, 401]);
    expect(await statuses(bearer(ada.token))).toEqual([200, 200]);
    expect(await statuses(bearer(outsider.token))).toEqual([200, 200]);

    // revoke-key of the backend token does the same.
    const adaFourth = await issue(ada.userId, keys.json.backend_token);
    const revoked = await system.admin('revoke-key', '--client-id', String(client.client_id), '--kind', 'backend');
    expect(revoked.json).toEqual({ client_id: client.client_id, revoked: 1, revoked_user_tokens: 1 });
    expect(await statuses(bearer(adaFourth))).toEqual([401, 401]);
    expect(await statuses(bearer(ada.token))).toEqual([200, 200]);
  });

  it('a user token issued while its backend token is being revoked is refused, never left behind', async () => {
    const client = await system.createClient('Racing Backend Travel');
    const ada = await userToken(system, client.backend_token);
    const database = new Client({ connectionString: system.database.url });
    await database.connect();
    try {
      // The first step of a rotation, held open: the backend token's row is revoked, not yet committed.
      await database.query('BEGIN');
      await database.query(`UPDATE users.credentials SET revoked_at = now() WHERE secret_hash = $1`, [credentialHash(client.backend_token)]);
      let answered = false;
      const issuing = call(system.url, 'GET', `/api/user/${ada.userId}/token`, { headers: { authorization: client.backend_token } }).finally(() => (answered = true));
      // Issuing waits for the backend token's row (or, were it not to, answers at once: a token left behind).
      await eventually('the token to wait for the backend token, or an answer', async () => {
        const [{ waiting }] = (await database.query(`SELECT count(*)::int AS waiting FROM pg_stat_activity WHERE datname = current_database() AND wait_event_type = 'Lock'`)).rows;
        return waiting > 0 || answered;
      });
      await database.query('COMMIT');
      const issued = await issuing;
      expect(issued.status).toBe(401);
      expect(issued.body.code).toBe('UNAUTHORIZED');
    } finally {
      await database.end();
    }
    expect((await queryTestDatabase<{ n: number }>(system.database.url, `SELECT count(*)::int AS n FROM users.user_tokens WHERE user_id = $1`, [ada.userId]))[0].n).toBe(1);
  });

  it('delete-client: every credential of the client is refused at once, for good', async () => {
    const client = await system.createClient('Deleted Travel');
    const bystander = await system.createClient('Staying Travel');
    const ada = await userToken(system, client.backend_token);
    expect(await statuses(bearer(client.api_key))).toEqual([200, 200]);
    expect(await statuses(bearer(ada.token))).toEqual([200, 200]);
    expect(await statuses({ authorization: client.backend_token }, '/api/booking')).toEqual([200, 200]);

    const deleted = await system.admin('delete-client', '--client-id', String(client.client_id));
    expect(deleted.code).toBe(0);
    expect(deleted.json).toEqual({ client_id: client.client_id, deleted_at: expect.any(String), revoked: 3, revoked_user_tokens: 1 });

    expect(await statuses(bearer(client.api_key))).toEqual([401, 401]);
    expect(await statuses(bearer(client.sandbox_api_key))).toEqual([401, 401]);
    expect(await statuses(bearer(ada.token))).toEqual([401, 401]);
    expect(await statuses({ authorization: client.backend_token }, '/api/booking')).toEqual([401, 401]);
    expect(await statuses(bearer(bystander.api_key))).toEqual([200, 200]);

    // No new keys for a deleted client; a repeat changes nothing; the list says when.
    const rotated = await system.admin('rotate-key', '--client-id', String(client.client_id));
    expect(rotated.code).toBe(1);
    expect(JSON.parse(rotated.stderr)).toMatchObject({ error: { code: 'NOT_FOUND' } });
    const again = await system.admin('delete-client', '--client-id', String(client.client_id));
    expect(again.json).toEqual({ ...deleted.json, revoked: 0, revoked_user_tokens: 0 });
    const listed = (await system.admin('list-clients')).json.clients.find((entry: { client_id: number }) => entry.client_id === client.client_id);
    expect(listed).toMatchObject({ deleted_at: deleted.json.deleted_at, active_credentials: { live: 0, sandbox: 0, backend: 0 } });
    expect((await system.admin('delete-client', '--client-id', '999999')).code).toBe(1);
  });

  it('a gateway that reconnects to the broker forgets what it cached (announcements may have been missed)', async () => {
    const client = await system.createClient('Quiet Revocation Travel');
    expect(await statuses(bearer(client.api_key))).toEqual([200, 200]);
    // Revoked behind the users service's back: no announcement.
    await queryTestDatabase(system.database.url, `UPDATE users.credentials SET revoked_at = now() WHERE client_id = $1 AND kind = 'live'`, [client.client_id]);
    expect(await statuses(bearer(client.api_key))).toEqual([200, 200]);

    await system.nats.restart(300);
    await eventually('both gateways to refuse the key after reconnecting', async () => (await statuses(bearer(client.api_key))).every((status) => status === 401));
  });

  it('asks the users service by the secret hash: no key crosses the bus in clear', async () => {
    const client = await system.createClient('Hashed Travel');
    // Listens beside the users service (its identity may read its own subjects).
    const listener: NatsConnection = await connect(natsConnectionOptions(system.nats.bus('users')));
    const seen: string[] = [];
    try {
      listener.subscribe(SUBJECTS.USERS_CREDENTIAL_RESOLVE, { callback: (_error, message) => seen.push(new TextDecoder().decode(message.data)) });
      await listener.flush();
      expect(await statuses(bearer(client.api_key))).toEqual([200, 200]);
      await listener.flush();
      expect(seen.length).toBeGreaterThan(0);
      for (const message of seen) {
        expect(message).not.toContain(client.api_key);
        expect(message).not.toContain(client.api_key.slice(8));
      }
      expect(seen.some((message) => message.includes(credentialHash(client.api_key)))).toBe(true);
    } finally {
      await listener.close();
    }
  });
});
