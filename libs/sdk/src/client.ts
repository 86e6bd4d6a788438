import { OPERATIONS } from './openapi-operations';
import { PollOptions, pollUntilComplete } from './polling';
import { RetryEvent, RetryOptions, sleep } from './retry';
import { CallOptions, Transport } from './transport';
import type {
  BookCreateBody,
  HotelRatesData,
  JsonBody,
  OperationId,
  PathParams,
  QueryParams,
  Result,
  SearchBody,
  SearchData,
  TestScenario,
  V2BookBody,
} from './types';

export interface HotelClientOptions {
  /** The gateway, e.g. `https://localhost:8443` (the booking API at its root, the backend API under `/api`). */
  baseUrl: string;
  /**
   * The booking API's credential: `sandbox_api_key` (`hb_test_…`: the sandbox, whose
   * bookings are tests), `api_key` (`hb_live_…`) or a user token (`hb_user_…`, live).
   */
  apiKey?: string;
  /** The backend API's credential: `backend_token` (`hb_back_…`) or a user token. */
  backendToken?: string;
  /** The longest wait for one attempt's answer (default 30 s). */
  timeoutMs?: number;
  /** Retries after 429, 503 and no answer (see RetryOptions); false: none. */
  retry?: RetryOptions | false;
  /**
   * Whether a book call without `idempotency_key` gets a generated one (default true). A
   * book is only ever retried with its key: false leaves key-less books unretried.
   */
  autoIdempotencyKey?: boolean;
  /** A fetch to use instead of the global one (a test double, a proxying fetch). */
  fetch?: typeof fetch;
  /**
   * Handed to fetch with every call: Node's fetch takes an undici `dispatcher` (an Agent
   * with a `connect.ca` to trust a private certificate, a proxy). Alternatively start Node
   * with `NODE_EXTRA_CA_CERTS=<file>`.
   */
  dispatcher?: unknown;
  /** Told before each retry: which attempt failed, why, and the wait. */
  onRetry?: (event: RetryEvent) => void;
  /** Waits between retries and polls (default: timers). */
  sleep?: (ms: number, signal?: AbortSignal) => Promise<void>;
}

/** Options of the calls that take `X-Test-Scenario` (prebook and book, V1 and V2). */
export interface ScenarioCallOptions extends CallOptions {
  /** Forces an outcome; sandbox keys only (the SDK refuses it with any other credential). */
  testScenario?: TestScenario;
}

/** A new `idempotency_key`: a random UUID (the platform takes 1–128 printable ASCII characters). */
export function newIdempotencyKey(): string {
  return globalThis.crypto.randomUUID();
}

interface CallInput {
  path?: Record<string, string | number>;
  query?: Record<string, string | number | boolean | undefined | null>;
  body?: unknown;
  testScenario?: TestScenario;
  /** Overrides the operation's rule (a book without a key is never retried). */
  retryable?: boolean;
  /** How a 2xx body is read (default JSON). */
  read?: 'json' | 'bytes';
  /** The `Idempotency-Key` header (a manual ledger post). */
  idempotencyKey?: string;
}

/**
 * A client of the platform's booking API (V1 and V2) and backend API. Each method is named
 * after its operation's `operationId` in the OpenAPI document and resolves with the
 * answer's `data` (a `Page` for lists); a failure throws `HotelApiError` (an answer) or
 * `HotelNetworkError` (none).
 */
export class HotelClient {
  /** Whether the booking API key is a sandbox key (`hb_test_…`): its bookings are tests and move no money. */
  readonly isSandbox: boolean;
  /** `sandbox` or `live`, by the booking API key. */
  readonly environment: 'sandbox' | 'live';
  private readonly baseUrl: URL;
  private readonly transport: Transport;
  private readonly sleep: (ms: number, signal?: AbortSignal) => Promise<void>;

