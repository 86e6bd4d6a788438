import { createHmac, randomUUID } from 'node:crypto';
import { Actor } from '@hotel/contracts';
import { AppMetrics, BackgroundJobs, SERVICE_ENV } from '@hotel/platform';
import { ServiceHarness, WebhookReceiver, refusalOf, startServiceHarness } from '@hotel/testing';
import { WebhookEndpointsRepository } from '../endpoints/webhook-endpoints.repository';
import { WebhookEndpointsService } from '../endpoints/webhook-endpoints.service';
import { SecretBox } from '../endpoints/secret-box';
import { WebhookEndpointEntity } from '../endpoints/webhook-endpoint.entity';
import { WEBHOOKS_MIGRATIONS, WebhooksAppModule } from '../webhooks-app.module';
import { WebhooksEnv } from '../webhooks.env';
import { WebhooksFailPoints } from '../webhooks-fail-points';
import { BookingEventsConsumer } from './booking-events-consumer';
import { EndpointClients, SNAPSHOT_INTERVAL_MS } from '../endpoints/endpoint-clients';
import { TargetPolicy } from './target-policy';
import { WebhookDeliveriesRepository } from './webhook-deliveries.repository';
import { WebhookDeliveryEntity } from './webhook-delivery.entity';
import { WebhookDispatcher } from './webhook-dispatcher';
import { WebhookPoster } from './webhook-post';

// Service tier: the webhooks service's endpoints and dispatcher with their real repositories
// on a fresh PostgreSQL database, posting to a receiver over HTTP. (The booking events reach
// it from JetStream, which the system tests cover; here deliveries are written as its
// consumer writes them.)

const backend = (clientId: number): Actor => ({ clientId, userId: null, role: 'backend', sandbox: false });

/** Whether a Standard Webhooks signature header holds a valid signature of the request under the secret. */
function signedWith(secret: string, headers: Record<string, string | string[] | undefined>, body: string): boolean {
  const key = Buffer.from(secret.slice('whsec_'.length), 'base64');
  const expected = createHmac('sha256', key).update(`${headers['webhook-id']}.${headers['webhook-timestamp']}.${body}`).digest('base64');
  return String(headers['webhook-signature']).split(' ').includes(`v1,${expected}`);
}

