import { performance } from 'node:perf_hooks';
import { setTimeout as sleep } from 'node:timers/promises';
import {
  readAvailabilityRS,
  readBookingListRS,
  readBookingRS,
  readCheckRateRS,
  readContentHotelsRS,
  readVendorError,
} from './answer-readers';
import { BreakerHealth, BreakerSettings, BreakerState, CircuitBreaker } from './breaker';
import { HotelbedsError, HotelbedsErrorCode } from './errors';
import { HotelbedsOperation, OPERATION_NAMES, OPERATIONS } from './operations';
import { Reader, ShapeError } from './reader';
import { DEFAULT_RETRY_POLICY, parseRetryAfter, retryDelay, RetryPolicy } from './retry';
import { hotelbedsSignature, unixSeconds } from './signature';
import { exchange, keepAliveAgents, ReceivedAnswer, TransportFailure } from './transport';
import { classifyVendorError, VendorFault, vendorErrorOf } from './vendor-errors';
import type {
  AvailabilityRQ,
  AvailabilityRS,
  Booking,
  BookingListFilterType,
  BookingListQuery,
  BookingListRS,
  BookingRQ,
  BookingRS,
  CheckRateRQ,
  CheckRateRS,
  ContentHotelsQuery,
  ContentHotelsRS,
  IsoDate,
} from './wire';

/** The vendor's limit on hotel codes in one availability request (the SDK's `@Size(max = 2000)`). */
export const MAX_HOTELS_PER_AVAILABILITY = 2000;
/** The vendor's limit on hotels in one Content API page ("up to 1000 hotels per request"). */
export const MAX_CONTENT_HOTELS_PER_PAGE = 1000;

const BOOKING_API = '/hotel-api/1.0';
const CONTENT_API = '/hotel-content-api/1.0';

export interface HotelbedsClock {
  /** Milliseconds since the Unix epoch: signs requests, times the breakers, reads `Retry-After` dates. */
  now(): number;
}

export interface HotelbedsClientOptions {
  /** The vendor endpoint, e.g. `https://api.test.hotelbeds.com` (both APIs live under it). */
  baseUrl: string;
  apiKey: string;
  secret: string;
  /** Each operation's deadline for the whole call: connection, answer, body and retries (see OPERATIONS). */
  timeoutsMs?: Partial<Record<HotelbedsOperation, number>>;
  /** Connections per host kept by this client (default 16). */
  maxSockets?: number;
  retry?: Partial<RetryPolicy>;
  /** Per operation (defaults: 5 consecutive failures, 30 s open). */
  breaker?: Partial<BreakerSettings>;
  /** The largest decoded answer read (default 64 MiB: an availability answer for 2000 hotels is large). */
  maxResponseBytes?: number;
  clock?: HotelbedsClock;
  /** Told whenever an operation's breaker changes state (for logs and metrics). */
  onBreakerStateChange?: (operation: HotelbedsOperation, state: BreakerState) => void;
  /** Sent with every request besides the vendor's own (the platform's simulator reads `X-Test-Scenario`). */
  extraHeaders?: Record<string, string>;
}

/** Dates to look a booking up in the booking list by (its creation day, by default). */
export interface BookingLookupDates {
  start: IsoDate;
  end: IsoDate;
  filterType?: BookingListFilterType;
}

interface CallPlan<T> {
  path: string;
  query?: Record<string, string | number | boolean | undefined>;
  body?: unknown;
  read: Reader<T>;
  /** Headers of this call only (the simulator's X-Test-Scenario). */
  headers?: Record<string, string>;
}

type AttemptOutcome<T> = { value: T } | { error: HotelbedsError; transient: boolean };

/**
 * A client of one Hotelbeds APItude endpoint (Hotel Booking API 1.0 and Hotel Content API
 * 1.0). Every request is signed afresh (Api-key, X-Signature) and asks for gzip; every
 * operation has a deadline covering its whole call, a circuit breaker, and retries only when
 * sending it twice is harmless (never a booking or a real cancellation: when their answer is
 * lost, `outcomeUnknown` is set and the caller asks with `bookingDetail` or
 * `findByClientReference`). Failures are HotelbedsError; a success is always a fully read,
 * documented answer.
 */
export class HotelbedsClient {
  private readonly baseUrl: URL;
  private readonly apiKey: string;
  private readonly secret: string;
  private readonly timeoutsMs: Record<HotelbedsOperation, number>;
  private readonly retry: RetryPolicy;
  private readonly maxResponseBytes: number;
  private readonly clock: HotelbedsClock;
  private readonly agents: ReturnType<typeof keepAliveAgents>;
  private readonly extraHeaders: Record<string, string>;
  private readonly breakers: Record<HotelbedsOperation, CircuitBreaker>;

