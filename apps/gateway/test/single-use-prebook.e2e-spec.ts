import { CARD, GUEST, prebookV1, prebookV2, queryTestDatabase, repeatWhileUnavailable, staySequence } from '@hotel/testing';
import { ClientKeys, TestSystem } from './system';

const freshStay = staySequence(60);

/**
 * A prebook backs at most one booking that has not failed; one idempotency key
 * makes one booking whatever the interleaving; a free booking moves no money.
 */
describe('single-use prebooks and idempotent books', () => {
  let system: TestSystem, acme: ClientKeys, auth: { authorization: string };
  beforeAll(async () => {
    ({ system, acme, auth } = await TestSystem.startWithClient());
    await system.admin('create-promo', '--code', 'FREESTAY', '--percent', '100');
  });
  afterAll(() => system?.close());

  const sql = <T = any>(text: string, params: unknown[] = []) => queryTestDatabase<T>(system.database.url, text, params);
  const backend = () => ({ authorization: acme.backend_token });

  it('booking a prebook again answers 409 PREBOOK_ALREADY_BOOKED naming the booking; the same key replays', async () => {
    const { path } = await prebookV1(system, auth, freshStay());
    const first = await system.request('POST', path, { headers: auth, json: { ...GUEST, idempotency_key: 'single-1' } });
    expect(first.status).toBe(201);
    const id = first.body.data.id;
    for (const body of [GUEST, { ...GUEST, idempotency_key: 'single-1-other' }, { ...GUEST, client_reference: 'SINGLE-REF' }]) {
      const again = await system.request('POST', path, { headers: auth, json: body });
      expect(again.status).toBe(409);
      expect(again.body).toMatchObject({ success: false, code: 'PREBOOK_ALREADY_BOOKED', message: expect.stringContaining(`booking ${id}`) });
    }
    const replay = await system.request('POST', path, { headers: auth, json: { ...GUEST, idempotency_key: 'single-1' } });
    expect(replay.status).toBe(200);
    expect(replay.body.data.id).toBe(id);
    expect((await sql(`SELECT count(*)::int AS n FROM booking.bookings WHERE client_id = $1 AND status <> 'failed'`, [acme.client_id]))[0].n).toBe(1);
  });

  it('20 concurrent books of one prebook with different keys make exactly one booking, one debit', async () => {
    const { path, prebook } = await prebookV1(system, auth, freshStay());
    const responses = await Promise.all(
      Array.from({ length: 20 }, (_, i) => system.request('POST', path, { headers: auth, json: { ...GUEST, idempotency_key: `race-${i}` } })),
    );
    const created = responses.filter((response) => response.status === 201);
    expect(created).toHaveLength(1);
    const id = created[0].body.data.id;
    for (const response of responses.filter((response) => response.status !== 201)) {
      expect(response.status).toBe(409);
      expect(response.body.code).toBe('PREBOOK_ALREADY_BOOKED');
      expect(response.body.message).toContain(`booking ${id}`);
    }
    const bookings = await sql(`SELECT id FROM booking.bookings WHERE prebook_id = $1`, [prebook.prebook_id]);
    expect(bookings).toEqual([{ id }]);
    const entries = (await system.request('GET', `/api/accounting/booking/${id}`, { headers: backend() })).body.data;
    expect(entries).toEqual([expect.objectContaining({ debit: prebook.rate.price_chargeable, credit: 0 })]);
  });

  it('V2: a prebook_id books once', async () => {
    const { prebook } = await prebookV2(system, auth, freshStay());
    const body = { ...GUEST, prebook_id: prebook.prebook_id };
    const responses = await Promise.all(Array.from({ length: 10 }, () => system.request('POST', '/v2/book', { headers: auth, json: body })));
    expect(responses.filter((response) => response.status === 201)).toHaveLength(1);
    expect(responses.filter((response) => response.status === 409 && response.body.code === 'PREBOOK_ALREADY_BOOKED')).toHaveLength(9);
  });

  it('a failed booking frees its prebook for another attempt', async () => {
    const { path, prebook } = await prebookV1(system, auth, freshStay(), { method: 'credit_card' });
    const declined = await system.request('POST', path, { headers: auth, json: { ...GUEST, ...CARD, payment_token: 'tok_declined' } });
    expect(declined.status).toBe(400);
    expect(declined.body.code).toBe('PAYMENT_DECLINED');
    const retried = await system.request('POST', path, { headers: auth, json: { ...GUEST, ...CARD } });
    expect(retried.status).toBe(201);
    expect(retried.body.data.status).toBe('confirmed');
    const rows = await sql(`SELECT status FROM booking.bookings WHERE prebook_id = $1 ORDER BY id`, [prebook.prebook_id]);
    expect(rows).toEqual([{ status: 'failed' }, { status: 'confirmed' }]);
  });

  it('concurrent identical books (one idempotency_key and client_reference) all get the one booking, never 400', async () => {
    for (let batch = 0; batch < 3; batch++) {
      const { path } = await prebookV1(system, auth, freshStay());
      const body = { ...GUEST, idempotency_key: `same-${batch}`, client_reference: `SAME-${batch}` };
      // A waiting repeat may be answered 503 with Retry-After on a loaded machine: the client repeats it.
      const responses = await Promise.all(Array.from({ length: 10 }, () => repeatWhileUnavailable(() => system.request('POST', path, { headers: auth, json: body }))));
      expect(responses.map((response) => response.status).sort()).toEqual([200, 200, 200, 200, 200, 200, 200, 200, 200, 201]);
      expect(new Set(responses.map((response) => response.body.data.id)).size).toBe(1);
      expect((await sql(`SELECT count(*)::int AS n FROM booking.bookings WHERE client_reference = $1`, [`SAME-${batch}`]))[0].n).toBe(1);
    }
  });

  it('a 100 %-off account booking confirms with no hold and no debit', async () => {
    const before = (await system.request('GET', '/api/accounting/balance', { headers: backend() })).body.data;
    const { path, prebook } = await prebookV1(system, auth, freshStay(), { query: '?promo_code=FREESTAY' });
    expect(prebook.rate.price_chargeable).toBe(0);
    const response = await system.request('POST', path, { headers: auth, json: GUEST });
    expect(response.status).toBe(201);
    expect(response.body.data).toMatchObject({ status: 'confirmed', price_chargeable: 0 });
    expect(await sql(`SELECT * FROM accounting.holds WHERE booking_id = $1`, [response.body.data.id])).toEqual([]);
    expect((await system.request('GET', `/api/accounting/booking/${response.body.data.id}`, { headers: backend() })).body.data).toEqual([]);
    const after = (await system.request('GET', '/api/accounting/balance', { headers: backend() })).body.data;
    expect(after).toEqual(before);
    const cancel = await system.request('POST', `/book/cancel/${response.body.data.id}`, { headers: auth });
    expect(cancel.status).toBe(200);
    expect((await system.request('GET', '/api/accounting/balance', { headers: backend() })).body.data).toEqual(before);
  });

  it('a 100 %-off card booking confirms without charging the card', async () => {
    const { path } = await prebookV1(system, auth, freshStay(), { method: 'credit_card', query: '?promo_code=FREESTAY' });
    const response = await system.request('POST', path, { headers: auth, json: { ...GUEST, ...CARD } });
    expect(response.status).toBe(201);
    expect(response.body.data.status).toBe('confirmed');
    expect(await sql(`SELECT * FROM booking.sandbox_card_charges WHERE payment_key LIKE $1`, [`booking-${response.body.data.id}-%`])).toEqual([]);
  });
});
