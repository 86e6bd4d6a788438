import { ErrorCode, OPERATIONS, Operation } from '@hotel/contracts';

/**
 * How a success reply is written: `envelope` `{data, success, message}`; `page` the
 * envelope plus `total`; `list` the envelope around an array; `bare` the type as
 * it is (V2 rates); `pdf`, `html`, `asset` and `json-document` are not JSON replies
 * of the APIs; `empty` has no body (304 Not Modified).
 */
export type ReplyForm = 'envelope' | 'page' | 'list' | 'bare' | 'pdf' | 'html' | 'asset' | 'json-document' | 'empty';

export interface Reply {
  /** The reply type (a type exported by reply-types.ts); none for pdf, html, asset and json-document. */
  type?: string;
  form: ReplyForm;
  description: string;
  /** Other media types the route answers with when asked (`format`, or the Accept header): downloads. */
  downloads?: ('csv' | 'pdf')[];
}

export const TAGS = [
  { name: 'Places and search', description: 'Booking API, V1: places, searches polled by session, one hotel\'s rates.' },
  { name: 'Prebook and book', description: 'Booking API, V1: prebook a rate of a search session, then book it.' },
  { name: 'Bookings', description: 'Booking API: the client\'s bookings, cancellation, promo codes and vouchers.' },
  { name: 'V2', description: 'Booking API, V2: every rate at once without a session, then prebook and book by id.' },
  { name: 'Users', description: 'Backend API: the client\'s users and their tokens.' },
  { name: 'Accounting', description: 'Backend API: the append-only ledger and the balance.' },
  { name: 'Finance', description: 'Backend API: statements, exports, reconciliation, the daily balance and credit requests; the client\'s backend token or the finance credential (`clientId`).' },
  { name: 'Backend bookings', description: 'Backend API: bookings in the backend\'s camelCase shape.' },
  { name: 'Webhooks', description: 'Backend API: endpoints the platform POSTs booking events to, signed (Standard Webhooks), and their delivery log.' },
  { name: 'Identity', description: 'Which client and user a credential acts for.' },
  { name: 'Health', description: 'Liveness and readiness; no credential.' },
  { name: 'Documentation', description: 'This document, its interactive reference and the finance console\'s page; no credential.' },
] as const;

export type Tag = (typeof TAGS)[number]['name'];

/**
 * Whether a client may send a call again after a 429, a 503 or no answer: `safe`, as it
 * is; `with-idempotency-key`, only with the key it sent the first time (a repeat then
 * replays the first answer); `never`, since a repeat would do it twice. The document
 * carries it as `x-retry`, and the SDK's retries follow it.
 */
export type RetryRule = 'safe' | 'with-idempotency-key' | 'never';

/**
 * One public route, declared once: its key (`METHOD /path/{template}`) is its HTTP
 * mapping, which the `@Route(key)` decorator gives the controller's handler; its
 * status, its name and words for the OpenAPI document, its retry rule and the bus
 * operations it sends. What the handler's signature already says (credential,
 * parameters, body) is read from the controller (openapi/routes.ts).
 */
export interface RouteDefinition {
  /** The success status unless the handler sets another; default 201 for POST, else 200 (Nest's). */
  status?: number;
  /**
   * The bus operations the handler sends while it answers (through helpers too). The
   * gateway refuses any other (a 500 outside production, a logged error in production):
   * a route is tied to the operations it maps to, checked on every call the tests make.
   */
  sends: readonly Operation[];
  operationId: string;
  tag: Tag;
  retry: RetryRule;
  summary: string;
  description?: string;
  /** Success replies by status; the route's own status must be one of them. */
  replies: Record<number, Reply>;
  /**
   * Error codes besides those every route can answer (see COMMON_ERRORS in
   * openapi-document.ts): the codes its services or handler throw.
   */
  errors: ErrorCode[];
  /** A conditional GET: replies carry `ETag` (and `Cache-Control`), and `If-None-Match` naming it answers 304. */
  conditional?: boolean;
}

const BOOK_ERRORS: ErrorCode[] = [
  'NOT_FOUND',
  'SESSION_EXPIRED',
  'RATE_NOT_AVAILABLE',
  'PREBOOK_REQUIRED',
  'INSUFFICIENT_FUNDS',
  'DUPLICATE_CLIENT_REFERENCE',
  'IDEMPOTENCY_CONFLICT',
  'PREBOOK_ALREADY_BOOKED',
  'CONFLICT',
  'PAYMENT_DECLINED',
  'PAYMENT_INCOMPLETE',
  'PAYMENT_METHOD_UNAVAILABLE',
  'CURRENCY_MISMATCH',
  'PROMO_CODE_INVALID',
  'SUPPLIER_ERROR',
];