  constructor(private readonly options: HotelClientOptions) {
    if (options.apiKey?.startsWith('hb_back_')) throw new TypeError('a backend token goes in backendToken, not apiKey');
    if (/^hb_(live|test)_/.test(options.backendToken ?? '')) throw new TypeError('an API key goes in apiKey, not backendToken');
    this.isSandbox = options.apiKey?.startsWith('hb_test_') ?? false;
    this.environment = this.isSandbox ? 'sandbox' : 'live';
    this.baseUrl = new URL(options.baseUrl.endsWith('/') ? options.baseUrl : `${options.baseUrl}/`);
    this.sleep = options.sleep ?? sleep;
    this.transport = new Transport({
      fetch: options.fetch ?? ((...args) => globalThis.fetch(...args)),
      dispatcher: options.dispatcher,
      timeoutMs: options.timeoutMs ?? 30_000,
      retry: options.retry ?? {},
      onRetry: options.onRetry,
      sleep: this.sleep,
      now: () => Date.now(),
    });
  }

  // ---- Health (no credential) ----

  getLiveness(options?: CallOptions): Promise<Result<'getLiveness'>> {
    return this.call('getLiveness', {}, options);
  }

  getReadiness(options?: CallOptions): Promise<Result<'getReadiness'>> {
    return this.call('getReadiness', {}, options);
  }

  // ---- Booking API, V1 ----

  /** Which client and user the key acts for, and whether it is a sandbox key. */
  getIdentity(options?: CallOptions): Promise<Result<'getIdentity'>> {
    return this.call('getIdentity', {}, options);
  }

  searchPlaces(query: QueryParams<'searchPlaces'>, options?: CallOptions): Promise<Result<'searchPlaces'>> {
    return this.call('searchPlaces', { query }, options);
  }

  /** Starts a search (or, with `{session_id}` alone, polls one); see searchUntilComplete. */
  searchHotels(body: JsonBody<'searchHotels'>, options?: CallOptions): Promise<Result<'searchHotels'>> {
    return this.call('searchHotels', { body }, options);
  }

  pollSearch(sessionId: string, options?: CallOptions): Promise<Result<'pollSearch'>> {
    return this.call('pollSearch', { path: { session_id: sessionId } }, options);
  }

  /** Starts a search and polls it until `search_completed` (or `timeoutMs`: then the last answer). */
  async searchUntilComplete(body: SearchBody, options: PollOptions = {}): Promise<SearchData> {
    const first = await this.searchHotels(body, { signal: options.signal });
    return this.pollSearchUntilComplete(first, options);
  }

  /** Polls a search, by its session id or its first answer, until `search_completed`. */
  async pollSearchUntilComplete(search: string | SearchData, options: PollOptions = {}): Promise<SearchData> {
    const sessionId = typeof search === 'string' ? search : search.session_id;
    const next = () => this.pollSearch(sessionId, { signal: options.signal });
    return pollUntilComplete(typeof search === 'string' ? await next() : search, next, options, this.clock());
  }

  getHotelRates(params: PathParams<'getHotelRates'>, options?: CallOptions): Promise<Result<'getHotelRates'>> {
    return this.call('getHotelRates', { path: params }, options);
  }

  /** Reads a hotel's rates in a search and polls them until `search_completed`. */
  async hotelRatesUntilComplete(params: PathParams<'getHotelRates'>, options: PollOptions = {}): Promise<HotelRatesData> {
    const next = () => this.getHotelRates(params, { signal: options.signal });
    return pollUntilComplete(await next(), next, options, this.clock());
  }

  /** V1 prebook of a rate: the path's four values, and `promo_code` if any. */
  prebookRate(params: PathParams<'prebookRate'> & QueryParams<'prebookRate'>, options?: ScenarioCallOptions): Promise<Result<'prebookRate'>> {
    const { promo_code, ...path } = params;
    return this.call('prebookRate', { path, query: { promo_code }, testScenario: options?.testScenario }, options);
  }

  validatePromoCode(body: JsonBody<'validatePromoCode'>, options?: CallOptions): Promise<Result<'validatePromoCode'>> {
    return this.call('validatePromoCode', { body }, options);
  }

