import { CARD, GUEST, PaymentMethod, prebookV1, queryTestDatabase, roomsSold, settledBooking, staySequence } from '@hotel/testing';
import { FailPoint, FailPoints } from '../../booking/src/bookings/fail-points';
import { TestSystem } from './system';

const freshStay = staySequence(120);

/**
 * A worker cut off between a step's effect and its record, at every step of the
 * booking and the cancellation saga, for account and card payments: recovery
 * finishes or undoes the work, and every sum is exact afterwards.
 */
describe('saga crash at every step', () => {
  let system: TestSystem, auth: { authorization: string };
  let promoSeq = 0;
  beforeAll(async () => ({ system, auth } = await TestSystem.startWithClient({ SAGA_LEASE_S: '1', RECOVERY_INTERVAL_MS: '300' }, { creditLimit: '1000000' })));
  afterAll(() => system?.close());

  const sql = <T = any>(text: string, params: unknown[] = []) => queryTestDatabase<T>(system.database.url, text, params);
  const failPoints = () => system.replicas.get('booking')![0].app.get(FailPoints);
  const cents = (amount: number | string) => Math.round(Number(amount) * 100);

  async function newPromo(maxUses?: number): Promise<string> {
    const code = `CRASH${++promoSeq}`;
    const result = await system.admin('create-promo', '--code', code, '--amount', '5', ...(maxUses ? ['--max-uses', String(maxUses)] : []));
    expect(result.code).toBe(0);
    return code;
  }

  async function book(method: PaymentMethod, options: { promo?: string; arm?: FailPoint } = {}) {
    const { path, prebook } = await prebookV1(system, auth, freshStay(), { method, ...(options.promo && { query: `?promo_code=${options.promo}` }) });
    if (options.arm) failPoints().arm(options.arm);
    const response = await system.request('POST', path, { headers: auth, json: { ...GUEST, ...(method === 'credit_card' && CARD), idempotency_key: `key-${prebook.prebook_id}` } });
    const [row] = await sql(`SELECT id FROM booking.bookings WHERE prebook_id = $1 ORDER BY id DESC LIMIT 1`, [prebook.prebook_id]);
    return { response, id: row.id as number, price: prebook.rate.price_chargeable as number, path };
  }

  /** Every sum that a booking moved, checked against what its final state says it should be. */
  async function expectExact(id: number) {
    const [booking] = await sql(`SELECT * FROM booking.bookings WHERE id = $1`, [id]);
    const price = cents(booking.price_chargeable);
    const penalty = cents(booking.cancellation_penalty ?? 0);
    const entries = await sql(`SELECT kind, debit, credit FROM accounting.entries WHERE booking_id = $1 ORDER BY id`, [id]);
    const byKind = (kind: string) => entries.filter((entry) => entry.kind === kind);
    const holds = await sql(`SELECT status, amount FROM accounting.holds WHERE booking_id = $1`, [id]);
    const charges = await sql(`SELECT payment_id, amount FROM booking.sandbox_card_charges WHERE payment_key = $1 AND payment_id IS NOT NULL`, [`booking-${id}-charge`]);
    const refunds = await sql(`SELECT refund_key, amount FROM booking.sandbox_card_refunds WHERE refund_key LIKE $1`, [`booking-${id}-%`]);
    const [supplier] = await sql(`SELECT status FROM rates.supplier_bookings WHERE booking_id = $1`, [id]);
    const sold = await roomsSold(system, id);
    const live = booking.status === 'confirmed';
    expect(holds.filter((hold) => hold.status === 'active')).toEqual([]);
    expect(sold).toBe(live ? 2 : 0);
    if (booking.status !== 'failed' || supplier) expect(supplier?.status).toBe(live ? 'confirmed' : 'cancelled');
    if (booking.payment_method === 'account') {
      const debited = booking.status === 'failed' ? 0 : price;
      expect(byKind('booking_debit').map((entry) => cents(entry.debit))).toEqual(debited ? [debited] : []);
      const refunded = booking.status === 'cancelled' ? price - penalty : 0;
      expect(byKind('booking_refund').map((entry) => cents(entry.credit))).toEqual(refunded ? [refunded] : []);
      expect(charges).toEqual([]);
    } else {
      const kept = booking.status === 'failed' ? [] : [price];
      expect(byKind('card_charge').map((entry) => cents(entry.debit))).toEqual(kept);
      expect(byKind('card_payment').map((entry) => cents(entry.credit))).toEqual(kept);
      // What the card paid in the end: the charge less its refunds.
      const charged = charges.reduce((sum, charge) => sum + cents(charge.amount), 0);
      const refunded = refunds.reduce((sum, refund) => sum + cents(refund.amount), 0);
      expect(charges.length).toBeLessThanOrEqual(1);
      expect(charged - refunded).toBe(booking.status === 'confirmed' ? price : booking.status === 'cancelled' ? penalty : 0);
    }
    return booking;
  }

  describe.each(['account', 'credit_card'] as const)('booking with %s', (method) => {
    const points: FailPoint[] = ['after-supplier-book', 'after-promo-redeem', 'after-collect', method === 'account' ? 'after-hold' : 'after-charge'];
    it.each(points)('a crash %s is finished by recovery: confirmed, money exact', async (point) => {
      const promo = point === 'after-promo-redeem' ? await newPromo() : undefined;
      const { id } = await book(method, { promo, arm: point });
      expect(failPoints().isArmed(point)).toBe(false); // the worker did stop there
      expect(await settledBooking(system, id)).toMatchObject({ status: 'confirmed', step: 'done' });
      await expectExact(id);
      if (promo) expect((await sql(`SELECT count(*)::int AS n FROM promo.redemptions WHERE booking_id = $1`, [id]))[0].n).toBe(1);
    });

    it('a crash after-compensate (the promo code ran out after the supplier booked) is undone by recovery', async () => {
      const promo = await newPromo(1);
      const first = await prebookV1(system, auth, freshStay(), { method, query: `?promo_code=${promo}` });
      const second = await book(method, { promo }); // takes the code's only use
      expect(second.response.body.data.status).toBe('confirmed');
      failPoints().arm('after-compensate');
      await system.request('POST', first.path, { headers: auth, json: { ...GUEST, ...(method === 'credit_card' && CARD) } });
      expect(failPoints().isArmed('after-compensate')).toBe(false);
      const [row] = await sql(`SELECT id FROM booking.bookings WHERE prebook_id = $1`, [first.prebook.prebook_id]);
      expect(await settledBooking(system, row.id)).toMatchObject({ status: 'failed' });
      const failed = await expectExact(row.id);
      expect(failed.failure_code).toBe('PROMO_CODE_INVALID');
    });

    it.each(['before-supplier-cancel', 'after-supplier-cancel', 'after-refund'] as const)('a cancellation cut off %s is finished by recovery', async (point) => {
      const { id } = await book(method);
      await sql(`UPDATE booking.bookings SET rate = jsonb_set(rate, '{cancellation_policy_data}', '[]') WHERE id = $1`, [id]);
      failPoints().arm(point);
      await system.request('POST', `/book/cancel/${id}`, { headers: auth });
      expect(failPoints().isArmed(point)).toBe(false);
      expect(await settledBooking(system, id)).toMatchObject({ status: 'cancelled', step: 'cancelled' });
      await expectExact(id);
      const answer = await system.request('POST', `/book/cancel/${id}`, { headers: auth });
      expect(answer.body.data).toEqual({ cancelled: true, cancellation_reference: expect.stringMatching(/^CXL-/) });
    });
  });

  it('a card booking cut off after its key was recorded but before the charge fails, charging nothing', async () => {
    const { id, path } = await book('credit_card', { arm: 'before-charge' });
    expect(failPoints().isArmed('before-charge')).toBe(false);
    const settled = await settledBooking(system, id);
    expect(settled.status).toBe('failed');
    const booking = await expectExact(id);
    expect(booking.failure_code).toBe('PAYMENT_INCOMPLETE');
    // The key is closed: nothing can charge under it any more. The prebook is free again.
    const again = await system.request('POST', path, { headers: auth, json: { ...GUEST, ...CARD } });
    expect(again.status).toBe(201);
    expect(again.body.data.status).toBe('confirmed');
  });
});

