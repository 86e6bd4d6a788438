import { GUEST, bearer, bookV1, day, prebookV1, queryTestDatabase, repeatWhileUnavailable, settledBooking, staySequence } from '@hotel/testing';
import { sample } from './metrics-text';
import { ClientKeys, TestSystem } from './system';

/** Sandbox and live are separate worlds: sandbox traffic touches no live counter, no live finance figure. */
describe('sandbox and live worlds', () => {
  let system: TestSystem;
  let acme: ClientKeys;
  let live: { authorization: string };
  let sandbox: { authorization: string };
  let finance: { authorization: string };
  const nextStay = staySequence(20);
  const today = day(0);

  beforeAll(async () => {
    ({ system, acme, auth: live } = await TestSystem.startWithClient());
    sandbox = bearer(acme.sandbox_api_key);
    finance = { authorization: (await system.admin('create-finance-token', '--name', 'Worlds')).json.finance_token };
  }, 60_000);
  afterAll(async () => {
    await system?.close();
  });

  const bookingMetrics = async () => (await fetch(`${system.replicas.get('booking')![0].probeUrl}/metrics`)).text();
  const booked = (text: string, labels: Record<string, string>) => sample(text, 'hotel_booking_value_total', labels);

  /** Every live finance figure of the client for today, as the finance team reads it. */
  async function liveFigures() {
    // A read answered 503 with Retry-After (a service slower than the call's timeout on a
    // loaded machine, as a CI run met) is repeated after it, as a client repeats a safe read.
    const read = async (path: string) => {
      const response = await repeatWhileUnavailable(() => system.request('GET', `${path}${path.includes('?') ? '&' : '?'}clientId=${acme.client_id}`, { headers: finance }));
      expect(`${path}: ${response.status} ${response.status === 200 ? '' : response.text}`).toBe(`${path}: 200 `);
      return response.headers['content-type']?.toString().startsWith('application/json') ? response.body.data : response.text;
    };
    return {
      balance: await read('/api/accounting/balance'),
      statement: await read(`/api/accounting/statement?from=${today}&to=${today}`),
      statementCsv: await read(`/api/accounting/statement?from=${today}&to=${today}&format=csv`),
      daily: await read(`/api/accounting/balance/daily?from=${today}&to=${today}`),
      reconciliation: await read(`/api/accounting/reconciliation?from=${today}&to=${today}`),
      ledgerCsv: await read('/api/accounting?format=csv'),
    };
  }

  it('sandbox bookings and cancellations leave every live figure unchanged; the booked-value metric counts them under world="sandbox"', async () => {
    // A live booking first, so the live figures are not all zero.
    const first = await bookV1(system, live, nextStay());
    expect(await settledBooking(system, first.id)).toMatchObject({ status: 'confirmed' });
    const before = await liveFigures();
    expect(before.statement.entryCount).toBe(1);
    expect(before.reconciliation.totals.confirmed.count).toBe(1);
    const metricsBefore = await bookingMetrics();

    const account = await bookV1(system, sandbox, nextStay());
    const card = await bookV1(system, sandbox, nextStay(), { method: 'credit_card', hotelIndex: 1 });
    const cancelledAccount = await bookV1(system, sandbox, nextStay(), { hotelIndex: 2 });
    const cancelledCard = await bookV1(system, sandbox, nextStay(), { method: 'credit_card', hotelIndex: 3 });
    for (const booking of [cancelledAccount, cancelledCard]) expect((await system.request('POST', `/book/cancel/${booking.id}`, { headers: sandbox })).status).toBe(200);
    const settled = await Promise.all([account, card, cancelledAccount, cancelledCard].map((booking) => settledBooking(system, booking.id)));
    expect(settled.map((booking) => booking.status)).toEqual(['confirmed', 'confirmed', 'cancelled', 'cancelled']);

    expect(await liveFigures()).toEqual(before);
    const metricsAfter = await bookingMetrics();
    const moved = (labels: Record<string, string>) => booked(metricsAfter, labels) - booked(metricsBefore, labels);
    expect(moved({ world: 'live' })).toBe(0);
    expect(sample(metricsAfter, 'hotel_bookings_total', { world: 'live' })).toBe(sample(metricsBefore, 'hotel_bookings_total', { world: 'live' }));
    // Each booking counts when it is confirmed, and a cancelled one again when it is cancelled.
    const value = (bookings: { price_chargeable: number }[]) => bookings.reduce((sum, booking) => sum + booking.price_chargeable, 0);
    expect(moved({ world: 'sandbox', status: 'confirmed' })).toBeCloseTo(value([account, card, cancelledAccount, cancelledCard]), 2);
    expect(moved({ world: 'sandbox', status: 'cancelled' })).toBeCloseTo(value([cancelledAccount, cancelledCard]), 2);
    // Where a finance figure would have counted them: no ledger entry names a sandbox booking.
    const [{ entries }] = await queryTestDatabase<{ entries: number }>(system.database.url, `SELECT count(*)::int AS entries FROM accounting.entries WHERE booking_id = ANY($1)`, [
      [account.id, card.id, cancelledAccount.id, cancelledCard.id],
    ]);
    expect(entries).toBe(0);
  }, 120_000);

  it('a promo code with max_uses 1 booked at once by a sandbox and a live booking: both get it; a second live booking finds it used up', async () => {
    expect((await system.admin('create-promo', '--code', 'WORLDS1', '--amount', '5', '--max-uses', '1')).code).toBe(0);
    const query = '?promo_code=WORLDS1';
    // Prebooked first (each quote sees no use yet in its world), booked after.
    const [sandboxPrebook, livePrebook, secondLive] = [
      await prebookV1(system, sandbox, nextStay(), { query }),
      await prebookV1(system, live, nextStay(), { query, hotelIndex: 1 }),
      await prebookV1(system, live, nextStay(), { query, hotelIndex: 2 }),
    ];
    for (const { prebook } of [sandboxPrebook, livePrebook, secondLive]) expect(prebook.promo_code_response).toMatchObject({ success: true, discount_amount: 5 });

    const book = (prebooked: { path: string }, headers: { authorization: string }) => system.request('POST', prebooked.path, { headers, json: GUEST });
    const [sandboxBooking, liveBooking] = await Promise.all([book(sandboxPrebook, sandbox), book(livePrebook, live)]);
    expect([sandboxBooking.status, liveBooking.status]).toEqual([201, 201]);
    for (const answer of [sandboxBooking, liveBooking]) expect(await settledBooking(system, answer.body.data.id)).toMatchObject({ status: 'confirmed' });

    await book(secondLive, live);
    const byPrebook = `SELECT id, failure_code, failure_reason FROM booking.bookings WHERE prebook_id = $1`;
    const [{ id }] = await queryTestDatabase<{ id: number }>(system.database.url, byPrebook, [secondLive.prebook.prebook_id]);
    expect(await settledBooking(system, id)).toMatchObject({ status: 'failed' });
    const [failed] = await queryTestDatabase(system.database.url, byPrebook, [secondLive.prebook.prebook_id]);
    expect(failed).toMatchObject({ failure_code: 'PROMO_CODE_INVALID', failure_reason: 'promo code used up' });

    const [uses] = await queryTestDatabase(system.database.url, `SELECT uses, sandbox_uses FROM promo.codes WHERE code = 'WORLDS1'`);
    expect(uses).toEqual({ uses: 1, sandbox_uses: 1 });
    // A new sandbox prebook is told the code is used up in its world, a live one too.
    for (const headers of [sandbox, live]) {
      const { prebook } = await prebookV1(system, headers, nextStay(), { query, hotelIndex: 3 });
      expect(prebook.promo_code_response).toEqual({ success: false, message: 'promo code used up', discount_amount: 0 });
    }
  }, 120_000);
});