  constructor(options: HotelbedsClientOptions) {
    if (!options.apiKey || !options.secret) throw new Error('HotelbedsClient needs an apiKey and a secret');
    this.baseUrl = new URL(options.baseUrl);
    if (this.baseUrl.protocol !== 'https:' && this.baseUrl.protocol !== 'http:') throw new Error(`HotelbedsClient: ${options.baseUrl} is not an http(s) URL`);
    this.apiKey = options.apiKey;
    this.secret = options.secret;
    this.extraHeaders = options.extraHeaders ?? {};
    this.retry = { ...DEFAULT_RETRY_POLICY, ...options.retry };
    this.maxResponseBytes = options.maxResponseBytes ?? 64 * 1024 * 1024;
    this.clock = options.clock ?? { now: () => Date.now() };
    this.agents = keepAliveAgents(options.maxSockets ?? 16);
    const breaker: BreakerSettings = { failureThreshold: 5, cooldownMs: 30_000, ...options.breaker };
    const timeouts = {} as Record<HotelbedsOperation, number>;
    const breakers = {} as Record<HotelbedsOperation, CircuitBreaker>;
    for (const operation of OPERATION_NAMES) {
      timeouts[operation] = options.timeoutsMs?.[operation] ?? OPERATIONS[operation].defaultDeadlineMs;
      breakers[operation] = new CircuitBreaker(breaker, () => this.clock.now(), (state) => options.onBreakerStateChange?.(operation, state));
    }
    this.timeoutsMs = timeouts;
    this.breakers = breakers;
  }

  /** POST /hotel-api/1.0/hotels: rates for up to 2000 hotels by code (more are refused before sending). */
  async availability(request: AvailabilityRQ): Promise<AvailabilityRS> {
    const codes = request.hotels?.hotel ?? [];
    if (codes.length > MAX_HOTELS_PER_AVAILABILITY) {
      throw refusedBeforeSending('availability', 'TOO_MANY_HOTELS', `${codes.length} hotel codes in one availability request; Hotelbeds takes at most ${MAX_HOTELS_PER_AVAILABILITY}`);
    }
    if (codes.length === 0) throw refusedBeforeSending('availability', 'INVALID_REQUEST', 'an availability request names no hotel code');
    if (!request.occupancies?.length) throw refusedBeforeSending('availability', 'INVALID_REQUEST', 'an availability request has no occupancy');
    return this.call('availability', { path: `${BOOKING_API}/hotels`, body: request, read: readAvailabilityRS });
  }

  /**
   * POST /hotel-api/1.0/checkrates: the current price and conditions of rate keys (required
   * for RECHECK rates). `headers`: for the vendor simulator only (its X-Test-Scenario).
   */
  async checkRate(request: CheckRateRQ, headers?: Record<string, string>): Promise<CheckRateRS> {
    if (!request.rooms?.length) throw refusedBeforeSending('checkRate', 'INVALID_REQUEST', 'a CheckRate request names no rate key');
    return this.call('checkRate', { path: `${BOOKING_API}/checkrates`, body: request, read: readCheckRateRS, headers });
  }

  /** POST /hotel-api/1.0/bookings: confirms rate keys. Sent once, never retried. `headers` as for checkRate. */
  async book(request: BookingRQ, headers?: Record<string, string>): Promise<BookingRS> {
    const problem = bookingRequestProblem(request);
    if (problem) throw refusedBeforeSending('booking', 'INVALID_REQUEST', problem);
    return this.call('booking', { path: `${BOOKING_API}/bookings`, body: request, read: readBookingRS, headers });
  }

  /** GET /hotel-api/1.0/bookings/{reference}. */
  async bookingDetail(reference: string, options: { language?: string } = {}): Promise<BookingRS> {
    return this.call('bookingDetail', { path: bookingPath(reference, 'bookingDetail'), query: { language: options.language }, read: readBookingRS });
  }

  /** GET /hotel-api/1.0/bookings?start=&end=&from=&to=&… : one page of the booking list. */
  async bookingList(query: BookingListQuery): Promise<BookingListRS> {
    if (!(query.from >= 1 && query.to >= query.from)) throw refusedBeforeSending('bookingList', 'INVALID_REQUEST', `booking list page from ${query.from} to ${query.to}`);
    return this.call('bookingList', {
      path: `${BOOKING_API}/bookings`,
      query: {
        start: query.start,
        end: query.end,
        from: query.from,
        to: query.to,
        filterType: query.filterType,
        status: query.status,
        clientReference: query.clientReference,
        country: query.country?.join(','),
        destination: query.destination?.join(','),
        hotel: query.hotel?.join(','),
        extend: query.extend,
      },
      read: readBookingListRS,
    });
  }