describe('webhook endpoints and deliveries (service tier: real PostgreSQL, a receiver over HTTP)', () => {
  let harness: ServiceHarness<WebhooksEnv>;
  let receiver: WebhookReceiver;
  let endpoints: WebhookEndpointsService;
  let deliveries: WebhookDeliveriesRepository;

  beforeAll(async () => {
    receiver = await WebhookReceiver.start();
    harness = await startServiceHarness({
      name: 'webhooks',
      envClass: WebhooksEnv,
      env: { WEBHOOK_ALLOW_PRIVATE_TARGETS: '1', WEBHOOK_DISPATCH_INTERVAL_MS: '100', WEBHOOK_RETRY_SCHEDULE_S: '1,1,1', WEBHOOK_MAX_IN_FLIGHT_PER_CLIENT: '256', WEBHOOK_TIMEOUT_MS: '2000' },
      // Everything but the stream consumer (the fake bus has no JetStream).
      providers: (env) => (WebhooksAppModule.register(env).providers ?? []).filter((provider) => provider !== BookingEventsConsumer),
      entities: [WebhookEndpointEntity, WebhookDeliveryEntity],
      migrations: WEBHOOKS_MIGRATIONS,
    });
    endpoints = harness.get(WebhookEndpointsService);
    deliveries = harness.get(WebhookDeliveriesRepository);
  });

  afterAll(async () => {
    await harness?.close();
    await receiver?.close();
  });

  it("shows an endpoint's signing secret once, keeps it sealed, and keeps the endpoint to its client", async () => {
    const created = await endpoints.create({ actor: backend(1), endpoint: { url: `${receiver.url}/one`, description: 'ours' } });
    expect(created.secret).toMatch(/^whsec_[A-Za-z0-9+/]{43}=$/);
    const stored = JSON.stringify(await harness.dataSource.query(`SELECT * FROM webhooks.endpoints WHERE id = $1`, [created.id]));
    expect(stored).not.toContain(created.secret.slice('whsec_'.length));
    const { secret: _shownOnce, ...view } = created;
    expect(await endpoints.get({ actor: backend(1), endpointId: created.id })).toEqual(view);
    expect(JSON.stringify(await endpoints.list({ actor: backend(1) }))).not.toContain(created.secret);
    for (const call of [
      endpoints.get({ actor: backend(2), endpointId: created.id }),
      endpoints.update({ actor: backend(2), endpointId: created.id, changes: { description: 'theirs' } }),
      endpoints.delete({ actor: backend(2), endpointId: created.id }),
      endpoints.sendTest({ actor: backend(2), endpointId: created.id }),
    ]) {
      expect((await refusalOf(call))?.code).toBe('NOT_FOUND');
    }
    expect((await endpoints.get({ actor: backend(1), endpointId: created.id })).description).toBe('ours');
  });

  it('posts a test event signed with the endpoint secret, and logs the delivery', async () => {
    const { id, secret } = await endpoints.create({ actor: backend(3), endpoint: { url: `${receiver.url}/signed` } });
    const sent = await endpoints.sendTest({ actor: backend(3), endpointId: id });
    expect(sent.status).toBe('pending');
    const [request] = await receiver.waitFor('/signed', 1);
    expect(request.json).toEqual({ type: 'webhook.test', timestamp: expect.any(String), data: { endpoint_id: id } });
    expect(request.headers['webhook-id']).toBe(sent.eventId);
    expect(signedWith(secret, request.headers, request.body)).toBe(true);
    // Another secret (its first character changed, whatever it was) does not verify it.
    const other = `whsec_${secret[6] === 'A' ? 'B' : 'A'}${secret.slice(7)}`;
    expect(signedWith(other, request.headers, request.body)).toBe(false);
    const logged = await waitForDelivery(id, sent.eventId, (delivery) => delivery.status === 'delivered');
    expect(logged).toEqual(expect.objectContaining({ status: 'delivered', attempts: 1, lastStatusCode: 200, lastError: null }));
  });

  it('attempts a failed delivery again on the schedule, with the same webhook-id', async () => {
    const { id } = await endpoints.create({ actor: backend(4), endpoint: { url: `${receiver.url}/flaky` } });
    receiver.answerNext('/flaky', 503);
    const sent = await endpoints.sendTest({ actor: backend(4), endpointId: id });
    const attempts = await receiver.waitFor('/flaky', 2, { accept: () => true });
    expect(attempts.map((attempt) => [attempt.answered, attempt.headers['webhook-id']])).toEqual([
      [503, sent.eventId],
      [200, sent.eventId],
    ]);
    const logged = await waitForDelivery(id, sent.eventId, (delivery) => delivery.status === 'delivered');
    expect(logged).toEqual(expect.objectContaining({ attempts: 2, lastStatusCode: 200 }));
  });

  it('posts each due delivery once while three dispatchers (replicas) claim at the same time', async () => {
    const endpointIds: number[] = [];
    for (let i = 0; i < 3; i++) endpointIds.push((await endpoints.create({ actor: backend(10 + i), endpoint: { url: `${receiver.url}/race` } })).id);
    // Two more replicas beside the harness's own dispatcher, on the same database.
    const env = harness.get<WebhooksEnv>(SERVICE_ENV);
    const replicas = [0, 1].map(
      () =>
        new WebhookDispatcher(
          env,
          new BackgroundJobs('webhooks', `replica-${randomUUID()}`),
          deliveries,
          harness.get(WebhookEndpointsRepository),
          harness.get(SecretBox),
          new WebhookPoster(TargetPolicy.of(env), env.WEBHOOK_TIMEOUT_MS),
          new WebhooksFailPoints(),
          new AppMetrics('webhooks'),
        ),
    );
    const events = Array.from({ length: 60 }, (_, i) => ({ id: randomUUID(), type: 'webhook.test' as const, clientId: 10 + (i % 3), bookingId: null, sequence: null, payload: JSON.stringify({ n: i }) }));
    await Promise.all(events.map((event) => deliveries.add(event, [endpointIds[event.clientId - 10]])));
    await Promise.all([...replicas.map((replica) => replica.drain()), harness.get(WebhookDispatcher).drain()]);
    const arrived = await receiver.waitFor('/race', events.length);
    await new Promise((resolve) => setTimeout(resolve, 500));
    const ids = receiver.at('/race').map((request) => request.headers['webhook-id']);
    expect(ids.length).toBe(events.length);
    expect(new Set(ids)).toEqual(new Set(events.map((event) => event.id)));
    expect(arrived.length).toBe(events.length);
    const rows = await harness.dataSource.query(`SELECT status, attempts, count(*)::int AS n FROM webhooks.deliveries WHERE endpoint_id = ANY($1) GROUP BY 1, 2`, [endpointIds]);
    expect(rows).toEqual([{ status: 'delivered', attempts: 1, n: events.length }]);
    for (const replica of replicas) await replica.onModuleDestroy();
  });

  /** The endpoint's delivery of an event once `done` says so (the dispatcher records after the post). */
  async function waitForDelivery(endpointId: number, eventId: string, done: (delivery: { status: string }) => boolean) {
    for (let attempt = 0; attempt < 100; attempt++) {
      const delivery = await deliveries.findByEvent(endpointId, eventId);
      if (delivery && done(delivery)) return delivery;
      await new Promise((resolve) => setTimeout(resolve, 50));
    }
    throw new Error(`delivery of ${eventId} never done`);
  }

  it('skips the events of clients without an endpoint from one snapshot per interval, and owes an endpoint what happens after its creation', async () => {
    const repository = harness.get(WebhookEndpointsRepository);
    const snapshots = jest.spyOn(repository, 'clientsWithEndpoints');
    try {
      // A replica's own cache (not the one the other tests' consumer would share).
      const clients = new EndpointClients(repository);
      const [without, withEndpoint] = [9001, 9002];
      const past = new Date(Date.now() - 60_000);
      // A hundred events at once of a client without an endpoint: skipped, on one snapshot (taken after `before`).
      const before = Date.now();
      expect(new Set(await Promise.all(Array.from({ length: 100 }, () => clients.mayBeOwed(without, past))))).toEqual(new Set([false]));
      expect(snapshots).toHaveBeenCalledTimes(1);

      await endpoints.create({ actor: backend(withEndpoint), endpoint: { url: `${receiver.url}/snapshots` } });
      // An event of the client that happened after the endpoint was made: owed. It is newer than the
      // snapshot, so it waits for the next one, not sooner than the interval after the last: counted
      // from before the first (creating the endpoint takes a while on a loaded machine, as a CI run met).
      expect(await clients.mayBeOwed(withEndpoint, new Date())).toBe(true);
      expect(Date.now() - before).toBeGreaterThanOrEqual(SNAPSHOT_INTERVAL_MS - 100);
      expect(snapshots).toHaveBeenCalledTimes(2);
      // From that snapshot: the client is one with an endpoint (its endpoints are read), the other still is not.
      expect(await clients.mayBeOwed(withEndpoint, past)).toBe(true);
      expect(await clients.mayBeOwed(without, past)).toBe(false);
      expect(snapshots).toHaveBeenCalledTimes(2);
    } finally {
      snapshots.mockRestore();
    }
  });
});
