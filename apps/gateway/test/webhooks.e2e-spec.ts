import { Webhook } from 'standardwebhooks';
import { DataSource } from 'typeorm';
import { ReceivedWebhook, WebhookReceiver, bookV1, queryTestDatabase, sleep, staySequence, userToken } from '@hotel/testing';
import { FailPoints } from '../../booking/src/bookings/fail-points';
import { WebhookDeliveriesRepository } from '../../webhooks/src/deliveries/webhook-deliveries.repository';
import { WebhookDispatcher } from '../../webhooks/src/deliveries/webhook-dispatcher';
import { WebhookDeliveryEntity } from '../../webhooks/src/deliveries/webhook-delivery.entity';
import { WebhookEndpointEntity } from '../../webhooks/src/endpoints/webhook-endpoint.entity';
import { WebhooksFailPoints } from '../../webhooks/src/webhooks-fail-points';
import { ClientKeys, TestSystem } from './system';

const freshStay = staySequence(170);

/**
 * Signed webhooks end to end: a real local receiver, the booking service's events
 * through JetStream to the webhooks service, which persists and posts them, retries
 * on its (short, here) schedule, and survives being killed. The receiver is on
 * loopback, which only WEBHOOK_ALLOW_PRIVATE_TARGETS=1 (local testing) lets through.
 */