/** A repeat of a card booking whose worker died takes the saga over with the card it carries. */
describe('a repeated card booking takes over a dead worker', () => {
  let system: TestSystem, auth: { authorization: string };
  // No recovery pass during the test: only the repeat can take the saga over.
  beforeAll(async () => ({ system, auth } = await TestSystem.startWithClient({ SAGA_LEASE_S: '1', RECOVERY_INTERVAL_MS: '600000' })));
  afterAll(() => system?.close());

  it('charges once and confirms', async () => {
    const { path } = await prebookV1(system, auth, staySequence(200)(), { method: 'credit_card' });
    system.replicas.get('booking')![0].app.get(FailPoints).arm('before-charge');
    const body = { ...GUEST, ...CARD, idempotency_key: 'card-takeover' };
    const first = await system.request('POST', path, { headers: auth, json: body });
    expect(first.body.data).toMatchObject({ status: 'pending' });
    const repeat = await system.request('POST', path, { headers: auth, json: body });
    expect(repeat.status).toBe(200);
    expect(repeat.body.data).toMatchObject({ id: first.body.data.id, status: 'confirmed' });
    const charges = await queryTestDatabase(system.database.url, `SELECT amount FROM booking.sandbox_card_charges WHERE payment_key = $1`, [`booking-${first.body.data.id}-charge`]);
    expect(charges).toEqual([{ amount: repeat.body.data.price_chargeable.toFixed(3) }]);
  });
});