  /**
   * V1 book of a prebooked rate. Without `idempotency_key` the SDK generates one, so a
   * retry (after a 503, 429 or no answer) repeats this booking instead of making another.
   */
  bookRate(rate: PathParams<'bookRate'>, body: BookCreateBody, options?: ScenarioCallOptions): Promise<Result<'bookRate'>> {
    const keyed = this.withIdempotencyKey(body);
    return this.call('bookRate', { path: rate, body: keyed, testScenario: options?.testScenario, retryable: keyed.idempotency_key !== undefined }, options);
  }

  listBookings(query: QueryParams<'listBookings'> = {}, options?: CallOptions): Promise<Result<'listBookings'>> {
    return this.call('listBookings', { query }, options);
  }

  previewCancellation(bookingId: number, options?: CallOptions): Promise<Result<'previewCancellation'>> {
    return this.call('previewCancellation', { path: { booking_id: bookingId } }, options);
  }

  cancelBooking(bookingId: number, options?: CallOptions): Promise<Result<'cancelBooking'>> {
    return this.call('cancelBooking', { path: { booking_id: bookingId } }, options);
  }

  /**
   * The voucher PDF of a confirmed booking, by its `voucher_url` (a signed link that needs
   * no credential: none is sent with it) or by the link's values.
   */
  async getVoucher(voucher: string | PathParams<'getVoucher'> & QueryParams<'getVoucher'>, options?: CallOptions): Promise<Uint8Array> {
    if (typeof voucher !== 'string') {
      const { booking_id, ...query } = voucher;
      return (await this.send('getVoucher', { path: { booking_id }, query, read: 'bytes' }, options)) as Uint8Array;
    }
    const url = new URL(voucher, this.baseUrl);
    const site = { operation: 'getVoucher', method: 'GET', path: url.pathname };
    const call = { site, url, headers: { accept: 'application/pdf, application/json' }, retryable: true, read: 'bytes' as const };
    return (await this.transport.send(call, options)) as Uint8Array;
  }

  // ---- Booking API, V2 ----

  searchRatesV2(body: JsonBody<'searchRatesV2'>, options?: CallOptions): Promise<Result<'searchRatesV2'>> {
    return this.call('searchRatesV2', { body }, options);
  }

  prebookV2(body: JsonBody<'prebookV2'>, options?: ScenarioCallOptions): Promise<Result<'prebookV2'>> {
    return this.call('prebookV2', { body, testScenario: options?.testScenario }, options);
  }

  /** V2 book of a prebook; `idempotency_key` generated if absent, as for bookRate. */
  bookV2(body: V2BookBody, options?: ScenarioCallOptions): Promise<Result<'bookV2'>> {
    const keyed = this.withIdempotencyKey(body);
    return this.call('bookV2', { body: keyed, testScenario: options?.testScenario, retryable: keyed.idempotency_key !== undefined }, options);
  }

  // ---- Backend API (backendToken) ----

  /** Not retried: each call creates another user. */
  /** A user of the client, sent with an `Idempotency-Key` (given, or a new one), so a retry answers the same user instead of making another. */
  createUser(body: JsonBody<'createUser'>, options?: CallOptions & { idempotencyKey?: string }): Promise<Result<'createUser'>> {
    return this.call('createUser', { body, idempotencyKey: options?.idempotencyKey ?? newIdempotencyKey(), retryable: true }, options);
  }

  getUser(id: number, options?: CallOptions): Promise<Result<'getUser'>> {
    return this.call('getUser', { path: { id } }, options);
  }

  updateUser(id: number, body: JsonBody<'updateUser'>, options?: CallOptions): Promise<Result<'updateUser'>> {
    return this.call('updateUser', { path: { id }, body }, options);
  }

  deleteUser(id: number, options?: CallOptions): Promise<Result<'deleteUser'>> {
    return this.call('deleteUser', { path: { id } }, options);
  }

  issueUserToken(id: number, options?: CallOptions): Promise<Result<'issueUserToken'>> {
    return this.call('issueUserToken', { path: { id } }, options);
  }