  /**
   * The bookings the vendor holds under a client reference (cancelled ones included), made
   * (by default) between `start` and `end`: how a booking whose answer was lost is found.
   * The vendor answers client references in upper case, so they are compared ignoring case.
   */
  async findByClientReference(clientReference: string, dates: BookingLookupDates): Promise<Booking[]> {
    const wanted = clientReference.toUpperCase();
    const found: Booking[] = [];
    const pages = this.bookingListPages({ start: dates.start, end: dates.end, filterType: dates.filterType ?? 'CREATION', status: 'ALL', clientReference }, 25);
    for await (const page of pages) found.push(...(page.bookings.bookings ?? []).filter((booking) => booking.clientReference?.toUpperCase() === wanted));
    return found;
  }

  /** Every page of a booking list query, `pageSize` bookings at a time, until the vendor's `total`. */
  async *bookingListPages(query: Omit<BookingListQuery, 'from' | 'to'>, pageSize: number): AsyncGenerator<BookingListRS> {
    for (let from = 1; ; from += pageSize) {
      const page = await this.bookingList({ ...query, from, to: from + pageSize - 1 });
      yield page;
      if ((page.bookings.bookings?.length ?? 0) < pageSize || from + pageSize > (page.bookings.total ?? 0)) return;
    }
  }

  /** DELETE /hotel-api/1.0/bookings/{reference}?cancellationFlag=SIMULATION: what cancelling would cost; cancels nothing. */
  async simulateCancellation(reference: string, options: { language?: string } = {}): Promise<BookingRS> {
    return this.call('cancellationSimulation', {
      path: bookingPath(reference, 'cancellationSimulation'),
      query: { cancellationFlag: 'SIMULATION', language: options.language },
      read: readBookingRS,
    });
  }

  /** DELETE /hotel-api/1.0/bookings/{reference}?cancellationFlag=CANCELLATION. Sent once, never retried. */
  async cancel(reference: string, options: { language?: string } = {}): Promise<BookingRS> {
    return this.call('cancellation', {
      path: bookingPath(reference, 'cancellation'),
      query: { cancellationFlag: 'CANCELLATION', language: options.language },
      read: readBookingRS,
    });
  }

  /** GET /hotel-content-api/1.0/hotels?fields=&codes=&from=&to=&language=…: one page of hotel content. */
  async contentHotels(query: ContentHotelsQuery): Promise<ContentHotelsRS> {
    const { from = 1, to = 100 } = query;
    if (!(from >= 1 && to >= from && to - from + 1 <= MAX_CONTENT_HOTELS_PER_PAGE)) {
      throw refusedBeforeSending('contentHotels', 'INVALID_REQUEST', `content page from ${from} to ${to}; at most ${MAX_CONTENT_HOTELS_PER_PAGE} hotels a page`);
    }
    return this.call('contentHotels', {
      path: `${CONTENT_API}/hotels`,
      query: {
        fields: query.fields === undefined ? undefined : query.fields === 'all' ? 'all' : query.fields.join(','),
        codes: query.codes?.join(','),
        destinationCode: query.destinationCode,
        countryCode: query.countryCode,
        lastUpdateTime: query.lastUpdateTime,
        language: query.language,
        useSecondaryLanguage: query.useSecondaryLanguage,
        from,
        to,
      },
      read: readContentHotelsRS,
    });
  }

  /** Every page of a content query, `pageSize` hotels at a time, until the vendor's `total`. */
  async *contentHotelPages(query: Omit<ContentHotelsQuery, 'from' | 'to'>, pageSize = MAX_CONTENT_HOTELS_PER_PAGE): AsyncGenerator<ContentHotelsRS> {
    for (let from = 1; ; from += pageSize) {
      const page = await this.contentHotels({ ...query, from, to: from + pageSize - 1 });
      yield page;
      if ((page.hotels?.length ?? 0) < pageSize || from + pageSize > (page.total ?? 0)) return;
    }
  }

  /** Each operation's breaker: its state, consecutive failures and when it opened. */
  health(): Record<HotelbedsOperation, BreakerHealth> {
    const health = {} as Record<HotelbedsOperation, BreakerHealth>;
    for (const operation of OPERATION_NAMES) health[operation] = this.breakers[operation].health();
    return health;
  }