/** A price converted from a vendor's currency: the rates in force are too old (production), or name no rate for a currency. */
const FX_ERRORS: ErrorCode[] = ['FX_RATES_STALE', 'FX_RATE_UNAVAILABLE', 'CURRENCY_MISMATCH'];

const BOOKED: Record<number, Reply> = {
  201: { type: 'BookingView', form: 'envelope', description: 'The booking was created (status `confirmed`, or `pending` when its steps take longer than the call may).' },
  200: { type: 'BookingView', form: 'envelope', description: 'A repeat with the same `idempotency_key`: the original booking.' },
};

const BOOK_DESCRIPTION =
  'Needs an unexpired prebook of the same rate and payment method by the same client (else 400 `PREBOOK_REQUIRED`); one lead guest per prebooked room; ' +
  'card fields for `credit_card`. A prebook backs one booking that has not failed (409 `PREBOOK_ALREADY_BOOKED` names it). ' +
  'A repeat with the same `idempotency_key` (kept 24 h) answers the original with 200; a different body with that key is 409 `IDEMPOTENCY_CONFLICT`. ' +
  'A business failure (funds, decline, sold out, supplier) answers 400 (404 for a sold-out rate) and the booking is `failed`. ' +
  'With a sandbox key, `X-Test-Scenario` forces `supplier_pending`, `supplier_error` or `card_declined`.';

const PREBOOK_DESCRIPTION =
  'Rechecks the offer with its vendor and prices it now (`price_changed`, `previous_price_chargeable`); applies a promo code (an invalid one leaves the price and says why in ' +
  '`promo_code_response`); for `account` checks available funds (400 `INSUFFICIENT_FUNDS`); `credit_card` gets a `payment_session_token`. The prebook holds its price ' +
  'until `expires_at`. With a sandbox key, `X-Test-Scenario` forces `price_changed` or `sold_out`.';

