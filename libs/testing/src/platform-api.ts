import { TestRequest, TestResponse } from './https-client';
import { queryTestDatabase } from './test-database';

/**
 * The platform as a system test drives it: the gateway's HTTP API and the database
 * its services share (the gateway's TestSystem is one). The steps below go through
 * the public API only, so a test states what it checks and not how it got there.
 */
export interface SystemUnderTest {
  request<T = any>(method: string, path: string, options?: TestRequest): Promise<TestResponse<T>>;
  readonly database: { readonly url: string };
  /** The vendor simulator's database (its allotments and bookings), where the services call one. */
  readonly vendorDatabase?: { readonly url: string };
}

type Headers = Record<string, string>;

/** The Authorization header of an API key or a user token. */
export const bearer = (token: string) => ({ authorization: `Bearer ${token}` });

/** A date `offset` days from today, YYYY-MM-DD. */
export const day = (offset: number) => new Date(Date.now() + offset * 86_400_000).toISOString().slice(0, 10);

export const sleep = (ms: number) => new Promise<void>((resolve) => setTimeout(resolve, ms));

export const TWO_ADULTS = [{ adults: 2, children: 0, children_ages: [] }];
export const GUEST = { rooms: [{ lead_first_name: 'Ada', lead_last_name: 'Lovelace' }], email: 'ada@example.com', phone: '+44 20 7946 0000' };
export const CARD = { payment_token: 'tok_visa', payment_first_name: 'Ada', payment_last_name: 'Lovelace', payment_postal_code: 'N1 9GU', payment_expiration: '12/30' };
/** A user of the backend API's POST /api/user, with funds for a few bookings. */
const NEW_USER = { firstName: 'Ada', lastName: 'Lovelace', email: 'ada@example.com', phone: '+44 20 7946 0000', clientAccountLimit: 100000 };

export interface Stay {
  check_in: string;
  check_out: string;
  rooms: unknown[];
}

/** Stays that never share a night, so bookings do not compete for one night's allotment. */
export function staySequence(firstOffset: number, nights = 2): () => Stay {
  let offset = firstOffset;
  return () => {
    offset += nights + 1;
    return { check_in: day(offset), check_out: day(offset + nights), rooms: TWO_ADULTS };
  };
}

export type PaymentMethod = 'account' | 'credit_card';

/**
 * A V1 search's results once every vendor answered: started, then polled as a client
 * does (the vendors are called over HTTP, so even vendors with no latency answer after
 * the first answer).
 */
export async function completedSearch(system: SystemUnderTest, headers: Headers, search: Record<string, unknown>, timeoutMs = 15_000): Promise<{ sessionId: string; results: any[] }> {
  // A 503 with Retry-After (a loaded machine: the call outlived its time) is repeated as a client
  // would (both calls are safe to repeat); any other answer but 200 fails with its body.
  const started = await repeatWhileUnavailable(() => system.request('POST', '/search', { headers, json: search }));
  if (started.status !== 200) throw new Error(`POST /search answered ${started.status}: ${JSON.stringify(started.body)}`);
  const sessionId: string = started.body.data.session_id;
  let data = started.body.data;
  const deadline = Date.now() + timeoutMs;
  while (!data.search_completed) {
    if (Date.now() > deadline) throw new Error(`search ${sessionId} did not complete within ${timeoutMs} ms`);
    await sleep(50);
    const polled = await repeatWhileUnavailable(() => system.request('GET', `/search/${sessionId}`, { headers }));
    if (polled.status !== 200) throw new Error(`GET /search/${sessionId} answered ${polled.status}: ${JSON.stringify(polled.body)}`);
    data = polled.body.data;
  }
  return { sessionId, results: data.results };
}

