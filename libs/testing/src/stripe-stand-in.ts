import { randomBytes } from 'node:crypto';
import { IncomingHttpHeaders, IncomingMessage, Server, ServerResponse, createServer } from 'node:http';
import { AddressInfo } from 'node:net';

/** A request the stand-in received, and how it answered. */
export interface StripeRequest {
  method: string;
  path: string;
  headers: IncomingHttpHeaders;
  /** The form-encoded body as sent: `metadata[payment_key]` stays one key. */
  form: Record<string, string>;
  idempotencyKey?: string;
  status?: number;
  /** Answered from the idempotency record of an earlier request. */
  replayed: boolean;
}

/**
 * A fault for the next matching request:
 * - `status`: answered with that error (500, 503, 429…) before the endpoint runs: nothing is saved under the key;
 * - `delay`: the endpoint runs, the answer comes `ms` later;
 * - `drop`: the endpoint runs, the connection is closed unanswered (the answer was lost);
 * - `hold`: the request waits for `until`, then runs (a request still in flight).
 */
export type StripeFault = { kind: 'status'; status: number } | { kind: 'delay'; ms: number } | { kind: 'drop' } | { kind: 'hold'; until: Promise<unknown> };

/** A PaymentIntent as Stripe's API writes it (the fields the stand-in keeps). */
export interface StandInPaymentIntent {
  id: string;
  object: 'payment_intent';
  amount: number;
  amount_capturable: number;
  amount_received: number;
  automatic_payment_methods: { enabled: boolean; allow_redirects?: string } | null;
  canceled_at: number | null;
  cancellation_reason: string | null;
  capture_method: string;
  client_secret: string;
  confirmation_method: string;
  created: number;
  currency: string;
  description: string | null;
  last_payment_error: StripeErrorBody | null;
  latest_charge: string | null;
  livemode: boolean;
  metadata: Record<string, string>;
  next_action: { type: string; use_stripe_sdk?: Record<string, unknown> } | null;
  payment_method: string | null;
  payment_method_types: string[];
  status: 'requires_payment_method' | 'requires_confirmation' | 'requires_action' | 'processing' | 'requires_capture' | 'canceled' | 'succeeded';
}

export interface StandInRefund {
  id: string;
  object: 'refund';
  amount: number;
  charge: string | null;
  created: number;
  currency: string;
  metadata: Record<string, string>;
  payment_intent: string;
  reason: string | null;
  status: 'succeeded';
}

interface StripeErrorBody {
  type: 'api_error' | 'card_error' | 'idempotency_error' | 'invalid_request_error';
  message: string;
  code?: string;
  decline_code?: string;
  param?: string;
  payment_intent?: StandInPaymentIntent;
  charge?: string;
  doc_url?: string;
}

class StripeApiError extends Error {
  constructor(
    readonly status: number,
    readonly body: StripeErrorBody,
    /** Raised before the endpoint ran (parameters refused): Stripe saves nothing under the key. */
    readonly beforeExecution = false,
  ) {
    super(body.message);
  }
}

/** Stripe's documented test payment methods: what confirming with each does. */
const TEST_PAYMENT_METHODS: Record<string, 'succeed' | 'authenticate' | { decline_code: string; message: string; code?: string }> = {
  pm_card_visa: 'succeed',
  pm_card_mastercard: 'succeed',
  pm_card_amex: 'succeed',
  pm_card_visa_debit: 'succeed',
  pm_card_authenticationRequired: 'authenticate',
  pm_card_threeDSecure2Required: 'authenticate',
  pm_card_chargeDeclined: { decline_code: 'generic_decline', message: 'Your card was declined.' },
  pm_card_visa_chargeDeclined: { decline_code: 'generic_decline', message: 'Your card was declined.' },
  pm_card_chargeDeclinedInsufficientFunds: { decline_code: 'insufficient_funds', message: 'Your card has insufficient funds.' },
  pm_card_visa_chargeDeclinedInsufficientFunds: { decline_code: 'insufficient_funds', message: 'Your card has insufficient funds.' },
  pm_card_chargeDeclinedExpiredCard: { code: 'expired_card', decline_code: 'expired_card', message: 'Your card has expired.' },
};

const CREATE_PARAMS = ['amount', 'currency', 'automatic_payment_methods', 'payment_method_types', 'metadata', 'description', 'payment_method', 'confirm', 'capture_method', 'statement_descriptor_suffix'];
const CANCELABLE = ['requires_payment_method', 'requires_capture', 'requires_confirmation', 'requires_action', 'processing'];
const CONFIRMABLE = ['requires_payment_method', 'requires_confirmation', 'requires_action'];
const THREE_DECIMAL = ['bhd', 'jod', 'kwd', 'omr', 'tnd'];

