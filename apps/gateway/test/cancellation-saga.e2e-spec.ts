import { connect } from 'nats';
import { SUBJECTS } from '@hotel/contracts';
import { natsConnectionOptions } from '@hotel/platform';
import { PaymentMethod, bookV1, queryTestDatabase, repeatWhileUnavailable, roomsSold, settledBooking, staySequence } from '@hotel/testing';
import { TestSystem } from './system';

const freshStay = staySequence(90);

/**
 * Cancellation is a saga: the first cancel fixes the penalty, then the supplier
 * cancels, the refund is written, and the booking is cancelled; concurrent cancels
 * share that one saga, and one cut off by an outage is finished by recovery.
 */
describe('cancellation saga', () => {
  let system: TestSystem, auth: { authorization: string };
  // A lease long enough that recovery never takes over a live worker's saga on a loaded
  // machine (it would send the supplier a second, harmless, cancellation): the cut-off
  // cancellation below gives its lease back when its step fails, so recovery needs no expiry.
  beforeAll(async () => ({ system, auth } = await TestSystem.startWithClient({ SAGA_LEASE_S: '5', RECOVERY_INTERVAL_MS: '300' })));
  afterAll(() => system?.close());

  const sql = <T = any>(text: string, params: unknown[] = []) => queryTestDatabase<T>(system.database.url, text, params);

  async function confirmedBooking(method: PaymentMethod, options: { refundable?: boolean } = {}) {
    const booking = await bookV1(system, auth, freshStay(), { method, refundable: options.refundable });
    expect(booking.status).toBe('confirmed');
    return booking;
  }

  it.each(['account', 'credit_card'] as const)('20 concurrent cancels (%s): one answer, the supplier asked for this booking only, one refund', async (method) => {
    const booking = await confirmedBooking(method);
    expect(await roomsSold(system, booking.id)).toBe(2); // one room, two nights
    // Beside the rates service, every supplier cancellation request the booking service sends.
    const listener = await connect(natsConnectionOptions(system.nats.bus('rates')));
    const supplierCancels: number[] = [];
    listener.subscribe(SUBJECTS.RATES_SUPPLIER_CANCEL, { callback: (_error, message) => supplierCancels.push(JSON.parse(new TextDecoder().decode(message.data)).data.bookingId) });
    await listener.flush();
    // On a loaded machine a waiting cancel may be answered 503 with Retry-After (the saga
    // outlived its answer's deadline): the documented answer, which a client repeats.
    const cancel = () => repeatWhileUnavailable(() => system.request('POST', `/book/cancel/${booking.id}`, { headers: auth }));
    const responses = await Promise.all(Array.from({ length: 20 }, cancel));
    await listener.flush();
    await listener.close();
    // Once, unless an attempt outlived the call's timeout (a CI run on a slow machine met it):
    // the saga then repeats its step, which rates and the vendor take as the same cancellation.
    // The money below is exact either way.
    expect(supplierCancels.length).toBeGreaterThanOrEqual(1);
    expect(new Set(supplierCancels)).toEqual(new Set([booking.id]));
    for (const response of responses) {
      expect({ status: response.status, body: response.body }).toMatchObject({ status: 200 });
      expect(response.body.data).toEqual({ cancelled: true, cancellation_reference: responses[0].body.data.cancellation_reference });
    }
    expect(await roomsSold(system, booking.id)).toBe(0);
    const [row] = await sql(`SELECT status, step, cancellation_penalty FROM booking.bookings WHERE id = $1`, [booking.id]);
    expect(row).toMatchObject({ status: 'cancelled', step: 'cancelled' });
    const refund = (booking.price_chargeable * 100 - Number(row.cancellation_penalty) * 100) / 100;
    if (method === 'account') {
      const credits = await sql(`SELECT credit::float AS credit FROM accounting.entries WHERE booking_id = $1 AND kind = 'booking_refund'`, [booking.id]);
      expect(credits).toEqual(refund > 0 ? [{ credit: refund }] : []);
    } else {
      const refunds = await sql(`SELECT amount::float AS amount FROM booking.sandbox_card_refunds WHERE refund_key = $1`, [`booking-${booking.id}-cancellation`]);
      expect(refunds).toEqual(refund > 0 ? [{ amount: refund }] : []);
      expect((await sql(`SELECT count(*)::int AS n FROM booking.sandbox_card_refunds r JOIN booking.sandbox_card_charges c USING (payment_id) WHERE c.payment_key = $1`, [`booking-${booking.id}-charge`]))[0].n).toBe(refund > 0 ? 1 : 0);
    }
    const again = await system.request('POST', `/book/cancel/${booking.id}`, { headers: auth });
    expect(again.body.data).toEqual(responses[0].body.data);
  });

  it('an interrupted cancellation is finished by recovery, with the penalty fixed when it started', async () => {
    // Refundable, months ahead: the vendor charges nothing for cancelling either.
    const booking = await confirmedBooking('account', { refundable: true });
    const setPenaltyPeriods = (periods: unknown[]) =>
      sql(`UPDATE booking.bookings SET rate = jsonb_set(rate, '{cancellation_policy_data}', $2::jsonb) WHERE id = $1`, [booking.id, JSON.stringify(periods)]);
    await setPenaltyPeriods([]); // free cancellation: all of the price comes back
    await system.stopService('accounting');
    const cut = await system.request('POST', `/book/cancel/${booking.id}`, { headers: auth });
    expect(cut.status).toBe(503);
    expect(cut.body.code).toBe('SERVICE_UNAVAILABLE');
    expect(cut.headers['retry-after']).toBeDefined();
    const [started] = await sql(`SELECT status, step, cancellation_penalty FROM booking.bookings WHERE id = $1`, [booking.id]);
    expect(started).toMatchObject({ status: 'confirmed', step: 'refunding' });
    expect(await roomsSold(system, booking.id)).toBe(0);
    // Meanwhile a penalty period starts: the cancellation keeps the penalty it began with.
    await setPenaltyPeriods([{ from_datetime: '2000-01-01T00:00:00Z', price_cancellation_penalty: 1, price_currency: 'USD' }]);
    expect(started.cancellation_penalty).toBe('0.000');
    const preview = await system.request('GET', `/book/precancel/${booking.id}`, { headers: auth });
    expect(preview.body.data.price_cancellation_penalty).toBe(0);

    await system.startReplica('accounting');
    expect((await settledBooking(system, booking.id)).status).toBe('cancelled');
    const credits = await sql(`SELECT credit FROM accounting.entries WHERE booking_id = $1 AND kind = 'booking_refund'`, [booking.id]);
    expect(credits.map((entry) => Number(entry.credit))).toEqual([booking.price_chargeable]);
    const [done] = await sql(`SELECT cancellation_penalty FROM booking.bookings WHERE id = $1`, [booking.id]);
    expect(done.cancellation_penalty).toBe(started.cancellation_penalty);
    const answer = await system.request('POST', `/book/cancel/${booking.id}`, { headers: auth });
    expect(answer.body.data).toEqual({ cancelled: true, cancellation_reference: expect.stringMatching(/^CXL-/) });
  });
});
