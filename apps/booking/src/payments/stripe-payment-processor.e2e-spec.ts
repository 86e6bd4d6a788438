import { toMilli } from '@hotel/contracts';
import { DomainError } from '@hotel/platform';
import { StripeStandIn } from '@hotel/testing';
import { CardAmount } from './payment-processor';
import { CardProcessorUnavailable, StripePaymentProcessor, StripeSettings } from './stripe-payment-processor';

const card = (token: string) => ({ token, expiration: '12/40' });
const VISA = card('pm_card_visa');
const usd = (amount: string): CardAmount => ({ amount, currency: 'USD' });
const KEYSPACE = '7b0c8a64-6c1d-4d67-9a0e-3f5b2c1d0e9f';

/**
 * The Stripe adapter over real HTTP against the stand-in of Stripe's API, which
 * checks what the SDK sends (paths, key, idempotency keys, form fields) and
 * answers as Stripe documents. Each test uses its own payment keys.
 */
describe('Stripe payment processor', () => {
  let stripe: StripeStandIn;
  let seq = 0;
  const newKey = () => `booking-${++seq}-charge`;

  beforeAll(async () => {
    stripe = await StripeStandIn.start();
  });
  afterAll(() => stripe?.close());
  afterEach(() => expect(stripe.violations).toEqual([]));

  function processor(settings: Partial<StripeSettings> = {}) {
    return new StripePaymentProcessor({
      secretKey: stripe.secretKey,
      baseUrl: stripe.url,
      keyspace: KEYSPACE,
      attemptTimeoutMs: 1000,
      maxNetworkRetries: 1,
      operationDeadlineMs: 5000,
      maxSockets: 4,
      ...settings,
    });
  }

  /** The requests a payment key caused, as `METHOD path` (the PaymentIntent's id as :id). */
  function trail(key: string, from = 0) {
    const ids = new Set(stripe.intentsFor(key).map((intent) => intent.id));
    return stripe.requests
      .slice(from)
      .filter((request) => request.idempotencyKey?.startsWith(`${KEYSPACE}/${key}/`) || [...ids].some((id) => request.path.includes(id)))
      .map((request) => `${request.method} ${request.path.replace(/pi_\w+/, ':id')}`);
  }

  it('charges a card: creates the PaymentIntent, then confirms it with the payment method, each under its own key', async () => {
    const key = newKey();
    const charge = await processor().charge(key, VISA, usd('120.50'));
    const [intent] = stripe.intentsFor(key);
    expect(charge).toEqual({ paymentId: intent.id, amount: '120.50' });
    expect(intent).toMatchObject({ amount: 12050, currency: 'usd', status: 'succeeded', amount_received: 12050, payment_method: 'pm_card_visa' });
    const [create, confirm] = stripe.requests.filter((request) => request.idempotencyKey?.startsWith(`${KEYSPACE}/${key}/`));
    expect(create).toMatchObject({ method: 'POST', path: '/v1/payment_intents', idempotencyKey: `${KEYSPACE}/${key}/create` });
    expect(create.form).toEqual({
      amount: '12050',
      currency: 'usd',
      'automatic_payment_methods[enabled]': 'true',
      'automatic_payment_methods[allow_redirects]': 'never',
      'metadata[payment_key]': key,
    });
    expect(create.headers.authorization).toBe(`Bearer ${stripe.secretKey}`);
    expect(confirm).toMatchObject({ method: 'POST', path: `/v1/payment_intents/${intent.id}/confirm`, idempotencyKey: `${KEYSPACE}/${key}/confirm`, form: { payment_method: 'pm_card_visa' } });
  });

  it.each([
    ['JPY', '1235', 1235, 'jpy'],
    ['USD', '99.99', 9999, 'usd'],
    ['KWD', '12.340', 12340, 'kwd'],
  ])('charges %s %s as %i of its smallest unit', async (currency, amount, units, lower) => {
    const key = newKey();
    const charge = await processor().charge(key, VISA, { amount, currency });
    expect(stripe.intentsFor(key)).toEqual([expect.objectContaining({ amount: units, currency: lower, amount_received: units })]);
    expect(toMilli(charge.amount)).toBe(toMilli(amount));
  });

  it('refuses an amount Stripe cannot take exactly (KWD 12.345) before asking Stripe, and the key stays unused', async () => {
    const key = newKey();
    const before = stripe.requests.length;
    await expect(processor().charge(key, VISA, { amount: '12.345', currency: 'KWD' })).rejects.toMatchObject({
      code: 'PAYMENT_METHOD_UNAVAILABLE',
      message: expect.stringContaining('KWD in multiples of 0.01'),
    });
    expect(await processor().closeKey(key, { amount: '12.345', currency: 'KWD' })).toBeNull();
    expect(stripe.requests.length).toBe(before);
  });

  it.each([
    ['pm_card_chargeDeclined', 'card declined (generic_decline): Your card was declined.'],
    ['pm_card_chargeDeclinedInsufficientFunds', 'card declined (insufficient_funds): Your card has insufficient funds.'],
    ['pm_card_unknown', "card declined: No such PaymentMethod: 'pm_card_unknown'"],
  ])('declines %s with the reason, and closing the key then cancels the PaymentIntent', async (token, message) => {
    const key = newKey();
    await expect(processor().charge(key, card(token), usd('40.00'))).rejects.toEqual(new DomainError('PAYMENT_DECLINED', message));
    expect(await processor().closeKey(key, usd('40.00'))).toBeNull();
    expect(stripe.intentsFor(key)).toEqual([expect.objectContaining({ status: 'canceled', amount_received: 0 })]);
  });

  it('declines a payment that needs the cardholder (3-D Secure) and cancels it at once, so it can never complete', async () => {
    const key = newKey();
    const refused = processor().charge(key, card('pm_card_authenticationRequired'), usd('75.00'));
    await expect(refused).rejects.toMatchObject({ code: 'PAYMENT_DECLINED', message: expect.stringMatching(/^card declined: the card issuer asks the cardholder to authenticate/) });
    expect(stripe.intentsFor(key)).toEqual([expect.objectContaining({ status: 'canceled', amount_received: 0 })]);
    expect(trail(key)).toEqual(['POST /v1/payment_intents', 'POST /v1/payment_intents/:id/confirm', 'POST /v1/payment_intents/:id/cancel']);
  });

  it('charges once per key: a repeat, also concurrent, answers with the first charge', async () => {
    const key = newKey();
    const first = await processor().charge(key, VISA, usd('50.00'));
    const repeats = await Promise.all(Array.from({ length: 5 }, () => processor().charge(key, VISA, usd('50.00'))));
    expect(repeats).toEqual(Array.from({ length: 5 }, () => first));
    expect(stripe.intentsFor(key)).toHaveLength(1);
    expect(stripe.intentsFor(key)[0].amount_received).toBe(5000);
    expect(stripe.at('POST', /\/confirm$/).filter((request) => request.idempotencyKey === `${KEYSPACE}/${key}/confirm` && !request.replayed)).toHaveLength(1);
  });

  it('refuses a key used again for another amount (Stripe idempotency error): a conflict, not a decline', async () => {
    const key = newKey();
    await processor().charge(key, VISA, usd('10.00'));
    await expect(processor().charge(key, VISA, usd('11.00'))).rejects.toMatchObject({ code: 'CONFLICT' });
    expect(stripe.intentsFor(key)).toHaveLength(1);
  });

  describe('closing a key', () => {
    it('after the charge: answers with it and cancels nothing', async () => {
      const key = newKey();
      const charge = await processor().charge(key, VISA, usd('30.00'));
      expect(await processor().closeKey(key, usd('30.00'))).toEqual(charge);
      expect(stripe.intentsFor(key)[0].status).toBe('succeeded');
    });

    it('without a charge: null, and a charge with the key afterwards takes no money', async () => {
      const key = newKey();
      expect(await processor().closeKey(key, usd('30.00'))).toBeNull();
      expect(stripe.intentsFor(key)).toEqual([expect.objectContaining({ status: 'canceled' })]);
      await expect(processor().charge(key, VISA, usd('30.00'))).rejects.toEqual(new DomainError('PAYMENT_DECLINED', 'card declined: the payment was cancelled'));
      expect(stripe.intentsFor(key)).toEqual([expect.objectContaining({ status: 'canceled', amount_received: 0 })]);
      expect(await processor().closeKey(key, usd('30.00'))).toBeNull();
    });

    it('before a confirm still in flight arrives: the late confirm fails and takes no money', async () => {
      const key = newKey();
      let release!: () => void;
      stripe.inject('POST', /\/confirm$/, { kind: 'hold', until: new Promise<void>((resolve) => (release = resolve)) });
      const late = processor().charge(key, VISA, usd('30.00'));
      await waitFor(() => stripe.at('POST', /\/confirm$/).some((request) => request.idempotencyKey === `${KEYSPACE}/${key}/confirm`));
      expect(await processor().closeKey(key, usd('30.00'))).toBeNull();
      release();
      await expect(late).rejects.toEqual(new DomainError('PAYMENT_DECLINED', 'card declined: the payment was cancelled'));
      expect(stripe.intentsFor(key)).toEqual([expect.objectContaining({ status: 'canceled', amount_received: 0 })]);
    });

    it('after a charge whose answer was lost: finds the charge', async () => {
      const key = newKey();
      stripe.inject('POST', /\/confirm$/, { kind: 'drop' }, { kind: 'drop' });
      const lost = processor({ maxNetworkRetries: 0 }).charge(key, VISA, usd('30.00'));
      await expect(lost).rejects.toBeInstanceOf(CardProcessorUnavailable);
      const found = await processor().closeKey(key, usd('30.00'));
      expect(found).toEqual({ paymentId: stripe.intentsFor(key)[0].id, amount: '30.00' });
      expect(stripe.intentsFor(key)[0]).toMatchObject({ status: 'succeeded', amount_received: 3000 });
    });
  });

  describe('refunds', () => {
    it('refund part of a charge once per key, never more than is left', async () => {
      const { paymentId } = await processor().charge(newKey(), VISA, usd('100.00'));
      await processor().refund(paymentId, usd('60.00'), 'booking-r1-cancellation');
      await processor().refund(paymentId, usd('60.00'), 'booking-r1-cancellation');
      const refunds = () => [...stripe.refunds.values()].filter((refund) => refund.payment_intent === paymentId);
      expect(refunds()).toEqual([expect.objectContaining({ amount: 6000, currency: 'usd', status: 'succeeded' })]);
      const [request] = stripe.at('POST', /^\/v1\/refunds$/).filter((entry) => entry.form.payment_intent === paymentId);
      expect(request).toMatchObject({ idempotencyKey: `${KEYSPACE}/booking-r1-cancellation/refund`, form: { payment_intent: paymentId, amount: '6000' } });
      await expect(processor().refund(paymentId, usd('60.00'), 'booking-r1-other')).rejects.toMatchObject({ code: 'CONFLICT' });
      await processor().refund(paymentId, usd('40.00'), 'booking-r1-rest');
      expect(refunds().map((refund) => refund.amount)).toEqual([6000, 4000]);
    });

    it('gives back a three-decimal amount Stripe cannot move rounded up to what it can', async () => {
      const { paymentId } = await processor().charge(newKey(), VISA, { amount: '10.000', currency: 'KWD' });
      await processor().refund(paymentId, { amount: '4.005', currency: 'KWD' }, 'booking-r2-cancellation');
      expect([...stripe.refunds.values()].filter((refund) => refund.payment_intent === paymentId).map((refund) => refund.amount)).toEqual([4010]);
    });
  });

  describe('when Stripe cannot be reached', () => {
    it('a 5xx or 429 answer is retried by the SDK under the same key, and is no decline when it persists', async () => {
      const key = newKey();
      stripe.inject('POST', /\/confirm$/, { kind: 'status', status: 503 });
      await processor().charge(key, VISA, usd('20.00'));
      const confirms = stripe.at('POST', /\/confirm$/).filter((request) => request.idempotencyKey === `${KEYSPACE}/${key}/confirm`);
      expect(confirms.map((request) => request.status)).toEqual([503, 200]);

      const other = newKey();
      stripe.inject('POST', /\/confirm$/, { kind: 'status', status: 500 }, { kind: 'status', status: 429 });
      const failed = processor().charge(other, VISA, usd('20.00'));
      await expect(failed).rejects.toBeInstanceOf(CardProcessorUnavailable);
      await expect(failed).rejects.not.toBeInstanceOf(DomainError);
      // Later, under the same key: charged once.
      await processor().charge(other, VISA, usd('20.00'));
      expect(stripe.intentsFor(other)).toEqual([expect.objectContaining({ amount_received: 2000 })]);
    });

    it('a request that outlives its time is no decline; the payment is resolved under the same key later', async () => {
      const key = newKey();
      stripe.inject('POST', /\/confirm$/, { kind: 'delay', ms: 1500 });
      const started = Date.now();
      const slow = processor({ attemptTimeoutMs: 300, maxNetworkRetries: 0 }).charge(key, VISA, usd('20.00'));
      await expect(slow).rejects.toBeInstanceOf(CardProcessorUnavailable);
      expect(Date.now() - started).toBeLessThan(1500);
      expect(await processor().closeKey(key, usd('20.00'))).toEqual({ paymentId: stripe.intentsFor(key)[0].id, amount: '20.00' });
    });

    it('stays within the operation deadline whatever the retries', async () => {
      stripe.inject('POST', /\/confirm$/, { kind: 'delay', ms: 3000 }, { kind: 'delay', ms: 3000 });
      const started = Date.now();
      await expect(processor({ attemptTimeoutMs: 5000, maxNetworkRetries: 2, operationDeadlineMs: 800 }).charge(newKey(), VISA, usd('20.00'))).rejects.toBeInstanceOf(
        CardProcessorUnavailable,
      );
      expect(Date.now() - started).toBeLessThan(1500);
    });

    it('after five transport failures in a row, fails fast without asking Stripe', async () => {
      const breaking = processor({ maxNetworkRetries: 0 });
      const key = newKey();
      stripe.inject('POST', /^\/v1\/payment_intents$/, ...Array.from({ length: 5 }, () => ({ kind: 'status' as const, status: 500 })));
      for (let failure = 0; failure < 5; failure++) await expect(breaking.closeKey(key, usd('20.00'))).rejects.toBeInstanceOf(CardProcessorUnavailable);
      expect(trail(key)).toHaveLength(5);
      await expect(breaking.closeKey(key, usd('20.00'))).rejects.toThrow(/circuit open/);
      await expect(breaking.charge(key, VISA, usd('20.00'))).rejects.toThrow(/circuit open/);
      expect(trail(key)).toHaveLength(5);
    });
  });
});

async function waitFor(condition: () => boolean, timeoutMs = 5000): Promise<void> {
  const deadline = Date.now() + timeoutMs;
  while (!condition()) {
    if (Date.now() > deadline) throw new Error('condition not met in time');
    await new Promise((resolve) => setTimeout(resolve, 10));
  }
}
