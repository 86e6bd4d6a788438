import { CARD, CapturedLogs, GUEST, StripeStandIn, bearer, captureLogs, prebookV1, queryTestDatabase, settledBooking, staySequence } from '@hotel/testing';
import { FailPoint, FailPoints } from '../../booking/src/bookings/fail-points';
import { ClientKeys, TestSystem } from './system';

const freshStay = staySequence(400);
const cents = (amount: number | string) => Math.round(Number(amount) * 100);

/**
 * The platform with PAYMENT_PROCESSOR=stripe, pointed at a stand-in of Stripe's
 * API: live card bookings are charged, declined and refunded through Stripe, a
 * sandbox key's through the built-in processor. Then the booking service restarts
 * with NODE_ENV=production and no processor: live card bookings are refused.
 */
describe('card payments through Stripe', () => {
  let stripe: StripeStandIn;
  let system: TestSystem;
  let acme: ClientKeys;
  let auth: { authorization: string };
  let logs: CapturedLogs | undefined;

  beforeAll(async () => {
    stripe = await StripeStandIn.start();
    // A short lease: recovery takes a crashed saga over within seconds.
    ({ system, acme, auth } = await TestSystem.startWithClient({
      PAYMENT_PROCESSOR: 'stripe',
      STRIPE_SECRET_KEY: stripe.secretKey,
      STRIPE_API_BASE_URL: stripe.url,
      SAGA_LEASE_S: '3',
      RECOVERY_INTERVAL_MS: '300',
    }));
  });
  afterAll(async () => {
    logs?.stop();
    await system?.close();
    await stripe?.close();
  });
  afterEach(() => expect(stripe.violations).toEqual([]));

  const sql = <T = any>(text: string, params: unknown[] = []) => queryTestDatabase<T>(system.database.url, text, params);
  const failPoints = () => system.replicas.get('booking')![0].app.get(FailPoints);

  async function book(token: string, options: { headers?: Record<string, string>; arm?: FailPoint; refundable?: boolean } = {}) {
    const headers = options.headers ?? auth;
    const { path, prebook } = await prebookV1(system, headers, freshStay(), { method: 'credit_card', refundable: options.refundable });
    if (options.arm) failPoints().arm(options.arm);
    const response = await system.request('POST', path, { headers, json: { ...GUEST, ...CARD, payment_token: token } });
    const [booking] = await sql(`SELECT * FROM booking.bookings WHERE prebook_id = $1 ORDER BY id DESC LIMIT 1`, [prebook.prebook_id]);
    return { response, booking, price: prebook.rate.price_chargeable as number, intents: () => stripe.intentsFor(`booking-${booking.id}-charge`) };
  }

  const ledger = (bookingId: number) => sql(`SELECT kind, debit, credit FROM accounting.entries WHERE booking_id = $1 ORDER BY id`, [bookingId]);
  const sandboxCharges = (bookingId: number) => sql(`SELECT * FROM booking.sandbox_card_charges WHERE payment_key = $1`, [`booking-${bookingId}-charge`]);

  it('charges a live card booking through Stripe and confirms it; its cancellation refunds through Stripe', async () => {
    // A refundable rate more than a year ahead: its vendor charges nothing for cancelling.
    const { response, booking, price, intents } = await book('pm_card_visa', { refundable: true });
    expect(response.status).toBe(201);
    expect(response.body.data).toMatchObject({ status: 'confirmed', payment_method: 'credit_card' });
    expect(intents()).toEqual([expect.objectContaining({ amount: cents(price), currency: 'usd', status: 'succeeded', amount_received: cents(price), payment_method: 'pm_card_visa' })]);
    expect(booking).toMatchObject({ payment_processor: 'stripe', cc_payment_id: intents()[0].id, price_currency: 'USD' });
    expect((await ledger(booking.id)).map((entry) => entry.kind)).toEqual(['card_charge', 'card_payment']);
    expect(await sandboxCharges(booking.id)).toEqual([]);

    // Free cancellation: the whole price goes back to the card.
    const cancelled = await system.request('POST', `/book/cancel/${booking.id}`, { headers: auth });
    expect(cancelled.status).toBe(200);
    expect(cancelled.body.data).toMatchObject({ cancelled: true });
    const refunds = [...stripe.refunds.values()].filter((refund) => refund.payment_intent === intents()[0].id);
    expect(refunds).toEqual([expect.objectContaining({ amount: cents(price), currency: 'usd', status: 'succeeded' })]);
    const [request] = stripe.at('POST', /^\/v1\/refunds$/).filter((entry) => entry.form.payment_intent === intents()[0].id);
    expect(request.idempotencyKey).toMatch(new RegExp(`^[0-9a-f-]{36}/booking-${booking.id}-cancellation/refund$`));
  });

  it('answers a declined card 400 PAYMENT_DECLINED with the reason; the booking is failed and nothing is kept', async () => {
    const { response, booking, intents } = await book('pm_card_chargeDeclinedInsufficientFunds');
    expect(response.status).toBe(400);
    expect(response.body).toMatchObject({ success: false, code: 'PAYMENT_DECLINED', message: 'card declined (insufficient_funds): Your card has insufficient funds.' });
    expect(booking).toMatchObject({ status: 'failed', failure_code: 'PAYMENT_DECLINED', cc_payment_id: null });
    // Compensation closed the payment key: the PaymentIntent can take nothing any more.
    expect(intents()).toEqual([expect.objectContaining({ status: 'canceled', amount_received: 0 })]);
    expect(await ledger(booking.id)).toEqual([]);
  });

  it('answers a card that needs 3-D Secure 400 PAYMENT_DECLINED, saying why; the PaymentIntent is cancelled', async () => {
    const { response, booking, intents } = await book('pm_card_authenticationRequired');
    expect(response.status).toBe(400);
    expect(response.body).toMatchObject({ code: 'PAYMENT_DECLINED', message: expect.stringContaining('asks the cardholder to authenticate') });
    expect(booking).toMatchObject({ status: 'failed', failure_code: 'PAYMENT_DECLINED' });
    expect(intents()).toEqual([expect.objectContaining({ status: 'canceled', amount_received: 0 })]);
  });

  it('finishes a booking whose worker died after Stripe charged: confirmed, charged once', async () => {
    const { booking, price, intents } = await book('pm_card_visa', { arm: 'after-charge' });
    expect(failPoints().isArmed('after-charge')).toBe(false);
    expect(await settledBooking(system, booking.id)).toMatchObject({ status: 'confirmed' });
    expect(intents()).toEqual([expect.objectContaining({ status: 'succeeded', amount_received: cents(price) })]);
  });

  it('fails a booking whose worker died before charging, and closes its key at Stripe: nothing charged', async () => {
    const { booking, intents } = await book('pm_card_visa', { arm: 'before-charge' });
    expect(await settledBooking(system, booking.id)).toMatchObject({ status: 'failed' });
    expect((await sql(`SELECT failure_code FROM booking.bookings WHERE id = $1`, [booking.id]))[0].failure_code).toBe('PAYMENT_INCOMPLETE');
    expect(intents()).toEqual([expect.objectContaining({ status: 'canceled', amount_received: 0 })]);
  });

  it("still takes a sandbox key's card booking with the built-in test processor: nothing reaches Stripe", async () => {
    const before = stripe.requests.length;
    const { response, booking } = await book('tok_visa', { headers: bearer(acme.sandbox_api_key) });
    expect(response.status).toBe(201);
    expect(response.body.data.status).toBe('confirmed');
    expect(booking.payment_processor).toBe('sandbox');
    expect(await sandboxCharges(booking.id)).toEqual([expect.objectContaining({ payment_id: booking.cc_payment_id })]);
    expect(stripe.requests.length).toBe(before);
  });

  describe('in production without a card processor', () => {
    beforeAll(async () => {
      logs = captureLogs();
      await system.stopService('booking');
      await system.startReplica('booking', {
        NODE_ENV: 'production',
        VOUCHER_SECRET: 'a-voucher-secret-of-this-test-only',
        // Empty is unset.
        PAYMENT_PROCESSOR: '',
        STRIPE_SECRET_KEY: '',
      });
    });

    it('warns at start that live card payments are unavailable', () => {
      expect(logs!.lines.some((line) => line.level === 'warn' && JSON.stringify(line).includes('live card payments are unavailable'))).toBe(true);
    });

    it('answers a live card booking 400 PAYMENT_METHOD_UNAVAILABLE, charging nothing; the booking is failed', async () => {
      const before = stripe.requests.length;
      const { response, booking } = await book('pm_card_visa');
      expect(response.status).toBe(400);
      expect(response.body).toMatchObject({ code: 'PAYMENT_METHOD_UNAVAILABLE', message: expect.stringContaining('no card processor is configured') });
      expect(booking).toMatchObject({ status: 'failed', failure_code: 'PAYMENT_METHOD_UNAVAILABLE', payment_key: null, payment_processor: null });
      expect(await sandboxCharges(booking.id)).toEqual([]);
      expect(stripe.requests.length).toBe(before);
    });

    it("still takes a sandbox key's card booking with the test processor", async () => {
      const { response, booking } = await book('tok_visa', { headers: bearer(acme.sandbox_api_key) });
      expect(response.status).toBe(201);
      expect(booking.payment_processor).toBe('sandbox');
    });
  });
});