  /** Not retried: each call appends another ledger entry. */
  /**
   * A manual ledger entry, sent with an `Idempotency-Key` (one of `options.idempotencyKey`,
   * or a new one), so a retry (after a 503, 429 or no answer) answers the same entry
   * instead of writing a second. Keep the key to repeat the post yourself later.
   */
  createAccountingEntry(body: JsonBody<'createAccountingEntry'>, options?: CallOptions & { idempotencyKey?: string }): Promise<Result<'createAccountingEntry'>> {
    const idempotencyKey = options?.idempotencyKey ?? newIdempotencyKey();
    return this.call('createAccountingEntry', { body, idempotencyKey, retryable: true }, options);
  }

  listAccountingEntries(query: QueryParams<'listAccountingEntries'> = {}, options?: CallOptions): Promise<Result<'listAccountingEntries'>> {
    return this.call('listAccountingEntries', { query }, options);
  }

  getBalance(options?: CallOptions): Promise<Result<'getBalance'>> {
    return this.call('getBalance', {}, options);
  }

  listBookingAccountingEntries(bookingId: number, options?: CallOptions): Promise<Result<'listBookingAccountingEntries'>> {
    return this.call('listBookingAccountingEntries', { path: { bookingId } }, options);
  }

  getAccountingEntry(id: number, options?: CallOptions): Promise<Result<'getAccountingEntry'>> {
    return this.call('getAccountingEntry', { path: { id } }, options);
  }

  listBackendBookings(query: QueryParams<'listBackendBookings'> = {}, options?: CallOptions): Promise<Result<'listBackendBookings'>> {
    return this.call('listBackendBookings', { query }, options);
  }

  listUserBackendBookings(userId: number, query: QueryParams<'listUserBackendBookings'> = {}, options?: CallOptions): Promise<Result<'listUserBackendBookings'>> {
    return this.call('listUserBackendBookings', { path: { userId }, query }, options);
  }

  /** Not retried: each call adds another endpoint. The answer's `secret` is shown only here. */
  createWebhookEndpoint(body: JsonBody<'createWebhookEndpoint'>, options?: CallOptions): Promise<Result<'createWebhookEndpoint'>> {
    return this.call('createWebhookEndpoint', { body }, options);
  }

  listWebhookEndpoints(options?: CallOptions): Promise<Result<'listWebhookEndpoints'>> {
    return this.call('listWebhookEndpoints', {}, options);
  }

  getWebhookEndpoint(id: number, options?: CallOptions): Promise<Result<'getWebhookEndpoint'>> {
    return this.call('getWebhookEndpoint', { path: { id } }, options);
  }

  updateWebhookEndpoint(id: number, body: JsonBody<'updateWebhookEndpoint'>, options?: CallOptions): Promise<Result<'updateWebhookEndpoint'>> {
    return this.call('updateWebhookEndpoint', { path: { id }, body }, options);
  }

  deleteWebhookEndpoint(id: number, options?: CallOptions): Promise<Result<'deleteWebhookEndpoint'>> {
    return this.call('deleteWebhookEndpoint', { path: { id } }, options);
  }

  /** Not retried: a repeat would replace the secret the first call showed. */
  rotateWebhookSecret(id: number, options?: CallOptions): Promise<Result<'rotateWebhookSecret'>> {
    return this.call('rotateWebhookSecret', { path: { id } }, options);
  }

  testWebhookEndpoint(id: number, options?: CallOptions): Promise<Result<'testWebhookEndpoint'>> {
    return this.call('testWebhookEndpoint', { path: { id } }, options);
  }

  listWebhookDeliveries(id: number, query: QueryParams<'listWebhookDeliveries'> = {}, options?: CallOptions): Promise<Result<'listWebhookDeliveries'>> {
    return this.call('listWebhookDeliveries', { path: { id }, query }, options);
  }

  retryWebhookDelivery(id: number, options?: CallOptions): Promise<Result<'retryWebhookDelivery'>> {
    return this.call('retryWebhookDelivery', { path: { id } }, options);
  }

  /** A period's statement (JSON); the CSV and PDF downloads are plain GETs with `format`. */
  getStatement(query: QueryParams<'getStatement'>, options?: CallOptions): Promise<Result<'getStatement'>> {
    return this.call('getStatement', { query }, options);
  }

