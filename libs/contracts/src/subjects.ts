/**
 * Every NATS subject of the platform: `<context>.<entity>.<action>.v<n>`.
 * Never rename or change the payload of a subject in place: running replicas of
 * another version still use it. A changed payload gets a new `.v<n+1>` subject.
 */
export const SUBJECTS = {
  SEARCH_HEALTH_CHECK: 'search.health.check.v1',
  RATES_HEALTH_CHECK: 'rates.health.check.v1',
  BOOKING_HEALTH_CHECK: 'booking.health.check.v1',
  PROMO_HEALTH_CHECK: 'promo.health.check.v1',
  USERS_HEALTH_CHECK: 'users.health.check.v1',
  ACCOUNTING_HEALTH_CHECK: 'accounting.health.check.v1',
  WEBHOOKS_HEALTH_CHECK: 'webhooks.health.check.v1',

  /**
   * v3: the answer carries the client's pricing (currency, FX margin), which booking-API calls need.
   * v4: and which of the client's credentials the secret is (`credentialId`), the one a user token it issues records.
   */
  USERS_CREDENTIAL_RESOLVE: 'users.credential.resolve.v4',
  USERS_CLIENT_CREATE: 'users.client.create.v1',
  USERS_CLIENT_LIST: 'users.client.list.v1',
  USERS_CLIENT_SEARCH: 'users.client.search.v1',
  /** v3: `keepUserTokens`; the backend token's user tokens go with it unless kept; the answer says how many went. */
  USERS_CLIENT_ROTATE_KEYS: 'users.client.rotate-keys.v3',
  USERS_CLIENT_REVOKE_KEYS: 'users.client.revoke-keys.v3',
  USERS_CLIENT_SET_RATE_LIMIT: 'users.client.set-rate-limit.v1',
  USERS_CLIENT_DELETE: 'users.client.delete.v1',
  USERS_CLIENT_SET_FX_MARGIN: 'users.client.set-fx-margin.v1',
  USERS_USER_CREATE: 'users.user.create.v1',
  USERS_USER_GET: 'users.user.get.v1',
  USERS_USER_UPDATE: 'users.user.update.v1',
  USERS_USER_DELETE: 'users.user.delete.v1',
  /** v2: names the backend token that asks (`mintedBy`), which the new token records. */
  USERS_USER_TOKEN_ISSUE: 'users.user-token.issue.v2',

  SEARCH_PLACE_FIND: 'search.place.find.v1',
  SEARCH_SESSION_CREATE: 'search.session.create.v2',
  SEARCH_SESSION_POLL: 'search.session.poll.v2',
  SEARCH_HOTEL_RATES_GET: 'search.hotel-rates.get.v2',
  /** Answers in several messages (V2RatesChunk): a head, then the rates in chunks under 1 MB. */
  SEARCH_V2_RATES_SEARCH: 'search.v2-rates.search.v2',

  RATES_INVENTORY_SOLD_OUT: 'rates.inventory.sold-out.v2',
  RATES_PREBOOK_CREATE: 'rates.prebook.create.v3',
  /** v4: the answer carries the prebook's FX record (BookingFx). */
  RATES_PREBOOK_FIND: 'rates.prebook.find.v4',
  RATES_PREBOOK_ATTACH: 'rates.prebook.attach.v2',
  RATES_SUPPLIER_BOOK: 'rates.supplier.book.v3',
  RATES_SUPPLIER_CANCEL: 'rates.supplier.cancel.v2',
  RATES_SUPPLIER_STATUS: 'rates.supplier.status.v2',
  RATES_FX_RATES_GET: 'rates.fx-rates.get.v1',
  RATES_FX_RATES_IMPORT: 'rates.fx-rates.import.v1',
  RATES_VENDOR_RECONCILIATION_RUN: 'rates.vendor-reconciliation.run.v1',
  RATES_VENDOR_RECONCILIATION_LIST: 'rates.vendor-reconciliation.list.v1',

  BOOKING_BOOKING_CREATE: 'booking.booking.create.v2',
  /** Answers in several messages (BookingPageChunk): the total, then the bookings as raw JSON bytes. */
  BOOKING_BOOKING_LIST: 'booking.booking.list.v2',
  /** v3: with the page's entity tag, and no bookings for a client that has that page (If-None-Match). v2 is served one more release. */
  BOOKING_BOOKING_LIST_V3: 'booking.booking.list.v3',
  BOOKING_BOOKING_PRECANCEL: 'booking.booking.precancel.v2',
  /** The booking a book request recorded (by its idempotency key or prebook), when its answer did not come. */
  BOOKING_BOOKING_FIND_RECORDED: 'booking.booking.find-recorded.v1',
  BOOKING_BOOKING_CANCEL: 'booking.booking.cancel.v2',
  /** Answers in several messages (BackendBookingPageChunk), as booking.booking.list does. */
  BOOKING_BACKEND_BOOKING_LIST: 'booking.backend-booking.list.v2',
  /** v3: tagged as booking.booking.list.v3 is. v2 is served one more release. */
  BOOKING_BACKEND_BOOKING_LIST_V3: 'booking.backend-booking.list.v3',
  BOOKING_VOUCHER_RENDER: 'booking.voucher.render.v2',
  /** v3: with the PDF's entity tag, and 'not modified' for a client that has it. */
  BOOKING_VOUCHER_RENDER_V3: 'booking.voucher.render.v3',
  SEARCH_RATE_RESOLVE: 'search.rate.resolve.v2',
  SEARCH_CATALOG_HOTELS_GET: 'search.catalog-hotels.get.v1',
  SEARCH_CONTENT_IMPORT_RUN: 'search.content-import.run.v1',

  /** v2: the answer carries when the client was created (the credit policy of its day). */
  USERS_CLIENT_GET: 'users.client.get.v2',

  /** v2: answers the entry, or the credit request a `pending` credit policy makes of a client's own credit. */
  ACCOUNTING_ENTRY_CREATE: 'accounting.entry.create.v2',
  ACCOUNTING_ENTRY_LIST: 'accounting.entry.list.v1',
  ACCOUNTING_ENTRY_GET: 'accounting.entry.get.v1',
  ACCOUNTING_ENTRY_LIST_BY_BOOKING: 'accounting.entry.list-by-booking.v1',
  ACCOUNTING_BALANCE_GET: 'accounting.balance.get.v1',
  ACCOUNTING_FUNDS_CHECK: 'accounting.funds.check.v2',
  ACCOUNTING_HOLD_PLACE: 'accounting.hold.place.v2',
  ACCOUNTING_HOLD_CAPTURE: 'accounting.hold.capture.v1',
  ACCOUNTING_HOLD_RELEASE: 'accounting.hold.release.v1',
  ACCOUNTING_REFUND_CREATE: 'accounting.refund.create.v2',
  ACCOUNTING_CARD_PAYMENT_RECORD: 'accounting.card-payment.record.v2',

  PROMO_CODE_CREATE: 'promo.code.create.v1',
  /** v2: says the world (sandbox or live) whose uses of the code count. */
  PROMO_CODE_QUOTE: 'promo.code.quote.v2',
  /** v2: says the world (sandbox or live) whose uses of the code count. */
  PROMO_CODE_REDEEM: 'promo.code.redeem.v2',

  WEBHOOKS_ENDPOINT_CREATE: 'webhooks.endpoint.create.v1',
  WEBHOOKS_ENDPOINT_LIST: 'webhooks.endpoint.list.v1',
  WEBHOOKS_ENDPOINT_GET: 'webhooks.endpoint.get.v1',
  WEBHOOKS_ENDPOINT_UPDATE: 'webhooks.endpoint.update.v1',
  WEBHOOKS_ENDPOINT_DELETE: 'webhooks.endpoint.delete.v1',
  WEBHOOKS_ENDPOINT_ROTATE_SECRET: 'webhooks.endpoint.rotate-secret.v1',
  WEBHOOKS_ENDPOINT_TEST: 'webhooks.endpoint.test.v1',
  WEBHOOKS_DELIVERY_LIST: 'webhooks.delivery.list.v1',
  WEBHOOKS_DELIVERY_RETRY: 'webhooks.delivery.retry.v1',
  // Finance workspace: the finance credential, credit policy and requests, statements, exports, reconciliation.
  USERS_FINANCE_TOKEN_CREATE: 'users.finance-token.create.v1',
  USERS_FINANCE_TOKEN_REVOKE: 'users.finance-token.revoke.v1',
  ACCOUNTING_CREDIT_POLICY_SET: 'accounting.credit-policy.set.v1',
  ACCOUNTING_CREDIT_REQUEST_LIST: 'accounting.credit-request.list.v1',
  ACCOUNTING_CREDIT_REQUEST_CONFIRM: 'accounting.credit-request.confirm.v1',
  ACCOUNTING_CREDIT_REQUEST_REJECT: 'accounting.credit-request.reject.v1',
  /** v2: the figures also as exact decimal strings in the account currency's minor unit (`amounts`). */
  ACCOUNTING_STATEMENT_SUMMARY: 'accounting.statement.summary.v2',
  /** v2: the running balance carried between pages is any exact decimal (three decimals, no size limit). */
  ACCOUNTING_EXPORT_PAGE: 'accounting.export.page.v2',
  ACCOUNTING_BALANCE_DAILY: 'accounting.balance.daily.v1',
  /** v3: with the vendors' reconciliation reports of the period (`vendors`, for the finance credential). */
  ACCOUNTING_RECONCILIATION_GET: 'accounting.reconciliation.get.v3',
  /** v2: each booking carries its currency and FX record. */
  BOOKING_RECONCILIATION_LIST: 'booking.reconciliation.list.v2',
} as const;