/** Every public route, keyed by `METHOD /path/{template}`. */
export const ROUTES = {
  'GET /health': {
    sends: [],
    operationId: 'getLiveness',
    tag: 'Health',
    retry: 'safe',
    summary: 'Liveness: the gateway answers',
    replies: { 200: { type: 'LivenessView', form: 'envelope', description: 'The gateway process answers.' } },
    errors: [],
  },
  'GET /health/ready': {
    sends: [],
    operationId: 'getReadiness',
    tag: 'Health',
    // A readiness check reports a 503; retrying would hide it.
    retry: 'never',
    summary: 'Readiness: every service answers and reaches its database',
    description: '503 `SERVICE_UNAVAILABLE` names what is down (NATS, a service, a database).',
    replies: { 200: { type: 'ReadinessView', form: 'envelope', description: 'Every service answers over NATS and reaches its database.' } },
    errors: ['SERVICE_UNAVAILABLE'],
  },
  'GET /openapi.json': {
    sends: [],
    operationId: 'getOpenApiDocument',
    tag: 'Documentation',
    retry: 'safe',
    summary: 'This OpenAPI document',
    replies: { 200: { form: 'json-document', description: 'The OpenAPI 3.1 document of both APIs.' }, 304: { form: 'empty', description: 'The client\'s copy (its `If-None-Match`) is this version.' } },
    conditional: true,
    errors: [],
  },
  'GET /docs': {
    sends: [],
    operationId: 'getApiReference',
    tag: 'Documentation',
    retry: 'safe',
    summary: 'The interactive API reference (Swagger UI)',
    description: 'An HTML page that renders `/openapi.json`; every script and style it uses is served by the gateway under `/docs/`, none from elsewhere.',
    replies: { 200: { form: 'html', description: 'The reference page.' }, 304: { form: 'empty', description: 'The client\'s copy (its `If-None-Match`) is this version.' } },
    conditional: true,
    errors: [],
  },
  'GET /docs/{asset}': {
    sends: [],
    operationId: 'getApiReferenceAsset',
    tag: 'Documentation',
    retry: 'safe',
    summary: 'A script, style sheet or icon of the API reference page',
    replies: { 200: { form: 'asset', description: 'The file.' }, 304: { form: 'empty', description: 'The client\'s copy (its `If-None-Match`) is this version.' } },
    conditional: true,
    errors: [],
  },
  'GET /finance': {
    sends: [],
    operationId: 'getFinanceConsole',
    tag: 'Documentation',
    retry: 'safe',
    summary: 'The finance console',
    description: 'An HTML page (also at `/finance/`) for the finance team: balance, ledger, statements with CSV and PDF downloads, reconciliation, the daily balance, credit requests. Its files are served under `/finance/`; the token typed into it stays in the tab (sessionStorage) and is sent as `Authorization`.',
    replies: { 200: { form: 'html', description: 'The console page.' } },
    errors: [],
  },
  'GET /finance/{asset}': {
    sends: [],
    operationId: 'getFinanceConsoleAsset',
    tag: 'Documentation',
    retry: 'safe',
    summary: 'A script or style sheet of the finance console',
    replies: { 200: { form: 'asset', description: 'The file.' } },
    errors: [],
  },
  'GET /me': {
    sends: [],
    operationId: 'getIdentity',
    tag: 'Identity',
    retry: 'safe',
    summary: 'Which client and user a credential acts for',
    description: 'The first call to make with a new key: the client, the user (for a user token) and whether it is a sandbox key.',
    replies: { 200: { type: 'IdentityView', form: 'envelope', description: 'The credential\'s client and user.' } },
    errors: [],
  },
  'GET /places/search': {
    sends: [OPERATIONS.SEARCH_PLACE_FIND],
    operationId: 'searchPlaces',
    tag: 'Places and search',
    retry: 'safe',
    summary: 'Find places (cities, regions, countries) by name',
    description:
      'Case and accent insensitive prefix matching on the name or any later word, ranked by population. `place_id` (`gn:<GeoNames id>`, `cc:<ISO country>`) and ' +
      '`destination_id` are both accepted wherever a place is taken.',
    replies: { 200: { type: 'PlacesReply', form: 'envelope', description: 'The matching places, best first.' } },
    errors: [],
  },
  'POST /search': {
    status: 200,
    sends: [OPERATIONS.SEARCH_SESSION_CREATE, OPERATIONS.SEARCH_SESSION_POLL],
    operationId: 'searchHotels',
    tag: 'Places and search',
    // A new search starts another session: harmless.
    retry: 'safe',
    summary: 'Start a search, or poll one with {"session_id"} alone',
    description:
      'Answers at once with a `session_id` and what the fastest vendors returned; poll until `search_completed`. Each hotel appears once, with its lowest rate, cheapest first.',
    replies: { 200: { type: 'SearchData', form: 'envelope', description: 'The search session and the results gathered so far.' } },
    errors: ['NOT_FOUND', 'SESSION_EXPIRED', ...FX_ERRORS],
  },
  'GET /search/{session_id}': {
    sends: [OPERATIONS.SEARCH_SESSION_POLL],
    operationId: 'pollSearch',
    tag: 'Places and search',
    retry: 'safe',
    summary: 'Poll a search',
    description: 'Sessions expire 30 minutes after their last use: 404 `SESSION_EXPIRED`.',
    replies: { 200: { type: 'SearchData', form: 'envelope', description: 'The results gathered so far.' } },
    errors: ['NOT_FOUND', 'SESSION_EXPIRED', ...FX_ERRORS],
  },
  'GET /hotel/{hotel_id}/{session_id}': {
    sends: [OPERATIONS.SEARCH_HOTEL_RATES_GET],
    operationId: 'getHotelRates',
    tag: 'Places and search',
    retry: 'safe',
    summary: 'One hotel\'s details and rates within a search',
    description: 'Polled like a search: vendors answer in half their search latency, counted from the first request for that hotel.',
    replies: { 200: { type: 'HotelRatesData', form: 'envelope', description: 'The hotel and its rates, cheapest first.' } },
    errors: ['NOT_FOUND', 'SESSION_EXPIRED', ...FX_ERRORS],
  },
  'GET /prebook/{hotel_id}/{session_id}/{rate_id}/{payment_method}': {
    sends: [OPERATIONS.RATES_PREBOOK_CREATE],
    operationId: 'prebookRate',
    tag: 'Prebook and book',
    // Each prebook is a new one at the current price; book uses the latest.
    retry: 'safe',
    summary: 'Prebook a rate of a search',
    description: PREBOOK_DESCRIPTION,
    replies: { 200: { type: 'PrebookData', form: 'envelope', description: 'The prebook, priced now.' } },
    errors: ['NOT_FOUND', 'SESSION_EXPIRED', 'RATE_NOT_AVAILABLE', 'INSUFFICIENT_FUNDS', ...FX_ERRORS],
  },
  'POST /book/{hotel_id}/{session_id}/{rate_id}/{payment_method}': {
    sends: [OPERATIONS.BOOKING_BOOKING_CREATE, OPERATIONS.BOOKING_BOOKING_FIND_RECORDED],
    operationId: 'bookRate',
    tag: 'Prebook and book',
    retry: 'with-idempotency-key',
    summary: 'Book a prebooked rate',
    description: BOOK_DESCRIPTION,
    replies: BOOKED,
    errors: BOOK_ERRORS,
  },
  'POST /book/promocode': {
    status: 200,
    sends: [OPERATIONS.PROMO_CODE_QUOTE],
    operationId: 'validatePromoCode',
    tag: 'Bookings',
    retry: 'safe',
    summary: 'The discount a promo code gives on an amount',
    description: 'Codes are case insensitive; an invalid code is 400 `PROMO_CODE_INVALID` saying why (unknown, expired, minimum amount, used up).',
    replies: { 200: { type: 'PromoDiscountView', form: 'envelope', description: 'The discount.' } },
    errors: ['PROMO_CODE_INVALID'],
  },
  'GET /book': {
    sends: [OPERATIONS.BOOKING_BOOKING_LIST],
    operationId: 'listBookings',
    tag: 'Bookings',
    retry: 'safe',
    summary: 'The client\'s bookings, filtered, sorted and paged',
    description:
      'An API key lists its own world\'s bookings (sandbox or live), a user token its user\'s. `total` counts every match across pages. ' +
      'Each page carries an `ETag`: ask again with `If-None-Match` for 304 without a body while nothing on the page has changed.',
    replies: { 200: { type: 'BookingView', form: 'page', description: 'One page of bookings and the total.' }, 304: { form: 'empty', description: 'The client\'s copy (its `If-None-Match`) is this page as it is now.' } },
    conditional: true,
    errors: [],
  },
  'GET /book/precancel/{booking_id}': {
    sends: [OPERATIONS.BOOKING_BOOKING_PRECANCEL],
    operationId: 'previewCancellation',
    tag: 'Bookings',
    retry: 'safe',
    summary: 'The penalty cancelling now would cost',
    replies: { 200: { type: 'PrecancelView', form: 'envelope', description: 'The penalty.' } },
    errors: ['NOT_FOUND'],
  },
  'POST /book/cancel/{booking_id}': {
    status: 200,
    sends: [OPERATIONS.BOOKING_BOOKING_CANCEL],
    operationId: 'cancelBooking',
    tag: 'Bookings',
    // One cancellation and one refund however often it is sent.
    retry: 'safe',
    summary: 'Cancel a booking',
    description:
      'Applies the penalty of the latest penalty period that has started. Idempotent: a repeat answers the same reference. Failed or pending bookings and bookings whose ' +
      'check-in has passed: 400. One that cannot finish in time: 503 with `Retry-After` (the cancellation is recorded and finished in the background).',
    replies: { 200: { type: 'CancelView', form: 'envelope', description: 'The booking is cancelled.' } },
    errors: ['NOT_FOUND', 'CONFLICT'],
  },
  'GET /vouchers/{booking_id}': {
    sends: [OPERATIONS.BOOKING_VOUCHER_RENDER],
    operationId: 'getVoucher',
    tag: 'Bookings',
    retry: 'safe',
    summary: 'A booking\'s voucher (PDF) behind its signed link',
    description:
      'No credential: the signature of `voucher_url` is the authority, valid 30 days. A tampered or expired link is 404. The PDF is rendered once per version of the booking: ' +
      'ask again with `If-None-Match` and its `ETag` for 304 without a body.',
    replies: { 200: { form: 'pdf', description: 'The voucher.' }, 304: { form: 'empty', description: 'The client\'s copy (its `If-None-Match`) is this version.' } },
    conditional: true,
    errors: ['NOT_FOUND', 'SERVICE_UNAVAILABLE'],
  },
  'POST /v2/rates': {
    status: 200,
    sends: [OPERATIONS.SEARCH_V2_RATES_SEARCH],
    operationId: 'searchRatesV2',
    tag: 'V2',
    retry: 'safe',
    summary: 'Every rate of the matching hotels at once (no envelope)',
    description:
      'Exactly one of `destination_id`, `place_id`, `coordinates` (+ `radius`) or `hotel_ids`. Vendors slower than the V2 deadline are left out and `search_completed` is false. ' +
      '`page` and `limit` page over hotels. Rate ids are opaque signed strings valid 30 minutes.',
    replies: { 200: { type: 'V2RatesResponse', form: 'bare', description: 'The rates, without an envelope.' } },
    errors: [...FX_ERRORS],
  },
  'POST /v2/prebook': {
    status: 200,
    sends: [OPERATIONS.RATES_PREBOOK_CREATE],
    operationId: 'prebookV2',
    tag: 'V2',
    retry: 'safe',
    summary: 'Prebook a V2 rate by its id',
    description: `${PREBOOK_DESCRIPTION} The answer's \`prebook_id\` is what \`POST /v2/book\` takes.`,
    replies: { 200: { type: 'PrebookData', form: 'envelope', description: 'The prebook, priced now.' } },
    errors: ['NOT_FOUND', 'RATE_NOT_AVAILABLE', 'INSUFFICIENT_FUNDS', ...FX_ERRORS],
  },
  'POST /v2/book': {
    sends: [OPERATIONS.BOOKING_BOOKING_CREATE, OPERATIONS.BOOKING_BOOKING_FIND_RECORDED],
    operationId: 'bookV2',
    tag: 'V2',
    retry: 'with-idempotency-key',
    summary: 'Book a V2 prebook',
    description: BOOK_DESCRIPTION,
    replies: BOOKED,
    errors: BOOK_ERRORS,
  },
  'POST /api/user': {
    sends: [OPERATIONS.USERS_USER_CREATE],
    operationId: 'createUser',
    tag: 'Users',
    // Each call creates another user.
    retry: 'with-idempotency-key',
    summary: 'Create a user',
    description: 'With an `Idempotency-Key` header (1–128 printable characters, per client), the same user again answers the user the first post made and makes no other; another user under the key is 409 IDEMPOTENCY_CONFLICT.',
    replies: { 201: { type: 'UserView', form: 'envelope', description: 'The user.' } },
    errors: ['IDEMPOTENCY_CONFLICT'],
  },
  'GET /api/user/{id}': {
    sends: [OPERATIONS.USERS_USER_GET],
    operationId: 'getUser',
    tag: 'Users',
    retry: 'safe',
    summary: 'A user (a deleted one too, with deletedAt)',
    replies: { 200: { type: 'UserView', form: 'envelope', description: 'The user.' } },
    errors: ['NOT_FOUND'],
  },
  'PUT /api/user/{id}': {
    sends: [OPERATIONS.USERS_USER_UPDATE],
    operationId: 'updateUser',
    tag: 'Users',
    retry: 'safe',
    summary: 'Change a user (at least one field)',
    replies: { 200: { type: 'UserView', form: 'envelope', description: 'The user as changed.' } },
    errors: ['NOT_FOUND'],
  },
  'DELETE /api/user/{id}': {
    sends: [OPERATIONS.USERS_USER_DELETE],
    operationId: 'deleteUser',
    tag: 'Users',
    // A repeat of a delete whose answer was lost is 404; a repeat of a token issue mints another token.
    retry: 'never',
    summary: 'Delete a user (soft: it stays readable, its tokens stop working)',
    replies: { 200: { type: 'UserView', form: 'envelope', description: 'The deleted user, with `deletedAt`.' } },
    errors: ['NOT_FOUND'],
  },
  'GET /api/user/{id}/token': {
    sends: [OPERATIONS.USERS_USER_TOKEN_ISSUE],
    operationId: 'issueUserToken',
    tag: 'Users',
    retry: 'never',
    summary: 'Issue a user token',
    description: 'A user token acts as that user on both APIs until `expiresAt`.',
    replies: { 200: { type: 'UserTokenView', form: 'envelope', description: 'The token, shown once.' } },
    errors: ['NOT_FOUND'],
  },
  'POST /api/accounting': {
    status: 201,
    sends: [OPERATIONS.ACCOUNTING_ENTRY_CREATE],
    operationId: 'createAccountingEntry',
    tag: 'Accounting',
    // Each call appends another ledger entry.
    retry: 'with-idempotency-key',
    summary: 'Append a ledger entry',
    description:
      'A `clientId` other than the caller\'s is 403. Amounts are in the account\'s currency: more decimals than it has (JPY none, USD two, KWD three) or more than 999,999,999.99 is 400 naming the field. Entries are never changed or deleted; corrections are new entries. A new client starts with the `pending` credit policy: its own credits are credit requests (202) until the finance team confirms them. With an `Idempotency-Key` header (1–128 printable characters, per client), a repeat of the same entry answers exactly what the first post answered (its entry or its credit request, same status) and writes nothing; another entry under the key is 409 IDEMPOTENCY_CONFLICT.',
    replies: {
      201: { type: 'AccountingEntryView', form: 'envelope', description: 'The entry.' },
      202: { type: 'CreditRequestView', form: 'envelope', description: 'A credit of the client\'s own under the `pending` credit policy (where new clients start): a credit request, no money moved until the finance team confirms it.' },
    },
    errors: ['NOT_FOUND', 'IDEMPOTENCY_CONFLICT'],
  },
  'GET /api/accounting': {
    sends: [OPERATIONS.ACCOUNTING_ENTRY_LIST, OPERATIONS.ACCOUNTING_EXPORT_PAGE, OPERATIONS.USERS_CLIENT_GET],
    operationId: 'listAccountingEntries',
    tag: 'Accounting',
    retry: 'safe',
    summary: 'The ledger, newest first',
    description:
      'As CSV (`format=csv` or `Accept: text/csv`): every entry, oldest first, streamed, amounts with the account currency\'s decimals, then the currency and, for an entry of a booking, the vendor\'s price, its currency, the exchange rate and its date. The finance credential names the client with `clientId`; a backend token naming another client is 404.',
    replies: { 200: { type: 'AccountingEntryView', form: 'page', description: 'One page of entries and the total.', downloads: ['csv'] } },
    errors: ['NOT_FOUND'],
  },
  'GET /api/accounting/balance': {
    sends: [OPERATIONS.ACCOUNTING_BALANCE_GET],
    operationId: 'getBalance',
    tag: 'Accounting',
    retry: 'safe',
    summary: 'Credit limit, credits, debits, holds and available funds',
    replies: { 200: { type: 'BalanceView', form: 'envelope', description: 'The balance.' } },
    errors: ['NOT_FOUND'],
  },
  'GET /api/accounting/booking/{bookingId}': {
    sends: [OPERATIONS.ACCOUNTING_ENTRY_LIST_BY_BOOKING],
    operationId: 'listBookingAccountingEntries',
    tag: 'Accounting',
    retry: 'safe',
    summary: 'A booking\'s ledger entries',
    replies: { 200: { type: 'AccountingEntryView', form: 'list', description: 'The entries.' } },
    errors: ['NOT_FOUND'],
  },
  'GET /api/accounting/{id}': {
    sends: [OPERATIONS.ACCOUNTING_ENTRY_GET],
    operationId: 'getAccountingEntry',
    tag: 'Accounting',
    retry: 'safe',
    summary: 'A ledger entry',
    replies: { 200: { type: 'AccountingEntryView', form: 'envelope', description: 'The entry.' } },
    errors: ['NOT_FOUND'],
  },
  'POST /api/webhook': {
    status: 201,
    sends: [OPERATIONS.WEBHOOKS_ENDPOINT_CREATE],
    operationId: 'createWebhookEndpoint',
    tag: 'Webhooks',
    // Each call adds another endpoint (and secret).
    retry: 'never',
    summary: 'Add a webhook endpoint',
    description:
      'Events default to every booking event. The answer holds the signing `secret` (`whsec_` + base64), shown only here and by rotate-secret. At most 10 endpoints per client (409 beyond). Only `https` URLs of public addresses are taken (not loopback, private, link-local or metadata addresses), checked again at every connection.',
    replies: { 201: { type: 'WebhookEndpointWithSecret', form: 'envelope', description: 'The endpoint and its signing secret.' } },
    errors: ['CONFLICT'],
  },
  'GET /api/webhook': {
    sends: [OPERATIONS.WEBHOOKS_ENDPOINT_LIST],
    operationId: 'listWebhookEndpoints',
    tag: 'Webhooks',
    retry: 'safe',
    summary: 'The client\'s webhook endpoints',
    replies: { 200: { type: 'WebhookEndpointView', form: 'list', description: 'The endpoints, oldest first.' } },
    errors: [],
  },
  'POST /api/webhook/deliveries/{id}/retry': {
    status: 202,
    sends: [OPERATIONS.WEBHOOKS_DELIVERY_RETRY],
    operationId: 'retryWebhookDelivery',
    tag: 'Webhooks',
    // One more attempt of the same event (same webhook-id): a receiver drops the repeat.
    retry: 'safe',
    summary: 'Send a delivery again now',
    description: 'Whatever its status; its attempts go on counting. 409 while its endpoint is disabled.',
    replies: { 202: { type: 'WebhookDeliveryView', form: 'envelope', description: 'The delivery, pending.' } },
    errors: ['NOT_FOUND', 'CONFLICT'],
  },
  'GET /api/webhook/{id}': {
    sends: [OPERATIONS.WEBHOOKS_ENDPOINT_GET],
    operationId: 'getWebhookEndpoint',
    tag: 'Webhooks',
    retry: 'safe',
    summary: 'A webhook endpoint',
    replies: { 200: { type: 'WebhookEndpointView', form: 'envelope', description: 'The endpoint.' } },
    errors: ['NOT_FOUND'],
  },
  'PUT /api/webhook/{id}': {
    sends: [OPERATIONS.WEBHOOKS_ENDPOINT_UPDATE],
    operationId: 'updateWebhookEndpoint',
    tag: 'Webhooks',
    retry: 'safe',
    summary: 'Change a webhook endpoint',
    description: 'Any of `url`, `events`, `description` (null clears it) and `enabled`, at least one. Enabling an endpoint the platform disabled clears `disabledReason`.',
    replies: { 200: { type: 'WebhookEndpointView', form: 'envelope', description: 'The endpoint.' } },
    errors: ['NOT_FOUND'],
  },
  'DELETE /api/webhook/{id}': {
    sends: [OPERATIONS.WEBHOOKS_ENDPOINT_DELETE],
    operationId: 'deleteWebhookEndpoint',
    tag: 'Webhooks',
    // A repeat of a delete whose answer was lost is 404; a repeat of a rotation replaces the secret just shown.
    retry: 'never',
    summary: 'Delete a webhook endpoint',
    description: 'Its deliveries go with it: nothing more is sent to it, pending retries included.',
    replies: { 200: { type: 'DeletedWebhookEndpoint', form: 'envelope', description: 'The id deleted.' } },
    errors: ['NOT_FOUND'],
  },
  'POST /api/webhook/{id}/rotate-secret': {
    status: 200,
    sends: [OPERATIONS.WEBHOOKS_ENDPOINT_ROTATE_SECRET],
    operationId: 'rotateWebhookSecret',
    tag: 'Webhooks',
    retry: 'never',
    summary: 'Replace the signing secret',
    description: 'For 24 hours webhooks carry a signature by the old secret beside the new one, so a receiver can switch over without losing any.',
    replies: { 200: { type: 'WebhookEndpointWithSecret', form: 'envelope', description: 'The endpoint and its new secret, shown once.' } },
    errors: ['NOT_FOUND'],
  },
  'POST /api/webhook/{id}/test': {
    status: 202,
    sends: [OPERATIONS.WEBHOOKS_ENDPOINT_TEST],
    operationId: 'testWebhookEndpoint',
    tag: 'Webhooks',
    // Each call sends another test event.
    retry: 'never',
    summary: 'Send a webhook.test event now',
    description: 'Whatever the endpoint subscribes to; delivered, signed and retried like any event. 409 while the endpoint is disabled.',
    replies: { 202: { type: 'WebhookDeliveryView', form: 'envelope', description: 'Its delivery, pending.' } },
    errors: ['NOT_FOUND', 'CONFLICT'],
  },
  'GET /api/webhook/{id}/deliveries': {
    sends: [OPERATIONS.WEBHOOKS_DELIVERY_LIST],
    operationId: 'listWebhookDeliveries',
    tag: 'Webhooks',
    retry: 'safe',
    summary: 'An endpoint\'s delivery log, newest first',
    description: 'Each delivery\'s status and the timing of its last attempt; never what the receiver answered.',
    replies: { 200: { type: 'WebhookDeliveryView', form: 'page', description: 'One page of deliveries and the total.' } },
    errors: ['NOT_FOUND'],
  },
  // Finance workspace
  'GET /api/accounting/clients': {
    sends: [OPERATIONS.USERS_CLIENT_SEARCH],
    operationId: 'searchClients',
    tag: 'Finance',
    retry: 'safe',
    summary: 'Clients by name, for the finance credential',
    description: 'Clients whose name holds `search` (any case) or whose id it is, active ones first, then by name; at most `limit` (20 unless said, at most 50). The finance credential only (403 for a client\'s credential).',
    replies: { 200: { type: 'ClientName', form: 'list', description: 'The clients.' } },
    errors: ['FORBIDDEN'],
  },
  'GET /api/accounting/statement': {
    sends: [OPERATIONS.ACCOUNTING_STATEMENT_SUMMARY, OPERATIONS.ACCOUNTING_EXPORT_PAGE, OPERATIONS.USERS_CLIENT_GET],
    operationId: 'getStatement',
    tag: 'Finance',
    retry: 'safe',
    summary: 'A statement of a period',
    description:
      'Opening balance, every entry of the UTC days `from` to `to` (at most 366; an entry of a booking with `fx`, how its price was converted), the totals, the closing balance, the credit limit and the funds available at the end, in the account\'s currency. As CSV or PDF with `format` or the Accept header (amounts with the currency\'s decimals).',
    replies: { 200: { type: 'StatementView', form: 'envelope', description: 'The statement.', downloads: ['csv', 'pdf'] } },
    errors: ['NOT_FOUND'],
  },
  'GET /api/accounting/balance/daily': {
    sends: [OPERATIONS.ACCOUNTING_BALANCE_DAILY],
    operationId: 'getDailyBalance',
    tag: 'Finance',
    retry: 'safe',
    summary: 'Credits, debits, closing balance and available funds per day',
    replies: { 200: { type: 'DailyBalanceView', form: 'envelope', description: 'One row per day of the period.' } },
    errors: ['NOT_FOUND'],
  },
  'GET /api/accounting/reconciliation': {
    sends: [OPERATIONS.ACCOUNTING_RECONCILIATION_GET],
    operationId: 'getReconciliation',
    tag: 'Finance',
    retry: 'safe',
    summary: 'The period\'s bookings against their ledger entries',
    description:
      'Every mismatch (a confirmed booking without its debit or with another amount, a debit without its booking, a refund other than price − penalty, a card booking without its debit and credit, a hold older than the saga lease, a booking priced in another currency than the account\'s), each booking\'s with the vendor\'s price and the exchange rate, and totals per booking status: in the account\'s currency, and apart for each other currency. Sandbox bookings are not reconciled (they move no money). With the finance credential, `vendors` adds the reconciliation reports with the remote vendors whose period overlaps this one (every client\'s bookings with a vendor against the vendor\'s own list: missing_at_vendor, unknown_to_platform, status_mismatch); a backend token gets null there.',
    replies: { 200: { type: 'ReconciliationView', form: 'envelope', description: 'The reconciliation.' } },
    errors: ['NOT_FOUND'],
  },
  'GET /api/accounting/requests': {
    sends: [OPERATIONS.ACCOUNTING_CREDIT_REQUEST_LIST],
    operationId: 'listCreditRequests',
    tag: 'Finance',
    retry: 'safe',
    summary: 'Credit requests, newest first',
    description: 'A backend token sees its client\'s; the finance credential one client\'s (`clientId`) or every client\'s.',
    replies: { 200: { type: 'CreditRequestView', form: 'page', description: 'One page of credit requests and the total.' } },
    errors: ['NOT_FOUND'],
  },
  'POST /api/accounting/requests/{id}/confirm': {
    status: 200,
    sends: [OPERATIONS.ACCOUNTING_CREDIT_REQUEST_CONFIRM],
    operationId: 'confirmCreditRequest',
    tag: 'Finance',
    // A confirmation or rejection is made once; a repeat answers the same request.
    retry: 'safe',
    summary: 'Confirm a credit request (finance credential)',
    description: 'Appends its entry exactly once, even when confirmed concurrently; a repeat answers the same. A rejected request is 409.',
    replies: { 200: { type: 'CreditRequestView', form: 'envelope', description: 'The confirmed request with its `entryId`.' } },
    errors: ['NOT_FOUND', 'CONFLICT'],
  },
  'POST /api/accounting/requests/{id}/reject': {
    status: 200,
    sends: [OPERATIONS.ACCOUNTING_CREDIT_REQUEST_REJECT],
    operationId: 'rejectCreditRequest',
    tag: 'Finance',
    retry: 'safe',
    summary: 'Reject a credit request (finance credential)',
    description: 'No money moves. A confirmed request is 409.',
    replies: { 200: { type: 'CreditRequestView', form: 'envelope', description: 'The rejected request.' } },
    errors: ['NOT_FOUND', 'CONFLICT'],
  },
  'GET /api/booking': {
    sends: [OPERATIONS.BOOKING_BACKEND_BOOKING_LIST],
    operationId: 'listBackendBookings',
    tag: 'Backend bookings',
    retry: 'safe',
    summary: 'The client\'s bookings (a user token: that user\'s), newest first',
    description: 'Failed bookings are left out. Each page carries an `ETag`: ask again with `If-None-Match` for 304 without a body while nothing on the page has changed.',
    replies: { 200: { type: 'BackendBooking', form: 'page', description: 'One page of bookings and the total.' }, 304: { form: 'empty', description: 'The client\'s copy (its `If-None-Match`) is this page as it is now.' } },
    conditional: true,
    errors: [],
  },
  'GET /api/booking/user/{userId}': {
    sends: [OPERATIONS.BOOKING_BACKEND_BOOKING_LIST],
    operationId: 'listUserBackendBookings',
    tag: 'Backend bookings',
    retry: 'safe',
    summary: 'A user\'s bookings, newest first',
    description: 'Failed bookings are left out. Conditional as `GET /api/booking` is.',
    replies: { 200: { type: 'BackendBooking', form: 'page', description: 'One page of bookings and the total.' }, 304: { form: 'empty', description: 'The client\'s copy (its `If-None-Match`) is this page as it is now.' } },
    conditional: true,
    errors: [],
  },
} satisfies Record<string, RouteDefinition>;

/** A public route's key: `METHOD /path/{template}`. */
export type RouteKey = keyof typeof ROUTES;

/** The definition of a route, by its key (for code that holds a key as a string). */
export function routeDefinitionOf(key: string): RouteDefinition | undefined {
  return Object.hasOwn(ROUTES, key) ? (ROUTES as Record<string, RouteDefinition>)[key] : undefined;
}