/**
 * A stand-in for Stripe's API on 127.0.0.1, for tests: PaymentIntents (create,
 * confirm, cancel, retrieve) and Refunds, with Stripe's documented behaviour and
 * shapes (objects, error bodies and statuses, idempotent requests), and checks of
 * what a client sends: `Authorization: Bearer <the secret key>`, an
 * `Idempotency-Key` on every POST, form-encoded bodies, known parameters, amounts
 * in the currency's minor unit. What breaks a check is answered 400 (401 for the
 * key) and listed in `violations`.
 */
export class StripeStandIn {
  readonly requests: StripeRequest[] = [];
  /** What a client sent that Stripe would refuse, or that the platform's rules forbid (a POST without Idempotency-Key). */
  readonly violations: string[] = [];
  readonly paymentIntents = new Map<string, StandInPaymentIntent>();
  readonly refunds = new Map<string, StandInRefund>();
  private readonly saved = new Map<string, { endpoint: string; params: string; status: number; body: unknown }>();
  private readonly faults: { method: string; path: RegExp; fault: StripeFault }[] = [];

  private constructor(
    private readonly server: Server,
    readonly url: string,
    readonly secretKey: string,
  ) {}

  static async start(secretKey = 'sk_test_standin0000000000000000'): Promise<StripeStandIn> {
    const server = createServer();
    await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
    const standIn = new StripeStandIn(server, `http://127.0.0.1:${(server.address() as AddressInfo).port}`, secretKey);
    server.on('request', (request: IncomingMessage, response: ServerResponse) => {
      const chunks: Buffer[] = [];
      request.on('data', (chunk: Buffer) => chunks.push(chunk));
      request.on('end', () =>
        standIn.handle(request, Buffer.concat(chunks).toString('utf8'), response).catch((error) => {
          standIn.violations.push(`the stand-in failed: ${error}`);
          if (!response.headersSent) response.writeHead(500).end();
        }),
      );
    });
    return standIn;
  }

  /** The next requests matching `method` and `path` meet these faults, one each, in order. */
  inject(method: 'GET' | 'POST', path: RegExp, ...faults: StripeFault[]): void {
    for (const fault of faults) this.faults.push({ method, path, fault });
  }

  /** The requests to a path (a pattern), in order. */
  at(method: string, path: RegExp): StripeRequest[] {
    return this.requests.filter((request) => request.method === method && path.test(request.path));
  }

  /** The PaymentIntents created under a booking's payment key (metadata.payment_key). */
  intentsFor(paymentKey: string): StandInPaymentIntent[] {
    return [...this.paymentIntents.values()].filter((intent) => intent.metadata.payment_key === paymentKey);
  }

  async close(): Promise<void> {
    this.server.closeAllConnections();
    await new Promise((resolve) => this.server.close(resolve));
  }

  private async handle(request: IncomingMessage, text: string, response: ServerResponse) {
    const method = request.method ?? 'GET';
    const path = (request.url ?? '/').split('?')[0];
    const key = header(request.headers, 'idempotency-key');
    const record: StripeRequest = { method, path, headers: request.headers, form: Object.fromEntries(new URLSearchParams(text)), idempotencyKey: key, replayed: false };
    this.requests.push(record);
    const answer = (status: number, body: unknown, extra: Record<string, string> = {}) => {
      record.status = status;
      response.writeHead(status, { 'content-type': 'application/json', 'request-id': `req_${token(14)}`, ...(key && { 'idempotency-key': key }), ...extra });
      response.end(JSON.stringify(body));
    };
    const fault = this.takeFault(method, path);
    if (fault?.kind === 'status') return answer(fault.status, { error: faultBody(fault.status) });
    if (fault?.kind === 'hold') await fault.until;

    const refused = this.refusal(request, method, text, key);
    if (refused) return answer(refused.status, { error: refused.body });
    const endpoint = `${method} ${path}`;
    const params = canonical(record.form);
    const savedKey = key && method === 'POST' ? `${this.secretKey}:${key}` : undefined;
    const saved = savedKey ? this.saved.get(savedKey) : undefined;
    let outcome: { status: number; body: unknown; headers?: Record<string, string> };
    if (saved && (saved.endpoint !== endpoint || saved.params !== params)) {
      const message = `Keys for idempotent requests can only be used with the same parameters they were first used with. Try using a key other than '${key}' if you meant to execute a different request.`;
      return answer(400, { error: { type: 'idempotency_error', message } });
    } else if (saved) {
      record.replayed = true;
      outcome = { status: saved.status, body: saved.body, headers: { 'idempotent-replayed': 'true' } };
    } else {
      try {
        outcome = { status: 200, body: this.execute(method, path, nested(record.form)) };
      } catch (error) {
        if (!(error instanceof StripeApiError)) throw error;
        if (error.beforeExecution) return answer(error.status, { error: error.body });
        outcome = { status: error.status, body: { error: error.body } };
      }
      if (savedKey) this.saved.set(savedKey, { endpoint, params, ...outcome });
    }
    if (fault?.kind === 'drop') {
      record.status = 0;
      return response.socket?.destroy();
    }
    // Unref'd: a test that ends before the answer is due is not kept waiting for it.
    if (fault?.kind === 'delay') await new Promise((resolve) => setTimeout(resolve, fault.ms).unref());
    if (!response.destroyed) answer(outcome.status, outcome.body, outcome.headers);
  }