/** Runs a V1 search to completion (completedSearch) and reads one of its hotels' rates. */
export async function hotelRates(
  system: SystemUnderTest,
  headers: Headers,
  stay: Stay,
  hotelIndex = 0,
  placeId = 'gn:2988507',
): Promise<{ sessionId: string; hotelId: number; rates: any[] }> {
  const { sessionId, results } = await completedSearch(system, headers, { place_id: placeId, ...stay });
  const hotelId = results[hotelIndex % results.length].hotel.id;
  const rates = (await system.request('GET', `/hotel/${hotelId}/${sessionId}`, { headers })).body.data.rates;
  return { sessionId, hotelId, rates };
}

export interface PrebookOptions {
  method?: PaymentMethod;
  /** Another hotel of the search, so bookings do not compete for one allotment. */
  hotelIndex?: number;
  /** Appended to the prebook path: `?promo_code=...`. */
  query?: string;
  /** The hotel's first refundable rate rather than its first rate. */
  refundable?: boolean;
}

export interface Prebooked {
  /** The V1 book path of the prebooked rate. */
  path: string;
  prebook: any;
  hotelId: number;
}

/**
 * Searches, reads a hotel's rates and prebooks its first rate (V1). A prebook answered 503
 * with Retry-After (its vendor check outlived the call's timeout on a loaded machine, as
 * CI runs met) is asked again after it, as a client does: a prebook is safe to repeat.
 */
export async function prebookV1(system: SystemUnderTest, headers: Headers, stay: Stay, options: PrebookOptions = {}): Promise<Prebooked> {
  const method = options.method ?? 'account';
  const { sessionId, hotelId, rates } = await hotelRates(system, headers, stay, options.hotelIndex ?? 0);
  const rate = options.refundable ? rates.find((candidate) => candidate.cancellation_policy === 'Refundable') : rates[0];
  if (!rate) throw new Error(`hotel ${hotelId} has no ${options.refundable ? 'refundable ' : ''}rate`);
  const prebook = await repeatWhileUnavailable(() => system.request('GET', `/prebook/${hotelId}/${sessionId}/${rate.id}/${method}${options.query ?? ''}`, { headers }));
  if (prebook.status !== 200) throw new Error(`prebook answered ${prebook.status}: ${JSON.stringify(prebook.body)}`);
  return { path: `/book/${hotelId}/${sessionId}/${rate.id}/${method}`, prebook: prebook.body.data, hotelId };
}

/**
 * A V1 booking made (201): prebooked as `prebookV1` does, booked for GUEST (and CARD
 * for a card rate) with `body` on top. Answers the booking.
 */
export async function bookV1(system: SystemUnderTest, headers: Headers, stay: Stay, options: PrebookOptions & { body?: Record<string, unknown> } = {}): Promise<any> {
  const { path } = await prebookV1(system, headers, stay, options);
  const response = await system.request('POST', path, { headers, json: { ...GUEST, ...(options.method === 'credit_card' && CARD), ...options.body } });
  if (response.status !== 201) throw new Error(`book answered ${response.status}: ${JSON.stringify(response.body)}`);
  return response.body.data;
}

/** The first rate POST /v2/rates answers for a stay in Paris. */
export async function v2Rate(system: SystemUnderTest, headers: Headers, stay: Stay): Promise<any> {
  return (await system.request('POST', '/v2/rates', { headers, json: { place_id: 'gn:2988507', ...stay } })).body.rates[0];
}

/** A V2 rate and its prebook (POST /v2/prebook), ready for POST /v2/book with `prebook.prebook_id`. */
export async function prebookV2(system: SystemUnderTest, headers: Headers, stay: Stay, method: PaymentMethod = 'account'): Promise<{ rate: any; prebook: any }> {
  const rate = await v2Rate(system, headers, stay);
  const prebook = await system.request('POST', '/v2/prebook', { headers, json: { rate_id: rate.id, payment_method: method } });
  if (prebook.status !== 200) throw new Error(`V2 prebook answered ${prebook.status}: ${JSON.stringify(prebook.body)}`);
  return { rate, prebook: prebook.body.data };
}