export type Subject = (typeof SUBJECTS)[keyof typeof SUBJECTS];

/**
 * JetStream streams of the platform: events kept on the broker's disk, read by
 * consumers at their own pace. A stream's subjects are `events.<context>.<type>.v<n>`
 * like the core events (bus.ts), and a changed payload gets a new `.v<n+1>` too.
 */
export const STREAMS = {
  /** Every status change of a booking (booking/events.ts), published by the booking service's outbox relay. */
  BOOKING_EVENTS: { name: 'BOOKING_EVENTS', subjects: 'events.booking.>' },
} as const;

/**
 * JetStream key-value buckets: state that several replicas of one app share. Each is
 * the stream `KV_<name>` and its keys the subjects `$KV.<name>.<key>` (bus.ts gives
 * the owner exactly those).
 */
export const KV_BUCKETS = {
  /** The gateway replicas' shared token buckets and in-flight counts (apps/gateway/src/auth/shared-limits.ts). */
  RATE_LIMITS: 'hotel_rate_limits',
} as const;

/** The subject of each booking event type on the BOOKING_EVENTS stream. */
export const BOOKING_EVENT_SUBJECTS = {
  'booking.created': 'events.booking.created.v1',
  'booking.confirmed': 'events.booking.confirmed.v1',
  'booking.failed': 'events.booking.failed.v1',
  'booking.cancelled': 'events.booking.cancelled.v1',
} as const;