  getDailyBalance(query: QueryParams<'getDailyBalance'>, options?: CallOptions): Promise<Result<'getDailyBalance'>> {
    return this.call('getDailyBalance', { query }, options);
  }

  /** The finance credential's client picker: clients by a part of their name, or by id. */
  searchClients(query: QueryParams<'searchClients'> = {}, options?: CallOptions): Promise<Result<'searchClients'>> {
    return this.call('searchClients', { query }, options);
  }

  getReconciliation(query: QueryParams<'getReconciliation'>, options?: CallOptions): Promise<Result<'getReconciliation'>> {
    return this.call('getReconciliation', { query }, options);
  }

  listCreditRequests(query: QueryParams<'listCreditRequests'> = {}, options?: CallOptions): Promise<Result<'listCreditRequests'>> {
    return this.call('listCreditRequests', { query }, options);
  }

  confirmCreditRequest(id: number, options?: CallOptions): Promise<Result<'confirmCreditRequest'>> {
    return this.call('confirmCreditRequest', { path: { id } }, options);
  }

  rejectCreditRequest(id: number, options?: CallOptions): Promise<Result<'rejectCreditRequest'>> {
    return this.call('rejectCreditRequest', { path: { id } }, options);
  }

  // ---- the one way out ----

  private withIdempotencyKey<B extends { idempotency_key?: string }>(body: B): B {
    if (body.idempotency_key !== undefined || this.options.autoIdempotencyKey === false) return body;
    return { ...body, idempotency_key: newIdempotencyKey() };
  }

  private clock() {
    return { sleep: this.sleep, now: () => Date.now() };
  }

  private async call<O extends OperationId>(operation: O, input: CallInput, options?: CallOptions): Promise<Result<O>> {
    return unwrap(await this.send(operation, input, options)) as Result<O>;
  }

  /** Sends an operation's call; the answer as read (JSON or bytes). */
  private send(operation: OperationId, input: CallInput, options: CallOptions = {}): Promise<unknown> {
    const { method, path, security } = OPERATIONS[operation];
    const url = new URL(path.slice(1).replace(/\{(\w+)\}/g, (_, name: string) => encodeURIComponent(String(input.path?.[name]))), this.baseUrl);
    for (const [name, value] of Object.entries(input.query ?? {})) {
      if (value !== undefined && value !== null) url.searchParams.set(name, String(value));
    }
    const headers: Record<string, string> = { accept: 'application/json' };
    const credential = security === 'ApiKey' ? this.options.apiKey : security === 'BackendToken' ? this.options.backendToken : undefined;
    if (security !== null && !credential) {
      throw new TypeError(`${operation} needs ${security === 'ApiKey' ? 'apiKey (the booking API key)' : 'backendToken (the backend API token)'}`);
    }
    if (credential) headers.authorization = security === 'ApiKey' ? `Bearer ${credential}` : credential;
    if (input.testScenario !== undefined) {
      if (!this.isSandbox) throw new TypeError('testScenario needs a sandbox key (hb_test_…): a live key ignores X-Test-Scenario and would book for real');
      headers['x-test-scenario'] = input.testScenario;
    }
    if (input.body !== undefined) headers['content-type'] = 'application/json';
    if (input.idempotencyKey !== undefined) headers['idempotency-key'] = input.idempotencyKey;
    // Each operation's rule is the document's (`x-retry`, in the generated operations table).
    const retryable = input.retryable ?? OPERATIONS[operation].retry === 'safe';
    const site = { operation, method, path: url.pathname };
    const body = input.body === undefined ? undefined : JSON.stringify(input.body);
    return this.transport.send({ site, url, headers, body, retryable, read: input.read ?? 'json' }, options);
  }
}

/** The envelope's `data`, `{data, total}` for a page; an answer without an envelope as it is. */
function unwrap(answer: unknown): unknown {
  if (!answer || typeof answer !== 'object' || !('success' in answer) || !('data' in answer)) return answer;
  return 'total' in answer ? { data: answer.data, total: answer.total } : answer.data;
}
