import { CARD, GUEST, prebookV1, queryTestDatabase, staySequence } from '@hotel/testing';
import { FailPoints } from '../../booking/src/bookings/fail-points';
import { TestSystem } from './system';

const freshStay = staySequence(150);

/**
 * A saga whose worker is gone is taken over without waiting for its lease: each booking
 * replica says it is alive (booking.workers), and a lease held by one that no longer is may
 * be taken at once. The lease here is long (60 s): every takeover below happens well within it.
 */
describe('a saga whose worker is gone', () => {
  let system: TestSystem, auth: { authorization: string };
  beforeAll(async () => ({ system, auth } = await TestSystem.startWithClient({ SAGA_LEASE_S: '60', RECOVERY_INTERVAL_MS: '300', WORKER_HEARTBEAT_MS: '200' })));
  afterAll(() => system?.close());

  const sql = <T = any>(text: string, params: unknown[] = []) => queryTestDatabase<T>(system.database.url, text, params);
  const failPoints = () => system.replicas.get('booking')![0].app.get(FailPoints);

  it("is taken over by the client's repeat of a card booking, which alone can charge the card: confirmed, charged once, long before the lease runs out", async () => {
    const { path, prebook } = await prebookV1(system, auth, freshStay(), { method: 'credit_card' });
    const request = { ...GUEST, ...CARD, idempotency_key: `takeover-${prebook.prebook_id}` };
    // The worker "dies" after recording the payment's key, before charging: its lease stays held.
    failPoints().arm('before-charge');
    const first = await system.request('POST', path, { headers: auth, json: request });
    expect(first.status).toBe(201);
    expect(first.body.data.status).toBe('pending');
    const id = first.body.data.id;
    const [held] = await sql(`SELECT step, lease_holder, lease_until > now() + interval '30 seconds' AS long_lease FROM booking.bookings WHERE id = $1`, [id]);
    expect(held).toMatchObject({ step: 'charging', long_lease: true });
    expect(held.lease_holder).toEqual(expect.any(String));

    // Its replica goes (and with it its sign of life); another comes.
    await system.stopService('booking');
    expect(await sql(`SELECT 1 FROM booking.workers WHERE instance = $1`, [held.lease_holder])).toEqual([]);
    await system.startReplica('booking');

    // The client repeats with the same key and card: that request takes the saga over and charges.
    const started = Date.now();
    const repeated = await system.request('POST', path, { headers: auth, json: request });
    expect({ status: repeated.status, body: repeated.body }).toMatchObject({ status: 200 });
    expect(repeated.body.data).toMatchObject({ id, status: 'confirmed' });
    expect(Date.now() - started).toBeLessThan(30_000);
    const charges = await sql(`SELECT amount FROM booking.sandbox_card_charges WHERE payment_key = $1 AND payment_id IS NOT NULL`, [`booking-${id}-charge`]);
    expect(charges).toHaveLength(1);
  });

  it('is taken over by the recovery loop once its holder misses its beats (a process killed leaves its row behind)', async () => {
    const { path, prebook } = await prebookV1(system, auth, freshStay(), { method: 'account' });
    failPoints().arm('after-supplier-book');
    const first = await system.request('POST', path, { headers: auth, json: { ...GUEST, idempotency_key: `recovered-${prebook.prebook_id}` } });
    expect(first.body.data.status).toBe('pending');
    const id = first.body.data.id;
    const [held] = await sql(`SELECT lease_holder FROM booking.workers w JOIN booking.bookings b ON b.lease_holder = w.instance WHERE b.id = $1`, [id]);
    expect(held.lease_holder).toEqual(expect.any(String));
    // As a killed process would: no more beats, its row left behind (alive for one more second). A new replica recovers.
    await system.stopService('booking');
    await sql(`INSERT INTO booking.workers (instance, alive_until) VALUES ($1, now() + interval '1 second')`, [held.lease_holder]);
    await system.startReplica('booking');
    const deadline = Date.now() + 30_000;
    let status = 'pending';
    while (status === 'pending' && Date.now() < deadline) {
      await new Promise((resolve) => setTimeout(resolve, 200));
      [{ status }] = await sql<{ status: string }>(`SELECT status FROM booking.bookings WHERE id = $1`, [id]);
    }
    expect(status).toBe('confirmed');
    // Within the lease it would otherwise have waited out.
    const [{ early }] = await sql<{ early: boolean }>(`SELECT updated_at < created_at + interval '45 seconds' AS early FROM booking.bookings WHERE id = $1`, [id]);
    expect(early).toBe(true);
  });
});