  /** Closes the pooled connections. */
  close(): void {
    this.agents.http.destroy();
    this.agents.https.destroy();
  }

  private async call<T>(operation: HotelbedsOperation, plan: CallPlan<T>): Promise<T> {
    const { method, safeToRepeat } = OPERATIONS[operation];
    const deadlineMs = this.timeoutsMs[operation];
    const started = performance.now();
    const deadline = new AbortController();
    const timer = setTimeout(() => deadline.abort(), deadlineMs);
    const url = this.urlOf(plan);
    const body = plan.body === undefined ? undefined : Buffer.from(JSON.stringify(plan.body), 'utf8');
    const breaker = this.breakers[operation];
    try {
      for (let attempt = 1; ; attempt++) {
        if (!breaker.tryAcquire()) {
          throw new HotelbedsError({
            kind: 'unavailable',
            code: 'BREAKER_OPEN',
            message: `Hotelbeds ${operation}: the circuit breaker is open after repeated failures`,
            operation,
            attempts: attempt - 1,
          });
        }
        let outcome: AttemptOutcome<T>;
        try {
          outcome = await this.attempt(operation, method, url, body, deadline.signal, plan.read, breaker, plan.headers);
        } catch (unexpected) {
          // Not the vendor's doing (a bug here): free a half-open probe slot rather than hold it forever.
          breaker.released();
          throw unexpected;
        }
        if ('value' in outcome) return outcome.value;
        const error = outcome.error.withAttempts(attempt);
        const remainingMs = deadlineMs - (performance.now() - started);
        const delayMs = safeToRepeat && outcome.transient ? retryDelay(this.retry, attempt, error.retryAfterMs, remainingMs) : undefined;
        if (delayMs === undefined) throw error;
        await sleep(delayMs);
      }
    } finally {
      clearTimeout(timer);
    }
  }

  /** One request: sent, read, judged, and recorded in the breaker. */
  private async attempt<T>(
    operation: HotelbedsOperation,
    method: string,
    url: URL,
    body: Buffer | undefined,
    signal: AbortSignal,
    read: Reader<T>,
    breaker: CircuitBreaker,
    callHeaders: Record<string, string> = {},
  ): Promise<AttemptOutcome<T>> {
    const changesState = !OPERATIONS[operation].safeToRepeat;
    if (signal.aborted) {
      breaker.released();
      const message = `Hotelbeds ${operation}: the deadline passed before the request could be sent`;
      return { error: new HotelbedsError({ kind: 'unavailable', code: 'TIMEOUT', message, operation }), transient: false };
    }
    let answer: ReceivedAnswer;
    try {
      answer = await exchange({ method, url, headers: { ...this.headers(body), ...callHeaders }, body, signal, maxBodyBytes: this.maxResponseBytes }, this.agents);
    } catch (failure) {
      if (!(failure instanceof TransportFailure)) throw failure;
      breaker.failed();
      const malformed = failure.code === 'BODY_TOO_LARGE' || failure.code === 'BAD_ENCODING';
      return {
        error: new HotelbedsError({
          kind: malformed ? 'malformed' : 'unavailable',
          code: failure.code,
          message: `Hotelbeds ${operation}: ${failure.message}`,
          operation,
          outcomeUnknown: changesState && failure.sent,
          cause: failure,
        }),
        transient: failure.code === 'CONNECTION_FAILED',
      };
    }

    const { status } = answer;
    const retryAfterMs = parseRetryAfter(headerValue(answer.headers['retry-after']), this.clock.now());
    if (status < 200 || status >= 300) {
      const { vendorCode, vendorMessage } = vendorErrorOf(answer.body, answer.headers);
      const fault = classifyVendorError(status, vendorCode, vendorMessage);
      if (fault.vendorFailed) breaker.failed();
      else breaker.succeeded();
      // A 5xx to a booking or a cancellation says nothing of whether it was done.
      return { error: faultError(fault, operation, status, retryAfterMs, changesState && fault.vendorFailed), transient: fault.transient };
    }

    const parsed = parseJson(answer.body);
    const unreadable = (code: HotelbedsErrorCode, message: string, cause?: unknown): AttemptOutcome<T> => {
      breaker.failed();
      // A 2xx to a booking or a cancellation that cannot be read may still be a done deal.
      return { error: new HotelbedsError({ kind: 'malformed', code, message: `Hotelbeds ${operation}: ${message}`, operation, status, outcomeUnknown: changesState, cause }), transient: false };
    };
    if ('failure' in parsed) return unreadable('BAD_JSON', `HTTP ${status} with a body that is not JSON (${parsed.failure})`);
    const embedded = embeddedVendorError(parsed.value);
    if (embedded) {
      const fault = classifyVendorError(status, embedded.code, embedded.message);
      if (fault.vendorFailed) breaker.failed();
      else breaker.succeeded();
      return { error: faultError(fault, operation, status, retryAfterMs, changesState && fault.vendorFailed), transient: false };
    }
    try {
      const value = read(parsed.value, '');
      breaker.succeeded();
      return { value };
    } catch (error) {
      if (error instanceof ShapeError) return unreadable('BAD_SHAPE', `the answer does not have the documented shape: ${error.message}`, error);
      throw error;
    }
  }