  private takeFault(method: string, path: string): StripeFault | undefined {
    const index = this.faults.findIndex((entry) => entry.method === method && entry.path.test(path));
    return index < 0 ? undefined : this.faults.splice(index, 1)[0].fault;
  }

  /** What Stripe (or the platform's rules) refuses before looking at the endpoint. */
  private refusal(request: IncomingMessage, method: string, text: string, key: string | undefined): { status: number; body: StripeErrorBody } | null {
    const authorization = header(request.headers, 'authorization');
    if (authorization !== `Bearer ${this.secretKey}`) {
      this.violations.push(`${method} ${request.url}: Authorization is not "Bearer ${this.secretKey}"`);
      return { status: 401, body: { type: 'invalid_request_error', message: `Invalid API Key provided: ${(authorization ?? '').replace(/^Bearer /, '').slice(0, 8)}****` } };
    }
    const problems: string[] = [];
    if (method === 'POST' && !key) problems.push('a POST without Idempotency-Key');
    if (method === 'POST' && !/^application\/x-www-form-urlencoded/.test(header(request.headers, 'content-type') ?? '')) problems.push('a POST body that is not form-encoded');
    if (method === 'GET' && text) problems.push('a GET with a body');
    if (!header(request.headers, 'stripe-version')) problems.push('no Stripe-Version');
    if (!problems.length) return null;
    this.violations.push(...problems.map((problem) => `${method} ${request.url}: ${problem}`));
    return { status: 400, body: { type: 'invalid_request_error', message: `Stripe stand-in refuses ${problems.join(', ')}` } };
  }

  private execute(method: string, path: string, params: Params): unknown {
    let match: RegExpExecArray | null;
    if (method === 'POST' && path === '/v1/payment_intents') return this.createIntent(params);
    if (method === 'POST' && path === '/v1/refunds') return this.createRefund(params);
    if ((match = /^\/v1\/payment_intents\/([^/]+)\/confirm$/.exec(path)) && method === 'POST') return this.confirm(this.intent(match[1]), params);
    if ((match = /^\/v1\/payment_intents\/([^/]+)\/cancel$/.exec(path)) && method === 'POST') return this.cancel(this.intent(match[1]), params);
    if ((match = /^\/v1\/payment_intents\/([^/]+)$/.exec(path)) && method === 'GET') return this.intent(match[1]);
    throw new StripeApiError(404, { type: 'invalid_request_error', message: `Unrecognized request URL (${method}: ${path}).` }, true);
  }

