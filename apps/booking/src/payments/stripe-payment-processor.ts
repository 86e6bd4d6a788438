import { Logger } from '@nestjs/common';
import { Agent as HttpAgent } from 'node:http';
import { Agent as HttpsAgent } from 'node:https';
import Stripe from 'stripe';
import { DomainError } from '@hotel/platform';
import { CardAmount, CardCharge, CardDetails, PaymentProcessor } from './payment-processor';
import { fromStripeAmount, stripeStep, toStripeAmount } from './stripe-amounts';

export interface StripeSettings {
  /** A secret or restricted key (sk_live_…, sk_test_…, rk_…). */
  secretKey: string;
  /** Stripe's API address (https://api.stripe.com); a test points it at a stand-in. */
  baseUrl: string;
  /** Prefixes every idempotency key: this installation's own (see Installation), so that two installations sharing a Stripe account never share a key. */
  keyspace: string;
  /** How long one HTTP attempt may take. */
  attemptTimeoutMs: number;
  /** The SDK's own retries of a request that failed in transit or with a 409/5xx; each reuses the request's idempotency key. */
  maxNetworkRetries: number;
  /** How long one operation (charge, closeKey, refund: every request and retry in it) may take: less than the saga's lease. */
  operationDeadlineMs: number;
  /** The connection pool's bound. */
  maxSockets: number;
}

/** Transport failures in a row that open the circuit, and how long it then stays open. */
const BREAKER = { failures: 5, openMs: 30_000 };

/**
 * Stripe could not be asked (network, timeout, 429, 5xx, an open circuit): the
 * outcome is unknown, so this is not a decline. Not a DomainError: the saga keeps
 * the booking where it is and resolves the payment later, under the same key.
 */
export class CardProcessorUnavailable extends Error {}

/**
 * The card processor on Stripe's PaymentIntents and Refunds APIs. A charge is two
 * requests, each under its own idempotency key derived from the booking's payment
 * key:
 * - `…/create` creates the PaymentIntent, unconfirmed and without a payment method
 *   (amount, currency, no redirects). Everything in it is known from the booking, so
 *   it can be sent again at any time and answers with the same PaymentIntent.
 * - `…/confirm` confirms it with the partner's payment method: the only request that
 *   can take money, and, under its key, at most once.
 *
 * closeKey sends the create again (the same PaymentIntent, or a new unconfirmed one
 * if nothing was ever created), reads the PaymentIntent as it stands, and answers
 * with the charge when it succeeded; otherwise it cancels it. Stripe documents that
 * a canceled PaymentIntent makes no further charges and that any operation on it
 * fails, so a confirm still in flight, or retried later by the SDK or a worker,
 * fails instead of taking money. A confirm that Stripe ran before the cancel makes
 * the cancel fail; the PaymentIntent is read again and its charge returned.
 * Stripe keeps idempotency keys for at least 24 hours: recovery resolves a key
 * within seconds of a crash, far inside that.
 */
export class StripePaymentProcessor implements PaymentProcessor {
  private readonly logger = new Logger('StripePaymentProcessor');
  private readonly stripe: Stripe;
  private readonly breaker = new CircuitBreaker(BREAKER.failures, BREAKER.openMs);

  constructor(private readonly settings: StripeSettings) {
    const url = new URL(settings.baseUrl);
    const protocol = url.protocol === 'http:' ? 'http' : 'https';
    const pool = { keepAlive: true, maxSockets: settings.maxSockets, maxFreeSockets: Math.min(settings.maxSockets, 8) };
    this.stripe = new Stripe(settings.secretKey, {
      // Pinned: the shapes read here are this version's. An SDK upgrade that moves it fails to compile here, on purpose.
      apiVersion: '2026-10-28.endive',
      host: url.hostname,
      port: url.port || (protocol === 'http' ? 80 : 443),
      protocol,
      httpAgent: protocol === 'http' ? new HttpAgent(pool) : new HttpsAgent(pool),
      timeout: settings.attemptTimeoutMs,
      maxNetworkRetries: settings.maxNetworkRetries,
    });
  }