  private headers(body: Buffer | undefined): Record<string, string> {
    const headers: Record<string, string> = {
      ...this.extraHeaders,
      'Api-key': this.apiKey,
      'X-Signature': hotelbedsSignature(this.apiKey, this.secret, unixSeconds(this.clock.now())),
      Accept: 'application/json',
      'Accept-Encoding': 'gzip',
    };
    if (body) {
      headers['Content-Type'] = 'application/json';
      headers['Content-Length'] = String(body.length);
    }
    return headers;
  }

  private urlOf(plan: CallPlan<unknown>): URL {
    const url = new URL(this.baseUrl);
    url.pathname = `${this.baseUrl.pathname.replace(/\/+$/, '')}${plan.path}`;
    const pairs: string[] = [];
    for (const [key, value] of Object.entries(plan.query ?? {})) {
      // Commas separate list values (codes=1,2,3), so they are sent as commas, not %2C.
      if (value !== undefined) pairs.push(`${encodeURIComponent(key)}=${encodeURIComponent(String(value)).replace(/%2C/gi, ',')}`);
    }
    url.search = pairs.join('&');
    return url;
  }
}

function refusedBeforeSending(operation: HotelbedsOperation, code: HotelbedsErrorCode, message: string): HotelbedsError {
  return new HotelbedsError({ kind: 'invalid', code, message: `Hotelbeds ${operation}: ${message}`, operation, attempts: 0 });
}

function faultError(fault: VendorFault, operation: HotelbedsOperation, status: number, retryAfterMs: number | undefined, outcomeUnknown: boolean): HotelbedsError {
  const { kind, code, vendorCode, vendorMessage } = fault;
  const said = [vendorCode, vendorMessage].filter(Boolean).join(' ');
  return new HotelbedsError({
    kind,
    code,
    message: `Hotelbeds ${operation}: HTTP ${status}${said ? ` ${said}` : ''}`,
    operation,
    status,
    vendorCode,
    vendorMessage,
    retryAfterMs,
    outcomeUnknown,
  });
}

/** Bounds the vendor's BookingRQ model declares (clientReference 1–20, names 1–50, remark ≤ 2000). */
function bookingRequestProblem(request: BookingRQ): string | undefined {
  const within = (value: string | undefined, min: number, max: number) => value !== undefined && value.length >= min && value.length <= max;
  if (!within(request.clientReference, 1, 20)) return 'clientReference must be 1 to 20 characters';
  if (!within(request.holder?.name, 1, 50) || !within(request.holder?.surname, 1, 50)) return 'the holder needs a name and a surname of 1 to 50 characters';
  if (request.remark !== undefined && request.remark.length > 2000) return 'remark is over 2000 characters';
  if (!request.rooms?.length) return 'a booking request names no rate key';
  return undefined;
}

function bookingPath(reference: string, operation: HotelbedsOperation): string {
  if (!reference.trim()) throw refusedBeforeSending(operation, 'INVALID_REQUEST', 'no booking reference');
  return `${BOOKING_API}/bookings/${encodeURIComponent(reference)}`;
}

function parseJson(body: Buffer): { value: unknown } | { failure: string } {
  if (body.length === 0) return { failure: 'empty' };
  try {
    return { value: JSON.parse(body.toString('utf8')) as unknown };
  } catch (error) {
    return { failure: error instanceof Error ? error.message : String(error) };
  }
}

/** A 2xx body with an `error` element is a failure (the vendor's SDK throws on it too). */
function embeddedVendorError(value: unknown): { code?: string; message?: string } | undefined {
  if (typeof value !== 'object' || value === null || !('error' in value)) return undefined;
  const { error } = value as { error: unknown };
  if (error === undefined || error === null) return undefined;
  try {
    return readVendorError(error, 'error');
  } catch {
    return { message: typeof error === 'string' ? error : undefined };
  }
}

function headerValue(value: string | string[] | undefined): string | undefined {
  return Array.isArray(value) ? value[0] : value;
}