  private createIntent(params: Params): StandInPaymentIntent {
    const unknown = Object.keys(params).find((name) => !CREATE_PARAMS.includes(name));
    if (unknown) throw invalid(`Received unknown parameter: ${unknown}`, 'parameter_unknown', unknown);
    const amount = integer(params.amount, 'amount');
    const currency = params.currency;
    if (typeof currency !== 'string') throw invalid('Missing required param: currency.', 'parameter_missing', 'currency');
    if (!/^[a-z]{3}$/.test(currency)) throw invalid(`Invalid currency: ${currency}. Stripe currently supports these currencies: usd, eur, jpy, kwd, … (lower case)`, 'parameter_invalid_string', 'currency');
    if (THREE_DECIMAL.includes(currency) && amount % 10 !== 0) {
      throw invalid(`Invalid amount: ${currency.toUpperCase()} amounts must have 0 as their last digit (round to the nearest ten).`, 'invalid_charge_amount', 'amount');
    }
    if (currency === 'isk' && amount % 100 !== 0) {
      throw invalid('Invalid amount. Currency ISK has become effectively zero-decimal and charged amounts must be evenly divisible by 100.', 'invalid_charge_amount_no_decimal_compatible', 'amount');
    }
    if (currency === 'usd' && amount < 50) throw invalid('Amount must be at least $0.50 usd', 'amount_too_small', 'amount');
    if (amount > 99_999_999) throw invalid('Amount must be no more than 99,999,999 (eight digits).', 'amount_too_large', 'amount');
    const automatic = params.automatic_payment_methods as Params | undefined;
    const id = `pi_${token(24)}`;
    const intent: StandInPaymentIntent = {
      id,
      object: 'payment_intent',
      amount,
      amount_capturable: 0,
      amount_received: 0,
      automatic_payment_methods: automatic ? { enabled: automatic.enabled === 'true', ...(typeof automatic.allow_redirects === 'string' && { allow_redirects: automatic.allow_redirects }) } : null,
      canceled_at: null,
      cancellation_reason: null,
      capture_method: typeof params.capture_method === 'string' ? params.capture_method : 'automatic_async',
      client_secret: `${id}_secret_${token(24)}`,
      confirmation_method: 'automatic',
      created: now(),
      currency,
      description: typeof params.description === 'string' ? params.description : null,
      last_payment_error: null,
      latest_charge: null,
      livemode: this.secretKey.startsWith('sk_live_'),
      metadata: (params.metadata as Record<string, string> | undefined) ?? {},
      next_action: null,
      payment_method: null,
      payment_method_types: params.payment_method_types ? Object.values(params.payment_method_types as Params).map(String) : ['card'],
      status: 'requires_payment_method',
    };
    this.paymentIntents.set(id, intent);
    if (typeof params.payment_method === 'string') intent.payment_method = this.paymentMethod(params.payment_method);
    if (params.confirm === 'true') return this.confirm(intent, {});
    if (intent.payment_method) intent.status = 'requires_confirmation';
    return intent;
  }

  private confirm(intent: StandInPaymentIntent, params: Params): StandInPaymentIntent {
    expectStatus(intent, CONFIRMABLE, 'confirm', 'confirmed');
    if (typeof params.payment_method === 'string') intent.payment_method = this.paymentMethod(params.payment_method);
    if (!intent.payment_method) {
      throw invalid('You cannot confirm this PaymentIntent because it’s missing a payment method. Update the PaymentIntent with a payment method and then confirm it again.', 'payment_intent_unexpected_state');
    }
    const outcome = TEST_PAYMENT_METHODS[intent.payment_method];
    if (outcome === 'succeed') {
      Object.assign(intent, { status: 'succeeded', amount_received: intent.amount, latest_charge: `ch_${token(24)}`, last_payment_error: null, next_action: null });
    } else if (outcome === 'authenticate') {
      Object.assign(intent, { status: 'requires_action', next_action: { type: 'use_stripe_sdk', use_stripe_sdk: { type: 'three_d_secure_redirect', stripe_js: 'https://hooks.stripe.com/3d_secure_2/hosted' } } });
    } else {
      const decline = outcome as { decline_code: string; message: string; code?: string };
      const charge = `ch_${token(24)}`;
      const error: StripeErrorBody = {
        type: 'card_error',
        code: decline.code ?? 'card_declined',
        decline_code: decline.decline_code,
        message: decline.message,
        charge,
        doc_url: `https://stripe.com/docs/error-codes/${(decline.code ?? 'card_declined').replace(/_/g, '-')}`,
      };
      Object.assign(intent, { status: 'requires_payment_method', latest_charge: charge, last_payment_error: error, payment_method: null });
      throw new StripeApiError(402, { ...error, payment_intent: { ...intent } });
    }
    return { ...intent };
  }

  private cancel(intent: StandInPaymentIntent, params: Params): StandInPaymentIntent {
    expectStatus(intent, CANCELABLE, 'cancel', 'canceled');
    Object.assign(intent, { status: 'canceled', canceled_at: now(), cancellation_reason: typeof params.cancellation_reason === 'string' ? params.cancellation_reason : null, next_action: null });
    return { ...intent };
  }