/** A user of the client (NEW_USER with `user` on top), created with its backend token, and a token of that user. */
export async function userToken(system: SystemUnderTest, backendToken: string, user: Partial<typeof NEW_USER> = {}): Promise<{ userId: number; token: string }> {
  const headers = { authorization: backendToken };
  const created = await system.request('POST', '/api/user', { headers, json: { ...NEW_USER, ...user } });
  if (created.status !== 201) throw new Error(`POST /api/user answered ${created.status}: ${JSON.stringify(created.body)}`);
  const userId: number = created.body.data.id;
  const issued = await system.request('GET', `/api/user/${userId}/token`, { headers });
  return { userId, token: issued.body.data.token };
}

/** Polls a booking's row until its saga reached a final step. */
export async function settledBooking(system: SystemUnderTest, id: number, timeoutMs = 20_000): Promise<{ id: number; status: string; step: string }> {
  const deadline = Date.now() + timeoutMs;
  for (;;) {
    const [row] = await queryTestDatabase<{ id: number; status: string; step: string }>(system.database.url, 'SELECT id, status, step FROM booking.bookings WHERE id = $1', [id]);
    if (['done', 'failed', 'cancelled'].includes(row.step)) return row;
    if (Date.now() > deadline) throw new Error(`booking ${id} did not settle: ${JSON.stringify(row)}`);
    await sleep(100);
  }
}

/**
 * The rooms a booking's supplier booking holds in the allotments, summed over its nights:
 * the vendor's own (at the vendor simulator, which numbers its hotels by the platform's
 * ids) where the services call one, else the platform's.
 */
export async function roomsSold(system: SystemUnderTest, bookingId: number): Promise<number> {
  const [booked] = await queryTestDatabase<{ vendor: string; hotel_id: number; room_id: number; check_in: string; check_out: string }>(
    system.database.url,
    `SELECT vendor, hotel_id, room_id, check_in::text AS check_in, check_out::text AS check_out FROM rates.supplier_bookings WHERE booking_id = $1`,
    [bookingId],
  );
  if (!booked) return 0;
  const [row] = system.vendorDatabase
    ? await queryTestDatabase<{ sold: number }>(
        system.vendorDatabase.url,
        `SELECT coalesce(sum(rooms_sold), 0)::int AS sold FROM vendor_simulator.allotments
          WHERE vendor = $1 AND hotel_code = $2 AND room_id = $3 AND night >= $4 AND night < $5`,
        [booked.vendor, booked.hotel_id, booked.room_id, booked.check_in, booked.check_out],
      )
    : await queryTestDatabase<{ sold: number }>(
        system.database.url,
        `SELECT coalesce(sum(rooms_sold), 0)::int AS sold FROM rates.allotments
          WHERE vendor = $1 AND hotel_id = $2 AND room_id = $3 AND night >= $4 AND night < $5`,
        [booked.vendor, booked.hotel_id, booked.room_id, booked.check_in, booked.check_out],
      );
  return row.sold;
}

/** 503 SERVICE_UNAVAILABLE with Retry-After: the platform refusing for now (failing closed), which a client repeats. */
export function answeredUnavailable(response: TestResponse): boolean {
  return response.status === 503 && response.body?.code === 'SERVICE_UNAVAILABLE' && Number(response.headers['retry-after']) > 0;
}

/**
 * Sends a request again, as a client does, while it is answered 503 SERVICE_UNAVAILABLE
 * with Retry-After (a saga that outlived the answer's deadline on a loaded machine), at
 * most `attempts` times in all; the last answer. A 503 without the code or Retry-After
 * is returned as it is, for the test to fail on.
 */
export async function repeatWhileUnavailable(send: () => Promise<TestResponse>, attempts = 6): Promise<TestResponse> {
  for (let attempt = 1; ; attempt++) {
    const response = await send();
    if (!answeredUnavailable(response) || attempt === attempts) return response;
    await new Promise((resolve) => setTimeout(resolve, 1000 * Number(response.headers['retry-after'])));
  }
}