  async charge(key: string, card: CardDetails, price: CardAmount): Promise<CardCharge> {
    const deadline = Date.now() + this.settings.operationDeadlineMs;
    const amount = toStripeAmount(price.amount, price.currency);
    if (amount === null) {
      throw new DomainError(
        'PAYMENT_METHOD_UNAVAILABLE',
        `cards cannot pay ${price.currency} ${price.amount}: the card processor takes ${price.currency} in multiples of ${stripeStep(price.currency)}; pay by account`,
      );
    }
    const intent = await this.create(key, amount, price.currency, deadline).catch((error) => {
      throw declineOf(error, key);
    });
    let confirmed: Stripe.PaymentIntent;
    try {
      confirmed = await this.send(deadline, (options) =>
        this.stripe.paymentIntents.confirm(intent.id, { payment_method: card.token }, { ...options, idempotencyKey: this.idempotencyKey(key, 'confirm') }),
      );
    } catch (error) {
      // Closed meanwhile (closeKey cancelled it), or already confirmed under an expired key: as it stands now.
      if (!isUnexpectedState(error)) throw declineOf(error, key);
      confirmed = await this.retrieve(intent.id, deadline);
      if (confirmed.status !== 'succeeded') throw new DomainError('PAYMENT_DECLINED', 'card declined: the payment was cancelled');
    }
    if (confirmed.status === 'processing') confirmed = await this.retrieve(intent.id, deadline);
    switch (confirmed.status) {
      case 'succeeded':
        return chargeOf(confirmed);
      case 'requires_action':
        // 3-D Secure and the like need the cardholder, who is not there: the payment
        // is cancelled at once so that it can never complete later.
        await this.cancel(confirmed.id, deadline);
        throw new DomainError(
          'PAYMENT_DECLINED',
          'card declined: the card issuer asks the cardholder to authenticate the payment (3-D Secure), which a booking through the API cannot do; use another card',
        );
      case 'requires_payment_method':
        throw new DomainError('PAYMENT_DECLINED', `card declined: ${confirmed.last_payment_error?.message ?? 'the card was not accepted'}`);
      default:
        // Not settled (processing): the saga asks again later with closeKey.
        throw new CardProcessorUnavailable(`Stripe payment ${confirmed.id} is ${confirmed.status}; its outcome is asked again later`);
    }
  }

  async closeKey(key: string, price: CardAmount): Promise<CardCharge | null> {
    const deadline = Date.now() + this.settings.operationDeadlineMs;
    const amount = toStripeAmount(price.amount, price.currency);
    // An amount Stripe cannot take was refused before anything was sent.
    if (amount === null) return null;
    let intent: Stripe.PaymentIntent;
    try {
      intent = await this.create(key, amount, price.currency, deadline);
    } catch (error) {
      // Stripe refused the create itself (its parameters): nothing was ever created under the key.
      if (error instanceof Stripe.errors.StripeInvalidRequestError && !(error instanceof Stripe.errors.StripeIdempotencyError)) return null;
      throw declineOf(error, key);
    }
    for (let attempt = 0; attempt < 2; attempt++) {
      const current = await this.retrieve(intent.id, deadline);
      if (current.status === 'succeeded') return chargeOf(current);
      if (current.status === 'canceled') return null;
      if (current.status === 'processing') break;
      try {
        await this.cancel(current.id, deadline);
        return null;
      } catch (error) {
        // The confirm got there first: read it again.
        if (!isUnexpectedState(error)) throw declineOf(error, key);
      }
    }
    throw new CardProcessorUnavailable(`Stripe payment ${intent.id} for ${key} is still being processed; asked again later`);
  }

  async refund(paymentId: string, refund: CardAmount, key: string): Promise<void> {
    const deadline = Date.now() + this.settings.operationDeadlineMs;
    // Stripe cannot move KWD 0.005: what it can that is not less than owed (never more than the charge, which Stripe could take).
    const amount = toStripeAmount(refund.amount, refund.currency, 'up')!;
    let created: Stripe.Refund;
    try {
      created = await this.send(deadline, (options) =>
        this.stripe.refunds.create({ payment_intent: paymentId, amount, metadata: { refund_key: key } }, { ...options, idempotencyKey: this.idempotencyKey(key, 'refund') }),
      );
    } catch (error) {
      if (error instanceof Stripe.errors.StripeInvalidRequestError) throw new DomainError('CONFLICT', `refund ${key} of ${refund.currency} ${refund.amount} for ${paymentId} is not possible: ${error.message}`);
      throw error;
    }
    if (created.status === 'failed' || created.status === 'canceled') {
      throw new DomainError('CONFLICT', `refund ${key} for ${paymentId} ${created.status}: ${created.failure_reason ?? 'no reason given'}`);
    }
  }

  /** The PaymentIntent of a payment key: created once, unconfirmed; sent again, the same one. */
  private create(key: string, amount: number, currency: string, deadline: number): Promise<Stripe.PaymentIntent> {
    return this.send(deadline, (options) =>
      this.stripe.paymentIntents.create(
        // Confirmed by the server with no customer to send anywhere: no redirect-based payment methods.
        { amount, currency: currency.toLowerCase(), automatic_payment_methods: { enabled: true, allow_redirects: 'never' }, metadata: { payment_key: key } },
        { ...options, idempotencyKey: this.idempotencyKey(key, 'create') },
      ),
    );
  }

  private retrieve(id: string, deadline: number): Promise<Stripe.PaymentIntent> {
    return this.send(deadline, (options) => this.stripe.paymentIntents.retrieve(id, {}, options));
  }

