import { mkdtempSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { NatsConnection, connect } from 'nats';
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