/** The services behind the gateway; each is a NATS queue group of this name. */
export const SERVICE_NAMES = ['search', 'rates', 'booking', 'promo', 'users', 'accounting', 'webhooks'] as const;
export type ServiceName = (typeof SERVICE_NAMES)[number];

export const HEALTH_SUBJECT_BY_SERVICE = {
  search: SUBJECTS.SEARCH_HEALTH_CHECK,
  rates: SUBJECTS.RATES_HEALTH_CHECK,
  booking: SUBJECTS.BOOKING_HEALTH_CHECK,
  promo: SUBJECTS.PROMO_HEALTH_CHECK,
  users: SUBJECTS.USERS_HEALTH_CHECK,
  accounting: SUBJECTS.ACCOUNTING_HEALTH_CHECK,
  webhooks: SUBJECTS.WEBHOOKS_HEALTH_CHECK,
} as const satisfies Record<ServiceName, Subject>;

/** NATS header names carried on every request. */
export const HEADERS = {
  REQUEST_ID: 'x-request-id',
  /**
   * How long the caller waits for the answer (ms): a service that cannot finish in
   * time answers with what it has (a booking still pending) instead of leaving the
   * caller to time out.
   */
  TIMEOUT_MS: 'hotel-timeout-ms',
  /**
   * On a reply whose body is raw bytes rather than a JSON packet: `more`, or
   * `last` on the final message of a multi-message reply.
   */
  RAW_REPLY: 'hotel-raw-reply',
  /** On a stream event: the client whose booking it is (so a consumer routes it without parsing the payload). */
  CLIENT_ID: 'hotel-client-id',
} as const;