  /**
   * Cancelling is harmless to repeat (a second cancel fails, and the state is read
   * again), so it goes under the SDK's own idempotency key, new for each call: a
   * fixed key would replay a first refusal (the payment was processing) for ever.
   */
  private cancel(id: string, deadline: number): Promise<Stripe.PaymentIntent> {
    return this.send(deadline, (options) => this.stripe.paymentIntents.cancel(id, {}, options));
  }

  private idempotencyKey(key: string, step: 'create' | 'confirm' | 'refund'): string {
    return `${this.settings.keyspace}/${key}/${step}`;
  }

  /**
   * One request within the operation's deadline, through the circuit breaker. The
   * deadline is kept here as well as by the SDK's timeout (which starts only once
   * a pooled connection is free): past it the request is left to finish on its own
   * (its idempotency key makes it harmless) and the outcome counts as unknown.
   */
  private async send<T>(deadline: number, request: (options: Stripe.RequestOptions) => Promise<T>): Promise<T> {
    const left = deadline - Date.now();
    if (left <= 0) throw new CardProcessorUnavailable('the card processor did not answer in time');
    this.breaker.admit();
    let timer: NodeJS.Timeout | undefined;
    const pending = request({ timeout: Math.min(this.settings.attemptTimeoutMs, left), maxNetworkRetries: this.settings.maxNetworkRetries });
    const overdue = new Promise<never>((_resolve, reject) => {
      timer = setTimeout(() => reject(new CardProcessorUnavailable(`the card processor did not answer within ${left} ms`)), left);
    });
    try {
      const answer = await Promise.race([pending, overdue]);
      this.breaker.succeeded();
      return answer;
    } catch (error) {
      if (isTransportFailure(error)) {
        if (this.breaker.failed()) this.logger.warn({ msg: `card processor unreachable: failing fast for ${BREAKER.openMs / 1000} s`, error: String(error) });
        throw error instanceof CardProcessorUnavailable ? error : new CardProcessorUnavailable(`card processor unreachable: ${(error as Error).message}`);
      }
      this.breaker.succeeded();
      throw error;
    } finally {
      clearTimeout(timer);
      pending.catch(() => undefined);
    }
  }
}

/**
 * After `threshold` transport failures in a row the circuit opens: calls fail at
 * once for `openMs`; then calls go through again, and the first failure opens it
 * again where a success closes it. It spares a Stripe outage the saga's retries
 * and keeps bookings from waiting out a deadline each.
 */
export class CircuitBreaker {
  private failures = 0;
  private openUntil = 0;

  constructor(
    private readonly threshold: number,
    private readonly openMs: number,
    private readonly now: () => number = Date.now,
  ) {}

  admit(): void {
    if (this.now() < this.openUntil) throw new CardProcessorUnavailable('card processor unreachable (circuit open): asked again later');
  }

  succeeded(): void {
    this.failures = 0;
  }

  /** Counts a failure; true when it opens the circuit. */
  failed(): boolean {
    if (++this.failures < this.threshold) return false;
    this.failures = this.threshold - 1;
    this.openUntil = this.now() + this.openMs;
    return true;
  }
}

function chargeOf(intent: Stripe.PaymentIntent): CardCharge {
  return { paymentId: intent.id, amount: fromStripeAmount(intent.amount_received || intent.amount, intent.currency.toUpperCase()) };
}

/** Network, timeout, 429, 409 or 5xx: Stripe's answer is unknown or deferred, worth asking again. */
function isTransportFailure(error: unknown): boolean {
  return (
    error instanceof CardProcessorUnavailable ||
    error instanceof Stripe.errors.StripeConnectionError ||
    error instanceof Stripe.errors.StripeRateLimitError ||
    error instanceof Stripe.errors.StripeAPIError
  );
}

function isUnexpectedState(error: unknown): boolean {
  return error instanceof Stripe.errors.StripeInvalidRequestError && error.code === 'payment_intent_unexpected_state';
}

/**
 * What a failed Stripe request means for the booking: a card error or a request
 * Stripe refused (an unknown payment method, an amount below Stripe's minimum) is
 * a decline with Stripe's reason; a key used for another payment is a conflict;
 * anything else (transport, authentication) is not the card's fault and goes up
 * unchanged, to be retried.
 */
function declineOf(error: unknown, key: string): unknown {
  if (error instanceof Stripe.errors.StripeCardError) {
    return new DomainError('PAYMENT_DECLINED', `card declined (${error.decline_code ?? error.code ?? 'card_error'}): ${error.message}`);
  }
  if (error instanceof Stripe.errors.StripeIdempotencyError) return new DomainError('CONFLICT', `payment key ${key} was used for another payment`);
  if (error instanceof Stripe.errors.StripeInvalidRequestError) return new DomainError('PAYMENT_DECLINED', `card declined: ${error.message}`);
  return error;
}
