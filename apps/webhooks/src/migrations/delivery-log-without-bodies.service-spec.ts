import { DataSource } from 'typeorm';
import { openServiceDataSource, serviceDataSourceOptions } from '@hotel/platform';
import { TestDatabase, createTestDatabase, queryTestDatabase } from '@hotel/testing';
import { CreateWebhooks1764600000000 } from './1764600000000-create-webhooks';
import { DeliveryLogWithoutBodies1765500000000 } from './1765500000000-delivery-log-without-bodies';

/**
 * The migration that takes receivers' bodies out of the delivery log, run as a service
 * runs it at start over a log written before it: each row keeps everything but the body
 * after its status.
 */
describe('migration delivery-log-without-bodies', () => {
  let database: TestDatabase;
  const sql = <T = any>(text: string, params: unknown[] = []) => queryTestDatabase<T>(database.url, text, params);

  async function migrate(migrations: (typeof CreateWebhooks1764600000000 | typeof DeliveryLogWithoutBodies1765500000000)[]) {
    const dataSource = new DataSource(serviceDataSourceOptions({ schema: 'webhooks', url: database.url, poolSize: 2, entities: [], migrations }));
    await openServiceDataSource(dataSource, 'webhooks');
    await dataSource.destroy();
  }

  beforeAll(async () => {
    database = await createTestDatabase();
    await migrate([CreateWebhooks1764600000000]);
  });
  afterAll(() => database?.drop());

  it('clears the bodies of old rows, keeps their status and everything else, and adds the attempt timing', async () => {
    const [{ id: endpointId }] = await sql(`INSERT INTO webhooks.endpoints (client_id, url, events, secret) VALUES (7, 'https://hooks.example.com/x', '{booking.created}', 'v1:a:b:c') RETURNING id`);
    const errors = [
      'HTTP 503: receiver says no',
      `HTTP 500: ${'internal admin console, version 1.2.3 '.repeat(6).slice(0, 200)}`,
      'HTTP 404: ',
      'HTTP 302',
      'connect ECONNREFUSED 203.0.113.7:443',
      'no answer within 10000 ms',
      'endpoint disabled by its owner',
      null,
    ];
    for (const [index, error] of errors.entries()) {
      await sql(
        `INSERT INTO webhooks.deliveries (endpoint_id, client_id, event_id, event_type, payload, status, attempts, last_status_code, last_error, updated_at)
         VALUES ($1, 7, $2, 'webhook.test', '{"n":' || $3 || '}', 'failed', 3, $4, $5, now() - interval '10 days')`,
        [endpointId, `event-${index}`, index, /^HTTP (\d+)/.exec(error ?? '')?.[1] ?? null, error],
      );
    }
    const before = await sql(`SELECT id, event_id, payload, status, attempts, last_status_code, updated_at FROM webhooks.deliveries ORDER BY id`);

    await migrate([CreateWebhooks1764600000000, DeliveryLogWithoutBodies1765500000000]);

    const after = await sql(`SELECT id, event_id, payload, status, attempts, last_status_code, updated_at, last_error, last_attempt_at, last_duration_ms FROM webhooks.deliveries ORDER BY id`);
    expect(after.map((row) => row.last_error)).toEqual(['HTTP 503', 'HTTP 500', 'HTTP 404', 'HTTP 302', 'connect ECONNREFUSED 203.0.113.7:443', 'no answer within 10000 ms', 'endpoint disabled by its owner', null]);
    // Nothing else changed: not even updated_at, so the rows leave the log when they would have.
    expect(after.map(({ last_error: _error, last_attempt_at: _at, last_duration_ms: _ms, ...rest }) => rest)).toEqual(before);
    expect(after.every((row) => row.last_attempt_at === null && row.last_duration_ms === null)).toBe(true);
    const [migrations] = await sql(`SELECT count(*)::int AS count FROM webhooks.migrations WHERE name = 'DeliveryLogWithoutBodies1765500000000'`);
    expect(migrations.count).toBe(1);
  });
});