  private createRefund(params: Params): StandInRefund {
    const unknown = Object.keys(params).find((name) => !['payment_intent', 'amount', 'metadata', 'reason'].includes(name));
    if (unknown) throw invalid(`Received unknown parameter: ${unknown}`, 'parameter_unknown', unknown);
    if (typeof params.payment_intent !== 'string') throw invalid('Missing required param: payment_intent.', 'parameter_missing', 'payment_intent');
    const intent = this.paymentIntents.get(params.payment_intent);
    if (!intent) throw new StripeApiError(400, { type: 'invalid_request_error', code: 'resource_missing', param: 'payment_intent', message: `No such payment_intent: '${params.payment_intent}'` }, true);
    if (intent.status !== 'succeeded') throw invalid(`This PaymentIntent (${intent.id}) does not have a successful charge to refund.`, 'charge_not_refundable', 'payment_intent');
    const refunded = [...this.refunds.values()].filter((refund) => refund.payment_intent === intent.id).reduce((sum, refund) => sum + refund.amount, 0);
    const left = intent.amount_received - refunded;
    if (left === 0) throw invalid(`Charge ${intent.latest_charge} has already been refunded.`, 'charge_already_refunded');
    const amount = params.amount === undefined ? left : integer(params.amount, 'amount');
    if (amount > left) throw invalid(`Refund amount (${amount}) is greater than unrefunded amount on charge (${left})`, 'amount_too_large', 'amount');
    const refund: StandInRefund = {
      id: `re_${token(24)}`,
      object: 'refund',
      amount,
      charge: intent.latest_charge,
      created: now(),
      currency: intent.currency,
      metadata: (params.metadata as Record<string, string> | undefined) ?? {},
      payment_intent: intent.id,
      reason: typeof params.reason === 'string' ? params.reason : null,
      status: 'succeeded',
    };
    this.refunds.set(refund.id, refund);
    return refund;
  }

  private intent(id: string): StandInPaymentIntent {
    const intent = this.paymentIntents.get(id);
    if (!intent) throw new StripeApiError(404, { type: 'invalid_request_error', code: 'resource_missing', param: 'intent', message: `No such payment_intent: '${id}'` }, true);
    return intent;
  }

  private paymentMethod(id: string): string {
    if (!(id in TEST_PAYMENT_METHODS)) throw new StripeApiError(400, { type: 'invalid_request_error', code: 'resource_missing', param: 'payment_method', message: `No such PaymentMethod: '${id}'` }, true);
    return id;
  }
}

type Params = { [name: string]: string | Params };

/** Stripe's answer to an operation on a PaymentIntent in a status that does not allow it. */
function expectStatus(intent: StandInPaymentIntent, allowed: string[], verb: string, done: string): void {
  if (allowed.includes(intent.status)) return;
  throw new StripeApiError(400, {
    type: 'invalid_request_error',
    code: 'payment_intent_unexpected_state',
    message: `You cannot ${verb} this PaymentIntent because it has a status of ${intent.status}. Only a PaymentIntent with one of the following statuses may be ${done}: ${allowed.join(', ')}.`,
    payment_intent: { ...intent },
  });
}

/** `a[b][c]=v` form fields as nested objects, as Stripe reads them. */
function nested(form: Record<string, string>): Params {
  const root: Params = {};
  for (const [name, value] of Object.entries(form)) {
    const [head, ...rest] = name.split('[').map((part) => part.replace(/]$/, ''));
    let node = root;
    const path = [head, ...rest];
    for (const part of path.slice(0, -1)) node = (node[part] ??= {}) as Params;
    node[path[path.length - 1]] = value;
  }
  return root;
}

/** The parameters of a request, independent of their order: what idempotency compares. */
function canonical(form: Record<string, string>): string {
  return JSON.stringify(Object.entries(form).sort(([a], [b]) => a.localeCompare(b)));
}

function integer(value: string | Params | undefined, name: string): number {
  if (typeof value !== 'string') throw invalid(`Missing required param: ${name}.`, 'parameter_missing', name);
  if (!/^[1-9]\d*$/.test(value)) throw invalid(`Invalid positive integer: ${value}`, 'parameter_invalid_integer', name);
  return Number(value);
}

function invalid(message: string, code: string, param?: string): StripeApiError {
  return new StripeApiError(400, { type: 'invalid_request_error', code, message, ...(param && { param }) }, code.startsWith('parameter_'));
}

function faultBody(status: number): StripeErrorBody {
  if (status === 429) return { type: 'invalid_request_error', code: 'rate_limit', message: 'Too many requests hit the API too quickly.' };
  return { type: 'api_error', message: 'An unknown error occurred' };
}

function header(headers: IncomingHttpHeaders, name: string): string | undefined {
  const value = headers[name];
  return Array.isArray(value) ? value[0] : value;
}

function token(length: number): string {
  return randomBytes(length).toString('base64url').replace(/[-_]/g, 'x').slice(0, length);
}

function now(): number {
  return Math.floor(Date.now() / 1000);
}