describe('webhooks', () => {
  let system: TestSystem, acme: ClientKeys, auth: { authorization: string }, backend: { authorization: string };
  let receiver: WebhookReceiver;

  beforeAll(async () => {
    ({ system, acme, auth } = await TestSystem.startWithClient({
      WEBHOOK_RETRY_SCHEDULE_S: '1,1,1',
      WEBHOOK_DISPATCH_INTERVAL_MS: '200',
      WEBHOOK_ACK_WAIT_S: '2',
      // Few attempt slots and a short timeout, for the fairness test.
      WEBHOOK_CONCURRENCY: '6',
      WEBHOOK_TIMEOUT_MS: '4000',
      EVENTS_RELAY_INTERVAL_MS: '200',
      WEBHOOK_ALLOW_PRIVATE_TARGETS: '1',
    }));
    backend = { authorization: acme.backend_token };
    receiver = await WebhookReceiver.start();
  });
  afterAll(async () => {
    await receiver?.close();
    await system?.close();
  });

  const sql = <T = any>(text: string, params: unknown[] = []) => queryTestDatabase<T>(system.database.url, text, params);

  /** A new endpoint posting to the receiver at `path`; its id and secret. */
  async function endpoint(path: string, body: Record<string, unknown> = {}, headers = backend): Promise<{ id: number; secret: string }> {
    const response = await system.request('POST', '/api/webhook', { headers, json: { url: receiver.url + path, ...body } });
    expect(response.status).toBe(201);
    return response.body.data;
  }

  /** The webhook is signed with `secret` (the standardwebhooks package verifies it) and carries its id and timestamp. */
  function expectSigned(request: ReceivedWebhook, secret: string) {
    expect(request.headers['content-type']).toBe('application/json');
    const headers = { 'webhook-id': String(request.headers['webhook-id']), 'webhook-timestamp': String(request.headers['webhook-timestamp']), 'webhook-signature': String(request.headers['webhook-signature']) };
    expect(new Webhook(secret).verify(request.body, headers)).toEqual(request.json);
    expect(() => new Webhook(Buffer.from('another secret of 32 bytes......').toString('base64')).verify(request.body, headers)).toThrow();
  }

  const bookingEvents = (path: string, bookingId: number) => receiver.at(path).filter((request) => request.json?.data?.id === bookingId && request.answered < 300);

  describe('endpoints', () => {
    it('create answers 201 with the secret once; get, list and update never show it', async () => {
      const created = await system.request('POST', '/api/webhook', { headers: backend, json: { url: `${receiver.url}/crud`, description: 'Ops channel' } });
      expect(created.status).toBe(201);
      expect(created.body.data).toEqual({
        id: expect.any(Number),
        url: `${receiver.url}/crud`,
        events: ['booking.created', 'booking.confirmed', 'booking.failed', 'booking.cancelled'],
        description: 'Ops channel',
        enabled: true,
        disabledReason: null,
        createdAt: expect.any(String),
        updatedAt: expect.any(String),
        secret: expect.stringMatching(/^whsec_[A-Za-z0-9+/]{43}=$/),
      });
      const { id } = created.body.data;
      const got = await system.request('GET', `/api/webhook/${id}`, { headers: backend });
      expect(got.status).toBe(200);
      expect(got.body.data).not.toHaveProperty('secret');
      const list = await system.request('GET', '/api/webhook', { headers: backend });
      expect(list.body.data.map((item: any) => item.id)).toContain(id);
      expect(JSON.stringify(list.body)).not.toContain('whsec_');
      const updated = await system.request('PUT', `/api/webhook/${id}`, { headers: backend, json: { events: ['booking.cancelled'], description: null, enabled: false } });
      expect(updated.status).toBe(200);
      expect(updated.body.data).toMatchObject({ id, events: ['booking.cancelled'], description: null, enabled: false });
      expect(updated.body.data).not.toHaveProperty('secret');
      // The stored secret is sealed, not the one shown.
      const [row] = await sql(`SELECT secret FROM webhooks.endpoints WHERE id = $1`, [id]);
      expect(row.secret).not.toContain(created.body.data.secret.slice(6));
      expect(row.secret).toMatch(/^v1:/);
      expect((await system.request('DELETE', `/api/webhook/${id}`, { headers: backend })).body.data).toEqual({ id, deleted: true });
      expect((await system.request('GET', `/api/webhook/${id}`, { headers: backend })).status).toBe(404);
    });

    it.each([
      ['no url', {}],
      ['a url that is not one', { url: 'not a url' }],
      ['an ftp url', { url: 'ftp://127.0.0.1/hook' }],
      ['a url with a password', { url: 'http://user:pass@127.0.0.1/hook' }],
      ['an unknown event type', { url: 'http://127.0.0.1/hook', events: ['booking.exploded'] }],
      ['an empty event list', { url: 'http://127.0.0.1/hook', events: [] }],
      ['a repeated event type', { url: 'http://127.0.0.1/hook', events: ['booking.created', 'booking.created'] }],
      ['an unknown field', { url: 'http://127.0.0.1/hook', secret: 'whsec_mine' }],
      ['a url of 2049 characters', { url: `http://127.0.0.1/${'a'.repeat(2032)}` }],
    ])('create with %s is 400', async (_what, body) => {
      const response = await system.request('POST', '/api/webhook', { headers: backend, json: body });
      expect(response.status).toBe(400);
      expect(response.body).toMatchObject({ data: null, success: false, message: expect.any(String) });
    });

    it('an update with nothing to change is 400; a bad id is 400', async () => {
      const { id } = await endpoint('/empty-update');
      expect((await system.request('PUT', `/api/webhook/${id}`, { headers: backend, json: {} })).status).toBe(400);
      expect((await system.request('PUT', `/api/webhook/${id}`, { headers: backend, json: { enabled: 'yes' } })).status).toBe(400);
      expect((await system.request('GET', '/api/webhook/abc', { headers: backend })).status).toBe(400);
      expect((await system.request('GET', `/api/webhook/${id}/deliveries?status=lost`, { headers: backend })).status).toBe(400);
      await system.request('DELETE', `/api/webhook/${id}`, { headers: backend });
    });

    it('a user token gets 403; another client gets 404 for the endpoints, deliveries and retries of this one', async () => {
      const { id } = await endpoint('/private');
      const test = await system.request('POST', `/api/webhook/${id}/test`, { headers: backend });
      expect(test.status).toBe(202);
      const { token } = await userToken(system, acme.backend_token);
      expect((await system.request('GET', '/api/webhook', { headers: { authorization: token } })).status).toBe(403);
      expect((await system.request('POST', '/api/webhook', { headers: { authorization: token }, json: { url: 'http://127.0.0.1/x' } })).status).toBe(403);

      const globex = { authorization: (await system.createClient('Globex', '1000')).backend_token };
      for (const [method, path] of [
        ['GET', `/api/webhook/${id}`],
        ['PUT', `/api/webhook/${id}`],
        ['DELETE', `/api/webhook/${id}`],
        ['POST', `/api/webhook/${id}/rotate-secret`],
        ['POST', `/api/webhook/${id}/test`],
        ['GET', `/api/webhook/${id}/deliveries`],
        ['POST', `/api/webhook/deliveries/${test.body.data.id}/retry`],
      ] as const) {
        const response = await system.request(method, path, { headers: globex, ...(method === 'PUT' && { json: { enabled: false } }) });
        expect([method, path, response.status]).toEqual([method, path, 404]);
      }
      expect((await system.request('GET', '/api/webhook', { headers: globex })).body.data).toEqual([]);
      expect((await system.request('GET', `/api/webhook/${id}`, { headers: backend })).body.data.enabled).toBe(true);
      await system.request('DELETE', `/api/webhook/${id}`, { headers: backend });
    });

    it('at most 10 endpoints per client, also when created at the same time', async () => {
      const before = (await system.request('GET', '/api/webhook', { headers: backend })).body.data.length;
      const answers = await Promise.all(Array.from({ length: 14 }, (_, index) => system.request('POST', '/api/webhook', { headers: backend, json: { url: `${receiver.url}/many-${index}` } })));
      const created = answers.filter((answer) => answer.status === 201);
      expect(created).toHaveLength(10 - before);
      expect(answers.filter((answer) => answer.status === 409)).toHaveLength(14 - (10 - before));
      for (const answer of created) await system.request('DELETE', `/api/webhook/${answer.body.data.id}`, { headers: backend });
    });
  });

  describe('delivery', () => {
    it('a booking’s events arrive signed and verifiable, in order, with the Booking as GET /book answers it', async () => {
      const { id, secret } = await endpoint('/events');
      const booking = await bookV1(system, auth, freshStay(), { body: { client_reference: 'HOOK-1' } });
      await system.request('POST', `/book/cancel/${booking.id}`, { headers: auth });
      await receiver.waitFor('/events', 3, { accept: (request) => request.json?.data?.id === booking.id });
      const events = bookingEvents('/events', booking.id);
      expect(events.map((request) => [request.json.type, request.json.sequence])).toEqual([
        ['booking.created', 1],
        ['booking.confirmed', 2],
        ['booking.cancelled', 3],
      ]);
      for (const request of events) expectSigned(request, secret);
      expect(new Set(events.map((request) => request.headers['webhook-id'])).size).toBe(3);
      const [now] = (await system.request('GET', `/book?id=${booking.id}`, { headers: auth })).body.data;
      expect(events[2].json).toEqual({ type: 'booking.cancelled', timestamp: now.updated_at, sequence: 3, data: { ...now, voucher_url: null } });
      // The cancelled booking says what its cancellation was; the confirmed one before it did not.
      expect(now).toMatchObject({ status: 'cancelled', cancellation_reference: expect.stringMatching(/^CXL-/), cancelled_at: expect.any(String), price_cancellation_penalty: expect.any(Number) });
      expect(events[1].json.data).toMatchObject({ status: 'confirmed', cancellation_reference: null, cancelled_at: null, price_cancellation_penalty: null });
      expect(events[0].json.data).toMatchObject({ id: booking.id, status: 'pending', client_reference: 'HOOK-1', is_sandbox: false });

      // The delivery log, newest first, and filtered.
      const log = await system.request('GET', `/api/webhook/${id}/deliveries`, { headers: backend });
      expect(log.status).toBe(200);
      expect(log.body.total).toBe(3);
      expect(log.body.data.map((delivery: any) => delivery.eventType)).toEqual(['booking.cancelled', 'booking.confirmed', 'booking.created']);
      expect(log.body.data[0]).toEqual({
        id: expect.any(Number),
        endpointId: id,
        eventId: events[2].headers['webhook-id'],
        eventType: 'booking.cancelled',
        bookingId: booking.id,
        status: 'delivered',
        attempts: 1,
        lastStatusCode: 200,
        lastError: null,
        lastAttemptAt: expect.any(String),
        lastDurationMs: expect.any(Number),
        nextAttemptAt: null,
        deliveredAt: expect.any(String),
        createdAt: expect.any(String),
      });
      // The attempt began before the 2xx was recorded, and took no longer than from then.
      const [latest] = log.body.data;
      expect(Date.parse(latest.lastAttemptAt)).toBeLessThanOrEqual(Date.parse(latest.deliveredAt));
      expect(latest.lastDurationMs).toBeGreaterThanOrEqual(0);
      expect(latest.lastDurationMs).toBeLessThan(4000);
      const paged = await system.request('GET', `/api/webhook/${id}/deliveries?limit=1&page=2&status=delivered`, { headers: backend });
      expect(paged.body).toMatchObject({ total: 3, data: [{ eventType: 'booking.confirmed' }] });
      expect((await system.request('GET', `/api/webhook/${id}/deliveries?status=failed`, { headers: backend })).body.total).toBe(0);
      await system.request('DELETE', `/api/webhook/${id}`, { headers: backend });
    });

    it('an endpoint gets only the types it subscribes to; a sandbox booking sends events too', async () => {
      const { id } = await endpoint('/only-cancelled', { events: ['booking.cancelled'] });
      const booking = await bookV1(system, { authorization: `Bearer ${acme.sandbox_api_key}` }, freshStay());
      await system.request('POST', `/book/cancel/${booking.id}`, { headers: { authorization: `Bearer ${acme.sandbox_api_key}` } });
      const [cancelled] = await receiver.waitFor('/only-cancelled', 1);
      expect(cancelled.json).toMatchObject({ type: 'booking.cancelled', sequence: 3, data: { id: booking.id, is_sandbox: true } });
      await sleep(500);
      expect(receiver.at('/only-cancelled')).toHaveLength(1);
      await system.request('DELETE', `/api/webhook/${id}`, { headers: backend });
    });

    it('a receiver answering 500 twice gets the event on the third attempt, and the log shows each try', async () => {
      const { id, secret } = await endpoint('/flaky');
      receiver.answerNext('/flaky', 500, 500);
      const test = await system.request('POST', `/api/webhook/${id}/test`, { headers: backend });
      expect(test.body.data).toMatchObject({ eventType: 'webhook.test', status: 'pending', attempts: 0, bookingId: null, lastAttemptAt: null, lastDurationMs: null });
      const [delivered] = await receiver.waitFor('/flaky', 1);
      const tries = receiver.at('/flaky');
      expect(tries.map((request) => request.answered)).toEqual([500, 500, 200]);
      expect(new Set(tries.map((request) => request.headers['webhook-id']))).toEqual(new Set([test.body.data.eventId]));
      expect(delivered.json).toEqual({ type: 'webhook.test', timestamp: expect.any(String), data: { endpoint_id: id } });
      expectSigned(delivered, secret);
      await waitForDelivery(id, test.body.data.id, (delivery) => delivery.status === 'delivered');
      const [log] = (await system.request('GET', `/api/webhook/${id}/deliveries`, { headers: backend })).body.data;
      expect(log).toMatchObject({ status: 'delivered', attempts: 3, lastStatusCode: 200, lastError: null });
      // The attempts are counted on the service's metrics, by outcome.
      const metrics = await (await fetch(`${system.replicas.get('webhooks')![0].probeUrl}/metrics`)).text();
      expect(metrics).toMatch(/^hotel_webhook_deliveries_total\{outcome="failed",app="webhooks"\} [2-9]\d*$/m);
      expect(metrics).toMatch(/^hotel_webhook_deliveries_total\{outcome="delivered",app="webhooks"\} [1-9]\d*$/m);
      await system.request('DELETE', `/api/webhook/${id}`, { headers: backend });
    });

    it('a delivery out of attempts is failed, with the last status and its timing but nothing of the receiver\'s answer; a retry sends it again now', async () => {
      const { id } = await endpoint('/down');
      receiver.answerNext('/down', 503, 503, 503, 503);
      const test = (await system.request('POST', `/api/webhook/${id}/test`, { headers: backend })).body.data;
      const failed = await waitForDelivery(id, test.id, (delivery) => delivery.status === 'failed');
      expect(failed).toMatchObject({ attempts: 4, lastStatusCode: 503, lastError: 'HTTP 503', lastAttemptAt: expect.any(String), lastDurationMs: expect.any(Number), nextAttemptAt: null, deliveredAt: null });
      // The receiver answered each try with a body ("receiver says no"): the log keeps none of it.
      const log = await system.request('GET', `/api/webhook/${id}/deliveries`, { headers: backend });
      expect(JSON.stringify(log.body)).not.toContain('receiver says no');
      const [stored] = await sql(`SELECT last_error FROM webhooks.deliveries WHERE id = $1`, [test.id]);
      expect(stored.last_error).toBe('HTTP 503');
      const retry = await system.request('POST', `/api/webhook/deliveries/${test.id}/retry`, { headers: backend });
      expect(retry.status).toBe(202);
      expect(retry.body.data).toMatchObject({ id: test.id, status: 'pending' });
      await receiver.waitFor('/down', 1);
      expect(await waitForDelivery(id, test.id, (delivery) => delivery.status === 'delivered')).toMatchObject({ attempts: 5, lastStatusCode: 200 });
      await system.request('DELETE', `/api/webhook/${id}`, { headers: backend });
    });

    it('a pending delivery is not retried on demand, and one test event at a time per endpoint (409s)', async () => {
      const { id } = await endpoint('/one-at-a-time');
      receiver.answerNext('/one-at-a-time', 500, 500, 500, 500);
      const test = (await system.request('POST', `/api/webhook/${id}/test`, { headers: backend })).body.data;
      const again = await system.request('POST', `/api/webhook/${id}/test`, { headers: backend });
      expect(again.status).toBe(409);
      expect(again.body.message).toMatch(/still pending/);
      await waitForDelivery(id, test.id, (delivery) => delivery.attempts >= 1);
      const retry = await system.request('POST', `/api/webhook/deliveries/${test.id}/retry`, { headers: backend });
      expect(retry.status).toBe(409);
      expect(retry.body.message).toMatch(/pending already/);
      // Disabled by its owner: what waited fails now, saying why.
      await system.request('PUT', `/api/webhook/${id}`, { headers: backend, json: { enabled: false } });
      const failed = await waitForDelivery(id, test.id, (delivery) => delivery.status === 'failed');
      expect(failed.lastError).toBe('endpoint disabled by its owner');
      await system.request('DELETE', `/api/webhook/${id}`, { headers: backend });
    });

    it('one client’s silent receivers hold at most its share of the attempt slots: another client’s webhook goes out meanwhile', async () => {
      const { createServer } = await import('node:net');
      const silent = createServer(() => undefined); // accepts, never answers
      await new Promise<void>((resolve) => silent.listen(0, '127.0.0.1', resolve));
      const silentUrl = `http://127.0.0.1:${(silent.address() as import('node:net').AddressInfo).port}`;
      const globex = { authorization: (await system.createClient('Globex Silent', '1000')).backend_token };
      const hanging: { id: number; delivery: number }[] = [];
      let fair: number | undefined;
      try {
        for (let index = 0; index < 8; index++) {
          const created = await system.request('POST', '/api/webhook', { headers: globex, json: { url: `${silentUrl}/hang-${index}` } });
          const test = await system.request('POST', `/api/webhook/${created.body.data.id}/test`, { headers: globex });
          hanging.push({ id: created.body.data.id, delivery: test.body.data.id });
        }
        // Globex's 8 attempts would take all 6 slots for 4 s; it may have 4 in flight.
        await sleep(300);
        fair = (await endpoint('/fair')).id;
        await system.request('POST', `/api/webhook/${fair}/test`, { headers: backend });
        const [arrived] = await receiver.waitFor('/fair', 1, { timeoutMs: 3000 });
        // ... and it went out while Globex's attempts were all still hanging: each one that has ended (at its
        // 4 s timeout) ended after Acme's webhook arrived. (Asked by the times, not by a count taken later: on a
        // loaded machine the first of them may end between the arrival and the question, as a CI run met.)
        const ended = await sql(
          `SELECT id, (extract(epoch FROM last_attempt_at) * 1000 + coalesce(last_duration_ms, 0))::float8 AS "endedAt" FROM webhooks.deliveries WHERE id = ANY($1) AND attempts > 0`,
          [hanging.map((item) => item.delivery)],
        );
        expect(ended.filter((delivery) => delivery.endedAt < arrived.at)).toEqual([]);
      } finally {
        // Whatever happened: the endpoints go, so that later tests see none of them.
        if (fair !== undefined) await system.request('DELETE', `/api/webhook/${fair}`, { headers: backend });
        for (const item of hanging) await system.request('DELETE', `/api/webhook/${item.id}`, { headers: globex });
        silent.close();
      }
    });

    it('a receiver that does not answer is an error, not a delivery', async () => {
      const { id } = await endpoint('/nowhere');
      await system.request('PUT', `/api/webhook/${id}`, { headers: backend, json: { url: 'http://127.0.0.1:9/nowhere' } });
      const test = (await system.request('POST', `/api/webhook/${id}/test`, { headers: backend })).body.data;
      const tried = await waitForDelivery(id, test.id, (delivery) => delivery.attempts >= 1);
      expect(tried).toMatchObject({ lastStatusCode: null, lastError: expect.stringMatching(/ECONNREFUSED/) });
      await system.request('DELETE', `/api/webhook/${id}`, { headers: backend });
    });

    it('an endpoint failing for 5 days is disabled, and its pending deliveries say so; enabling it again clears that', async () => {
      const { id } = await endpoint('/failing');
      receiver.answerNext('/failing', 500, 500, 500, 500);
      const first = (await system.request('POST', `/api/webhook/${id}/test`, { headers: backend })).body.data;
      await waitForDelivery(id, first.id, (delivery) => delivery.attempts >= 1);
      // Its run of failures began 5 days ago (as if it had failed since).
      await sql(`UPDATE webhooks.endpoints SET failing_since = now() - interval '5 days 1 minute' WHERE id = $1`, [id]);
      const failed = await waitForDelivery(id, first.id, (delivery) => delivery.status === 'failed');
      expect(failed.lastError).toMatch(/endpoint disabled: every attempt failed for 5 days/);
      const disabled = (await system.request('GET', `/api/webhook/${id}`, { headers: backend })).body.data;
      expect(disabled).toMatchObject({ enabled: false, disabledReason: expect.stringMatching(/5 days/) });
      expect((await system.request('POST', `/api/webhook/${id}/test`, { headers: backend })).status).toBe(409);
      const enabled = await system.request('PUT', `/api/webhook/${id}`, { headers: backend, json: { enabled: true } });
      expect(enabled.body.data).toMatchObject({ enabled: true, disabledReason: null });
      await system.request('DELETE', `/api/webhook/${id}`, { headers: backend });
    });

    it('after rotate-secret both secrets verify for a while; the old one keeps working for the receiver', async () => {
      const { id, secret: old } = await endpoint('/rotated');
      const rotated = await system.request('POST', `/api/webhook/${id}/rotate-secret`, { headers: backend });
      expect(rotated.status).toBe(200);
      expect(rotated.body.data.secret).toMatch(/^whsec_/);
      expect(rotated.body.data.secret).not.toBe(old);
      await system.request('POST', `/api/webhook/${id}/test`, { headers: backend });
      const [request] = await receiver.waitFor('/rotated', 1);
      expect(String(request.headers['webhook-signature']).split(' ')).toHaveLength(2);
      expectSigned(request, rotated.body.data.secret);
      expectSigned(request, old);
      await system.request('DELETE', `/api/webhook/${id}`, { headers: backend });
    });

    it('deleting an endpoint stops its deliveries, pending retries too', async () => {
      const { id } = await endpoint('/deleted');
      receiver.answerNext('/deleted', 500);
      const test = (await system.request('POST', `/api/webhook/${id}/test`, { headers: backend })).body.data;
      await waitForDelivery(id, test.id, (delivery) => delivery.attempts === 1);
      expect((await system.request('DELETE', `/api/webhook/${id}`, { headers: backend })).status).toBe(200);
      await bookV1(system, auth, freshStay());
      await sleep(2500); // past the retry (1 s) and the booking's events
      expect(receiver.at('/deleted')).toHaveLength(1);
      expect(await sql(`SELECT id FROM webhooks.deliveries WHERE endpoint_id = $1`, [id])).toEqual([]);
    });
  });

  it('the delivery log keeps finished deliveries 30 days; pending ones stay whatever their age', async () => {
    const { id } = await endpoint('/pruned');
    await system.request('PUT', `/api/webhook/${id}`, { headers: backend, json: { enabled: false } });
    await sql(
      `INSERT INTO webhooks.deliveries (endpoint_id, client_id, event_id, event_type, payload, status, next_attempt_at, updated_at)
       VALUES ($1, $2, 'old-delivered', 'webhook.test', '{}', 'delivered', NULL, now() - interval '31 days'),
              ($1, $2, 'old-failed', 'webhook.test', '{}', 'failed', NULL, now() - interval '31 days'),
              ($1, $2, 'recent', 'webhook.test', '{}', 'delivered', NULL, now() - interval '29 days'),
              ($1, $2, 'old-pending', 'webhook.test', '{}', 'pending', now(), now() - interval '40 days')`,
      [id, acme.client_id],
    );
    expect(await system.replicas.get('webhooks')![0].app.get(WebhookDispatcher).prune()).toBe(2);
    const left = await sql(`SELECT event_id FROM webhooks.deliveries WHERE endpoint_id = $1 ORDER BY event_id`, [id]);
    expect(left.map((row) => row.event_id)).toEqual(['old-pending', 'recent']);
    await system.request('DELETE', `/api/webhook/${id}`, { headers: backend });
  });

  describe('crashes', () => {
    it('the webhooks service killed between receiving an event and delivering it delivers it after restart', async () => {
      const { secret } = await endpoint('/after-crash');
      const failPoints = system.replicas.get('webhooks')![0].app.get(WebhooksFailPoints);
      failPoints.arm('after-deliveries-persisted');
      const booking = await bookV1(system, auth, freshStay());
      // Persisted (the message not acknowledged), never attempted: the service is "dead".
      let persisted: any[] = [];
      for (let tries = 0; persisted.length === 0 && tries < 100; tries++) {
        persisted = await sql(`SELECT status, attempts FROM webhooks.deliveries WHERE booking_id = $1`, [booking.id]);
        await sleep(100);
      }
      expect(failPoints.crashed).toBe('after-deliveries-persisted');
      expect(persisted).toEqual([{ status: 'pending', attempts: 0 }]);
      await sleep(1000);
      expect(bookingEvents('/after-crash', booking.id)).toEqual([]);

      await system.stopService('webhooks');
      await system.startReplica('webhooks');
      await receiver.waitFor('/after-crash', 2, { accept: (request) => request.json?.data?.id === booking.id });
      const events = bookingEvents('/after-crash', booking.id);
      expect(events.map((request) => request.json.type)).toEqual(['booking.created', 'booking.confirmed']);
      for (const request of events) expectSigned(request, secret);
    });

    it('the webhooks service killed holding an event: a later event of the booking that overtakes it waits for it, and both come within seconds', async () => {
      const { secret } = await endpoint('/order-after-crash');
      const failPoints = system.replicas.get('webhooks')![0].app.get(WebhooksFailPoints);
      failPoints.arm('event-received');
      const booking = await bookV1(system, auth, freshStay());
      // The replica took booking.created and "died" with it: nothing written, nothing acknowledged.
      for (let tries = 0; failPoints.crashed === null && tries < 100; tries++) await sleep(50);
      expect(failPoints.crashed).toBe('event-received');
      expect(await sql(`SELECT 1 FROM webhooks.deliveries WHERE booking_id = $1`, [booking.id])).toEqual([]);

      // A new replica reads booking.confirmed at once; booking.created only once its acknowledgement is overdue.
      await system.stopService('webhooks');
      const restarted = Date.now();
      await system.startReplica('webhooks');
      await receiver.waitFor('/order-after-crash', 2, { accept: (request) => request.json?.data?.id === booking.id });
      const events = bookingEvents('/order-after-crash', booking.id);
      expect(events.map((request) => [request.json.type, request.json.sequence])).toEqual([
        ['booking.created', 1],
        ['booking.confirmed', 2],
      ]);
      for (const request of events) expectSigned(request, secret);
      // Within a few acknowledgement waits (2 s here), not half a minute.
      expect(Date.now() - restarted).toBeLessThan(15_000);
    });

    it('a booking’s later event is not sent before an earlier one is seen, unless that one is overdue', async () => {
      const { id } = await endpoint('/order-rule');
      // The rule itself, on the service's database with no replica claiming meanwhile.
      await system.stopService('webhooks');
      const dataSource = await new DataSource({ type: 'postgres', url: system.database.url, entities: [WebhookDeliveryEntity, WebhookEndpointEntity] }).initialize();
      try {
        const deliveries = new WebhookDeliveriesRepository(dataSource);
        const bookingId = 900_000_001;
        const event = (sequence: number) => ({ id: `order-rule-${sequence}`, type: 'booking.confirmed' as const, clientId: acme.client_id, bookingId, sequence, payload: '{}' });
        const claim = async (gapWaitMs = 60_000) => (await deliveries.claimDue(10, 60_000, 10, gapWaitMs)).map((delivery) => delivery.eventId).filter((eventId) => eventId.startsWith('order-rule-'));
        // Sequence 2 comes first (1 is still on its way): written, and held back.
        await deliveries.add(event(2), [id]);
        expect(await claim()).toEqual([]);
        // Once 1 is seen (whether this endpoint takes it or not), 2 goes.
        await deliveries.add(event(1), []);
        expect(await claim()).toEqual(['order-rule-2']);
        await sql(`UPDATE webhooks.deliveries SET status = 'delivered', next_attempt_at = NULL WHERE event_id = 'order-rule-2'`);
        // A gap never filled (3 lost) holds 4 back only as long as the gap wait.
        await deliveries.add(event(4), [id]);
        expect(await claim()).toEqual([]);
        await sleep(50);
        expect(await claim(10)).toEqual(['order-rule-4']);
        await sql(`DELETE FROM webhooks.deliveries WHERE booking_id = $1`, [bookingId]);
      } finally {
        await dataSource.destroy();
        await system.startReplica('webhooks');
      }
      await system.request('DELETE', `/api/webhook/${id}`, { headers: backend });
    });

    it('the booking service killed after committing a status change still publishes its event, which is delivered', async () => {
      const { id } = await endpoint('/booking-crash');
      const failPoints = system.replicas.get('booking')![0].app.get(FailPoints);
      failPoints.arm('after-status-commit');
      const booking = await bookV1(system, auth, freshStay());
      expect(failPoints.isArmed('after-status-commit')).toBe(false);
      await sleep(1000);
      expect(bookingEvents('/booking-crash', booking.id)).toEqual([]);
      await system.stopService('booking');
      await system.startReplica('booking');
      await receiver.waitFor('/booking-crash', 2, { accept: (request) => request.json?.data?.id === booking.id });
      expect(bookingEvents('/booking-crash', booking.id).map((request) => request.json.type)).toEqual(['booking.created', 'booking.confirmed']);
      await system.request('DELETE', `/api/webhook/${id}`, { headers: backend });
    });
  });

  describe('targets', () => {
    it('without WEBHOOK_ALLOW_PRIVATE_TARGETS the production policy holds: https to public addresses only, at registration and at every attempt', async () => {
      const registered = await endpoint('/registered-while-allowed');
      await system.stopService('webhooks');
      await system.startReplica('webhooks', { WEBHOOK_ALLOW_PRIVATE_TARGETS: '' });
      try {
        const create = (url: string) => system.request('POST', '/api/webhook', { headers: backend, json: { url } });
        for (const url of [
          'https://127.0.0.1/hook',
          'https://localhost/hook',
          'https://10.0.0.7/hook',
          'https://172.16.5.4/hook',
          'https://192.168.1.20/hook',
          'https://169.254.169.254/latest/meta-data',
          'https://[::1]/hook',
          'https://[fe80::1]/hook',
          'https://[fd00:ec2::254]/latest',
        ]) {
          const refused = await create(url);
          expect([url, refused.status, refused.body.message]).toEqual([url, 400, expect.stringMatching(/url must point to a public address/)]);
        }
        const plain = await create(`${receiver.url}/plain`);
        expect([plain.status, plain.body.message]).toEqual([400, expect.stringMatching(/url must be an https URL/)]);
        const changed = await system.request('PUT', `/api/webhook/${registered.id}`, { headers: backend, json: { url: 'https://10.1.2.3/hook' } });
        expect(changed.status).toBe(400);
        const publicTarget = await create('https://hooks.example.com/hook');
        expect(publicTarget.status).toBe(201);
        await system.request('DELETE', `/api/webhook/${publicTarget.body.data.id}`, { headers: backend });

        // An endpoint registered while private targets were allowed gets nothing once they are not.
        const test = (await system.request('POST', `/api/webhook/${registered.id}/test`, { headers: backend })).body.data;
        const tried = await waitForDelivery(registered.id, test.id, (delivery) => delivery.attempts >= 1);
        expect(tried).toMatchObject({ lastStatusCode: null, lastError: 'url must be an https URL', lastDurationMs: null, lastAttemptAt: expect.any(String) });
        expect(receiver.at('/registered-while-allowed')).toEqual([]);
      } finally {
        await system.request('DELETE', `/api/webhook/${registered.id}`, { headers: backend });
        await system.stopService('webhooks');
        await system.startReplica('webhooks');
      }
    });
  });

  describe('replicas', () => {
    it('two replicas share the stream and the deliveries: every event once, each booking in order', async () => {
      await system.startReplica('webhooks');
      expect(system.replicas.get('webhooks')).toHaveLength(2);
      const { id } = await endpoint('/replicas');
      const bookings = await Promise.all(Array.from({ length: 4 }, (_, index) => bookV1(system, auth, freshStay(), { hotelIndex: index })));
      for (const booking of bookings) {
        await receiver.waitFor('/replicas', 2, { accept: (request) => request.json?.data?.id === booking.id });
      }
      await sleep(1000);
      for (const booking of bookings) {
        expect(bookingEvents('/replicas', booking.id).map((request) => request.json.sequence)).toEqual([1, 2]);
      }
      expect(receiver.at('/replicas')).toHaveLength(8);
      await system.request('DELETE', `/api/webhook/${id}`, { headers: backend });
    });
  });

  /** Polls the delivery log until the delivery satisfies `done`. */
  async function waitForDelivery(endpointId: number, deliveryId: number, done: (delivery: any) => boolean, timeoutMs = 20_000): Promise<any> {
    const deadline = Date.now() + timeoutMs;
    for (;;) {
      const log = await system.request('GET', `/api/webhook/${endpointId}/deliveries?limit=100`, { headers: backend });
      const delivery = log.body.data?.find((item: any) => item.id === deliveryId);
      if (delivery && done(delivery)) return delivery;
      if (Date.now() > deadline) throw new Error(`delivery ${deliveryId}: ${JSON.stringify(delivery)}`);
      await sleep(100);
    }
  }
});
