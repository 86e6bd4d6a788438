import { GUEST, prebookV1, queryTestDatabase, settledBooking, staySequence } from '@hotel/testing';
import { WorkerLiveness } from '../../booking/src/bookings/worker-liveness';
import { ClientKeys, TestSystem } from './system';

/** Each booking its own dates, so they never compete for one night's allotment. */
const freshStay = staySequence(30);

/**
 * A service stopped in the middle of a booking leaves the saga at its recorded
 * step; when the service is back, the recovery loop (on any booking replica,
 * also a freshly started one) finishes it, and money and bookings agree.
 */
describe('booking saga recovery', () => {
  let system: TestSystem, acme: ClientKeys, auth: { authorization: string };
  beforeAll(async () => {
    ({ system, acme, auth } = await TestSystem.startWithClient({ RPC_TIMEOUT_MS: '1500', SAGA_LEASE_S: '1', RECOVERY_INTERVAL_MS: '300' }));
    await system.admin('create-promo', '--code', 'FIVEOFF', '--amount', '5');
  });
  afterAll(() => system?.close());

  // The prebook's CheckRate goes to the vendors over HTTP: on a loaded machine it may outlast
  // this file's short call timeout (503 with Retry-After), and prebookV1 asks again, as a client does.
  async function prebooked(query?: string) {
    const { path, prebook } = await prebookV1(system, auth, freshStay(), { query });
    return { path, price: prebook.rate.price_chargeable as number };
  }

  const booking = async (reference: string) =>
    (await queryTestDatabase<{ id: number; status: string; step: string }>(system.database.url, 'SELECT id, status, step FROM booking.bookings WHERE client_reference = $1', [reference]))[0];
  const hold = async (bookingId: number) =>
    (await queryTestDatabase<{ status: string }>(system.database.url, 'SELECT status FROM accounting.holds WHERE booking_id = $1', [bookingId]))[0];

  const settled = async (reference: string) => settledBooking(system, (await booking(reference)).id);

  /**
   * Makes the supplier hang: the vendors answer a booking after 4 s, so the booking
   * service's call times out (and the supplier booking completes later, as a slow real
   * supplier's would); what it answers takes the slowness back for later bookings.
   */
  const hangSupplier = () => system.slowVendorBookings(4000);

  it('finishes a booking stopped between the hold and the supplier booking (supplier hangs)', async () => {
    const { path, price } = await prebooked();
    const release = await hangSupplier();
    const response = await system.request('POST', path, { headers: auth, json: { ...GUEST, client_reference: 'CRASH-1' } });
    // Answered within the call's timeout: the booking exists and is still under way.
    expect(response.status).toBe(201);
    expect(response.body.data).toMatchObject({ status: 'pending', client_reference: 'CRASH-1' });
    const stuck = await booking('CRASH-1');
    expect(stuck).toMatchObject({ status: 'pending', step: 'funds_held' });
    expect(await hold(stuck.id)).toEqual({ status: 'active' });

    await release();
    const done = await settled('CRASH-1');
    expect(done.status).toBe('confirmed');
    expect(await hold(done.id)).toEqual({ status: 'captured' });
    const entries = (await system.request('GET', `/api/accounting/booking/${done.id}`, { headers: { authorization: acme.backend_token } })).body.data;
    expect(entries).toEqual([expect.objectContaining({ debit: price, credit: 0 })]);
    // The client learns the outcome without resending.
    const found = await system.request('GET', '/book?client_reference=CRASH-1', { headers: auth });
    expect(found.body.data[0]).toMatchObject({ status: 'confirmed', client_reference: 'CRASH-1' });
  });

  it('finishes a booking stopped between the supplier booking and the capture (promo down)', async () => {
    const { path, price } = await prebooked('?promo_code=FIVEOFF');
    await system.stopService('promo');
    const response = await system.request('POST', path, { headers: auth, json: { ...GUEST, client_reference: 'CRASH-2' } });
    expect(response.status).toBe(201);
    expect(response.body.data.status).toBe('pending');
    expect(await booking('CRASH-2')).toMatchObject({ status: 'pending', step: 'supplier_booked' });

    await system.startReplica('promo');
    const done = await settled('CRASH-2');
    expect(done.status).toBe('confirmed');
    const [redemption] = await queryTestDatabase<{ n: number }>(system.database.url, `SELECT count(*)::int AS n FROM promo.redemptions WHERE booking_id = $1`, [done.id]);
    expect(redemption.n).toBe(1);
    const entries = (await system.request('GET', `/api/accounting/booking/${done.id}`, { headers: { authorization: acme.backend_token } })).body.data;
    expect(entries).toEqual([expect.objectContaining({ debit: price })]);
  });

  it('a booking service that crashed mid-saga finishes it when a replica comes back', async () => {
    const { path } = await prebooked();
    const release = await hangSupplier();
    expect((await system.request('POST', path, { headers: auth, json: { ...GUEST, client_reference: 'CRASH-3' } })).body.data.status).toBe('pending');
    await system.stopService('booking');
    await release();
    expect(await booking('CRASH-3')).toMatchObject({ status: 'pending', step: 'funds_held' });
    await system.startReplica('booking');
    expect((await settled('CRASH-3')).status).toBe('confirmed');
  });

  it('a book whose answer is lost with its booking replica answers 503 naming the recorded booking; repeating with the key answers that booking, booked once', async () => {
    const { path } = await prebooked();
    // A second booking replica, up before the request, as in production: the gateway asks it
    // which booking the lost answer recorded. (With the only replica stopped and started again,
    // the answer depended on the new one booting within the call's timeout: on a busy machine it did not.)
    await system.startReplica('booking');
    const release = await hangSupplier();
    const request = { ...GUEST, client_reference: 'LOST-1', idempotency_key: 'lost-answer-1' };
    const answer = system.request('POST', path, { headers: auth, json: request });
    // Recorded (and under way at the hanging supplier): the replica goes, and its answer with it.
    let recorded: { id: number } | undefined;
    for (let waited = 0; !recorded; waited += 25) {
      if (waited > 10_000) throw new Error('the booking was not recorded');
      await new Promise((resolve) => setTimeout(resolve, 25));
      recorded = await booking('LOST-1');
    }
    // The replica that took the request (it holds the saga's lease) goes, and its answer with it.
    const [{ holder }] = await queryTestDatabase<{ holder: string }>(system.database.url, 'SELECT lease_holder AS holder FROM booking.bookings WHERE id = $1', [recorded.id]);
    const replicas = system.replicas.get('booking')!;
    const holding = replicas.find((replica) => replica.app.get(WorkerLiveness).instance === holder);
    expect(holding).toBeDefined();
    await holding!.close();
    system.replicas.set('booking', replicas.filter((replica) => replica !== holding));
    const lost = await answer;
    expect({ status: lost.status, code: lost.body.code }).toEqual({ status: 503, code: 'SERVICE_UNAVAILABLE' });
    expect(Number(lost.headers['retry-after'])).toBeGreaterThan(0);
    expect(lost.body.message).toContain(`booking ${recorded.id} is recorded`);
    expect(lost.body.message).toContain('repeat this request with the same idempotency_key');

    await release();
    expect((await settled('LOST-1')).status).toBe('confirmed');
    const repeated = await system.request('POST', path, { headers: auth, json: request });
    expect(repeated.status).toBe(200);
    expect(repeated.body.data).toMatchObject({ id: recorded.id, status: 'confirmed' });
    const [{ n }] = await queryTestDatabase<{ n: number }>(system.database.url, `SELECT count(*)::int AS n FROM booking.bookings WHERE client_reference = 'LOST-1'`);
    expect(n).toBe(1);
  });

  it('leaves no hold without a booking and no debit without a confirmed booking', async () => {
    const [orphanHolds] = await queryTestDatabase<{ n: number }>(
      system.database.url,
      `SELECT count(*)::int AS n FROM accounting.holds h
        WHERE h.status = 'active' AND NOT EXISTS (SELECT 1 FROM booking.bookings b WHERE b.id = h.booking_id AND b.status = 'pending')`,
    );
    expect(orphanHolds.n).toBe(0);
    const [sums] = await queryTestDatabase<{ debits: string; confirmed: string }>(
      system.database.url,
      `SELECT (SELECT coalesce(sum(debit), 0) FROM accounting.entries WHERE client_id = $1 AND kind = 'booking_debit')::text AS debits,
              (SELECT coalesce(sum(price_chargeable), 0) FROM booking.bookings WHERE client_id = $1 AND status = 'confirmed' AND payment_method = 'account' AND NOT sandbox)::text AS confirmed`,
      [acme.client_id],
    );
    expect(sums.debits).toBe(sums.confirmed);
  });
});
