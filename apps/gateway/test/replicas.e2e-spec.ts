import { SUBJECTS } from '@hotel/contracts';
import { ServiceClient } from '@hotel/platform';
import { CapturedLogs, bearer, captureLogs } from '@hotel/testing';
import { TestSystem } from './system';

/** Replicas share work through NATS queue groups; PostgreSQL keeps the state across restarts. */
describe('replicas and restarts', () => {
  let system: TestSystem;
  let logs: CapturedLogs;

  beforeAll(async () => {
    logs = captureLogs();
    system = await TestSystem.start({ LOG_LEVEL: 'debug', AUTH_CACHE_TTL_MS: '0' });
  });
  afterAll(async () => {
    await system?.close();
    logs?.stop();
  });

  it('two replicas of the users service share requests, each request handled once', async () => {
    await system.startReplica('users');
    const client = new ServiceClient(system.nats.bus('gateway'), 3000);
    await client.connect();
    try {
      // By their request ids: the gateway's background readiness checks ask the same subject meanwhile.
      const replies = await Promise.all(Array.from({ length: 60 }, (_, index) => client.send(SUBJECTS.USERS_HEALTH_CHECK, {}, { requestId: `replicas-test-${index}` })));
      const instances = new Set(replies.map((reply) => reply.instance));
      expect(instances.size).toBe(2);
      // Every replica logs what it handled: together exactly 60, so no message was handled twice.
      const handled = logs.lines.filter((line) => line.msg === 'handled' && line.subject === SUBJECTS.USERS_HEALTH_CHECK && String(line.requestId).startsWith('replicas-test-'));
      expect(handled).toHaveLength(60);
      const perInstance = new Map<string, number>();
      for (const line of handled) perInstance.set(line.instance as string, (perInstance.get(line.instance as string) ?? 0) + 1);
      expect([...perInstance.keys()].sort()).toEqual([...instances].sort());
      for (const count of perInstance.values()) expect(count).toBeGreaterThan(0);
    } finally {
      await client.close();
    }
  });

  it('keeps serving through the gateway when one replica stops', async () => {
    const acme = await system.createClient('Acme Travel');
    const [first] = system.replicas.get('users')!;
    await first.close();
    system.replicas.set('users', system.replicas.get('users')!.slice(1));
    for (let i = 0; i < 10; i++) {
      const me = await system.request('GET', '/me', { headers: bearer(acme.api_key) });
      expect(me.status).toBe(200);
    }
  });

  it('keeps clients, users and credentials when everything restarts', async () => {
    const acme = await system.createClient('Durable Travel');
    const user = await system.request('POST', '/api/user', {
      headers: { authorization: acme.backend_token },
      json: { firstName: 'Ada', lastName: 'Lovelace', email: 'ada@example.com', phone: '1', clientAccountLimit: 10 },
    });
    expect(user.status).toBe(201);

    await system.stopAll();
    for (const name of ['users', 'search', 'rates', 'booking', 'promo', 'accounting', 'webhooks'] as const) await system.startReplica(name);
    await system.startGateway();

    const me = await system.request('GET', '/me', { headers: bearer(acme.api_key) });
    expect(me.body.data.client_id).toBe(acme.client_id);
    const again = await system.request('GET', `/api/user/${user.body.data.id}`, { headers: { authorization: acme.backend_token } });
    expect(again.body.data).toEqual(user.body.data);
    const listed = await system.admin('list-clients');
    expect(listed.json.clients.map((client: { name: string }) => client.name)).toContain('Durable Travel');
  });
});
