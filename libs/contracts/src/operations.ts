import { HealthCheckReply, HealthCheckRequest } from './health/health-check';
import { BusIdentity, ServiceName } from './identities';
import { ListBackendBookingsRequestV3 } from './booking/backend-booking';
import { RenderVoucherRequestV3, VoucherAnswer } from './booking/voucher';
import {
  BookingIdRequest,
  FindRecordedBookingRequest,
  RecordedBooking,
  Cancellation,
  CancellationQuote,
  BookingOrderRequest,
  ListBookingsRequestV4,
  TaggedBookingPageChunk,
} from './booking/book';
import { AttachBookingRequest, FindPrebookRequest, StoredPrebook, SupplierBookRequest, SupplierBooking, SupplierCancelRequest, SupplierStatusRequest } from './rates/supplier';
import { CreatePrebookRequest, Prebook, ResolveRateRequest, ResolvedRate } from './rates/prebook';
import { CreatePromoRequest, PromoQuote, PromoView, QuotePromoRequest, RedeemPromoRequest } from './promo/promo';
import {
  AccountingEntryView,
  BalanceRequest,
  BalanceView,
  BookingEntriesRequest,
  CardPaymentRequest,
  CreateEntryRequest,
  EntryIdRequest,
  EntryPage,
  FundsCheckReply,
  FundsCheckRequest,
  HoldRequest,
  HoldView,
  ListEntriesRequest,
  PlaceHoldRequest,
  RefundRequest,
} from './accounting/accounting';
import { SoldOutReply, SoldOutRequest } from './search/inventory';
import { FindPlacesRequest, PlaceMatches } from './search/places';
import { HotelRates } from './search/rate';
import { BookingCreated } from './booking/booking-snapshot';
import { CreateSearchSessionRequestV3, HotelRatesRequest, PollSearchSessionRequest, SearchProgress } from './search/search-session';
import { V2RatesQueryChunk, V2RatesRequestV3 } from './search/v2-rates';
import {
  ClientCredentials,
  ClientAccountTerms,
  ClientIdRequest,
  ClientRateLimitReply,
  DeleteClientReply,
  ClientKeysRequest,
  CreateClientRequest,
  ListClientsReply,
  ListClientsRequest,
  SearchClientsRequest,
  ClientName,
  ResolveCredentialRequest,
  ResolvedCredential,
  RevokeKeysReply,
  RotateKeysReply,
  SetRateLimitRequest,
  SetFxMarginRequest,
  ClientPricingReply,
} from './users/credentials';
import { GetFxRatesRequest, FxRatesReply, ImportFxRatesRequest, ImportFxRatesReply } from './rates/fx';
import { CatalogHotelsReply, ContentImportRunReply, GetCatalogHotelsRequest, RunContentImportRequest } from './search/catalog';
import { ListVendorReconciliationsRequest, RunVendorReconciliationRequest, VendorReconciliationRunReply, VendorReconciliationSection } from './rates/vendor-reconciliation';
import {
  CreateWebhookEndpointRequest,
  DeletedWebhookEndpoint,
  ListWebhookDeliveriesRequest,
  UpdateWebhookEndpointRequest,
  WebhookDeliveryIdRequest,
  WebhookDeliveryPage,
  WebhookDeliveryView,
  WebhookEndpointIdRequest,
  WebhookEndpointList,
  WebhookEndpointView,
  WebhookEndpointWithSecret,
} from './webhooks/webhooks';
import { ActorScoped } from './common/actor';
import { CreateUserRequest, IssueUserTokenRequest, UpdateUserRequest, UserIdRequest, UserTokenView, UserView } from './users/users';
import { CreateFinanceTokenRequest, FinanceTokenCreated, FinanceTokenRevoked, RevokeFinanceTokenRequest } from './users/finance-tokens';
import {
  CreditPolicyView,
  CreditRequestDecision,
  CreditRequestPage,
  CreditRequestView,
  DailyBalanceView,
  EntryPosted,
  ExportPage,
  ExportPageRequest,
  ListCreditRequestsRequest,
  PeriodRequest,
  ReconciliationBookingPage,
  ReconciliationBookingsRequest,
  ReconciliationView,
  SetCreditPolicyRequest,
  StatementSummary,
} from './accounting/finance';

/** A class whose instances are the request: the service validates what it receives against its decorators. */
export type RequestClass<Request> = new (...args: never[]) => Request;

/** A reply type, carried by TypeScript only (nothing at run time): `replyOf<PromoView>()`. */
export interface ReplyType<Reply> {
  readonly reply?: Reply;
}

export function replyOf<Reply>(): ReplyType<Reply> {
  return {};
}

/**
 * One operation of the bus, declared once: its subject (`<service>.<entity>.<action>.v<n>`,
 * the service being the one that answers it), the request class it is validated with,
 * the reply type, and the identities the broker lets send it. Subjects (subjects.ts),
 * the typed contract map (contract-map.ts), the broker's permissions (bus.ts) and the
 * handlers' signatures (`@Handles` in the platform library) all come from here.
 */
export interface Operation<Subject extends string = string, Request = unknown, Reply = unknown> {
  subject: Subject;
  request: RequestClass<Request>;
  reply: ReplyType<Reply>;
  callers: readonly BusIdentity[];
  /**
   * An older version kept answering for one release after its successor (the same
   * subject with a higher `.v<n>`) appeared, for the previous release's callers during a
   * rolling upgrade: nothing of this release sends it, and the release after removes it.
   */
  servedForPreviousRelease?: true;
}

function operation<const Subject extends string, Request, Reply>(definition: Operation<Subject, Request, Reply>): Operation<Subject, Request, Reply> {
  return definition;
}

/** A service's health check: the gateway's readiness probe and the admin CLI ask it. */
function healthCheck<const Service extends ServiceName>(service: Service) {
  return operation({ subject: `${service}.health.check.v1`, request: HealthCheckRequest, reply: replyOf<HealthCheckReply>(), callers: ['gateway', 'admin'] });
}

/**
 * Every request/reply operation of the platform. Never rename an operation's subject
 * or change its payloads in place: running replicas of another release still use it.
 * A changed payload gets a new `.v<n+1>` subject, and the old one is still answered
 * for one release after its successor appears (so a rolling upgrade never meets "no
 * responders").
 */
export const OPERATIONS = {
  SEARCH_HEALTH_CHECK: healthCheck('search'),
  RATES_HEALTH_CHECK: healthCheck('rates'),
  BOOKING_HEALTH_CHECK: healthCheck('booking'),
  PROMO_HEALTH_CHECK: healthCheck('promo'),
  USERS_HEALTH_CHECK: healthCheck('users'),
  ACCOUNTING_HEALTH_CHECK: healthCheck('accounting'),
  WEBHOOKS_HEALTH_CHECK: healthCheck('webhooks'),

  /**
   * v3: the answer carries the client's pricing (currency, FX margin), which booking-API calls need.
   * v4: and which of the client's credentials the secret is (`credentialId`), the one a user token it issues records.
   */
  USERS_CREDENTIAL_RESOLVE: operation({ subject: 'users.credential.resolve.v4', request: ResolveCredentialRequest, reply: replyOf<ResolvedCredential>(), callers: ['gateway'] }),
  USERS_CLIENT_CREATE: operation({ subject: 'users.client.create.v1', request: CreateClientRequest, reply: replyOf<Required<ClientCredentials>>(), callers: ['admin'] }),
  USERS_CLIENT_LIST: operation({ subject: 'users.client.list.v1', request: ListClientsRequest, reply: replyOf<ListClientsReply>(), callers: ['admin'] }),
  USERS_CLIENT_SEARCH: operation({ subject: 'users.client.search.v1', request: SearchClientsRequest, reply: replyOf<ClientName[]>(), callers: ['gateway'] }),
  /** v3: `keepUserTokens`; the backend token's user tokens go with it unless kept; the answer says how many went. */
  USERS_CLIENT_ROTATE_KEYS: operation({ subject: 'users.client.rotate-keys.v3', request: ClientKeysRequest, reply: replyOf<RotateKeysReply>(), callers: ['admin'] }),
  USERS_CLIENT_REVOKE_KEYS: operation({ subject: 'users.client.revoke-keys.v3', request: ClientKeysRequest, reply: replyOf<RevokeKeysReply>(), callers: ['admin'] }),
  USERS_CLIENT_SET_RATE_LIMIT: operation({ subject: 'users.client.set-rate-limit.v1', request: SetRateLimitRequest, reply: replyOf<ClientRateLimitReply>(), callers: ['admin'] }),
  USERS_CLIENT_DELETE: operation({ subject: 'users.client.delete.v1', request: ClientIdRequest, reply: replyOf<DeleteClientReply>(), callers: ['admin'] }),
  USERS_CLIENT_SET_FX_MARGIN: operation({ subject: 'users.client.set-fx-margin.v1', request: SetFxMarginRequest, reply: replyOf<ClientPricingReply>(), callers: ['admin'] }),
  USERS_USER_CREATE: operation({ subject: 'users.user.create.v1', request: CreateUserRequest, reply: replyOf<UserView>(), callers: ['gateway'] }),
  USERS_USER_GET: operation({ subject: 'users.user.get.v1', request: UserIdRequest, reply: replyOf<UserView>(), callers: ['gateway', 'rates', 'booking'] }),
  USERS_USER_UPDATE: operation({ subject: 'users.user.update.v1', request: UpdateUserRequest, reply: replyOf<UserView>(), callers: ['gateway'] }),
  USERS_USER_DELETE: operation({ subject: 'users.user.delete.v1', request: UserIdRequest, reply: replyOf<UserView>(), callers: ['gateway'] }),
  /** v2: names the backend token that asks (`mintedBy`), which the new token records. */
  USERS_USER_TOKEN_ISSUE: operation({ subject: 'users.user-token.issue.v2', request: IssueUserTokenRequest, reply: replyOf<UserTokenView>(), callers: ['gateway'] }),

  /** v2: domain data (the gateway renders the API's places). */
  SEARCH_PLACE_FIND: operation({ subject: 'search.place.find.v2', request: FindPlacesRequest, reply: replyOf<PlaceMatches>(), callers: ['gateway'] }),
  /** v3: domain data both ways (a StaySearch; SearchProgress); the gateway maps the API's body and renders its answer. */
  SEARCH_SESSION_CREATE: operation({ subject: 'search.session.create.v3', request: CreateSearchSessionRequestV3, reply: replyOf<SearchProgress>(), callers: ['gateway'] }),
  SEARCH_SESSION_POLL: operation({ subject: 'search.session.poll.v3', request: PollSearchSessionRequest, reply: replyOf<SearchProgress>(), callers: ['gateway'] }),
  /** v3: the hotel and its rates in the search service's words (HotelRates); the gateway renders the API's. */
  SEARCH_HOTEL_RATES_GET: operation({ subject: 'search.hotel-rates.get.v3', request: HotelRatesRequest, reply: replyOf<HotelRates>(), callers: ['gateway'] }),
  /**
   * Answers in several messages (V2RatesQueryChunk): a head, then the rates in chunks under 1 MB. v3: the request and
   * the head in the search service's words (the gateway maps the API's body and renders the head).
   */
  SEARCH_V2_RATES_SEARCH: operation({ subject: 'search.v2-rates.search.v3', request: V2RatesRequestV3, reply: replyOf<V2RatesQueryChunk>(), callers: ['gateway'] }),

  RATES_INVENTORY_SOLD_OUT: operation({ subject: 'rates.inventory.sold-out.v2', request: SoldOutRequest, reply: replyOf<SoldOutReply>(), callers: ['search'] }),
  /** v4: the prebook in the rates service's words (Prebook); the gateway renders the API's. */
  RATES_PREBOOK_CREATE: operation({ subject: 'rates.prebook.create.v4', request: CreatePrebookRequest, reply: replyOf<Prebook>(), callers: ['gateway'] }),
  /** v4: the answer carries the prebook's FX record (BookingFx). */
  RATES_PREBOOK_FIND: operation({ subject: 'rates.prebook.find.v4', request: FindPrebookRequest, reply: replyOf<StoredPrebook>(), callers: ['booking'] }),
  RATES_PREBOOK_ATTACH: operation({ subject: 'rates.prebook.attach.v2', request: AttachBookingRequest, reply: replyOf<{ attached: boolean }>(), callers: ['booking'] }),
  RATES_SUPPLIER_BOOK: operation({ subject: 'rates.supplier.book.v3', request: SupplierBookRequest, reply: replyOf<SupplierBooking>(), callers: ['booking'] }),
  RATES_SUPPLIER_CANCEL: operation({ subject: 'rates.supplier.cancel.v2', request: SupplierCancelRequest, reply: replyOf<SupplierBooking>(), callers: ['booking'] }),
  RATES_SUPPLIER_STATUS: operation({ subject: 'rates.supplier.status.v2', request: SupplierStatusRequest, reply: replyOf<SupplierBooking>(), callers: ['booking'] }),
  RATES_FX_RATES_GET: operation({ subject: 'rates.fx-rates.get.v1', request: GetFxRatesRequest, reply: replyOf<FxRatesReply>(), callers: ['search', 'admin'] }),
  RATES_FX_RATES_IMPORT: operation({ subject: 'rates.fx-rates.import.v1', request: ImportFxRatesRequest, reply: replyOf<ImportFxRatesReply>(), callers: ['admin'] }),
  RATES_VENDOR_RECONCILIATION_RUN: operation({ subject: 'rates.vendor-reconciliation.run.v1', request: RunVendorReconciliationRequest, reply: replyOf<VendorReconciliationRunReply>(), callers: ['admin'] }),
  RATES_VENDOR_RECONCILIATION_LIST: operation({ subject: 'rates.vendor-reconciliation.list.v1', request: ListVendorReconciliationsRequest, reply: replyOf<VendorReconciliationSection>(), callers: ['accounting'] }),

  /**
   * v4: the order in the booking service's words (the gateway maps the API's body, and names its refusals' fields as the API does), answered
   * with the booking in them (BookingCreated; the gateway renders the API's Booking).
   */
  BOOKING_BOOKING_CREATE: operation({ subject: 'booking.booking.create.v4', request: BookingOrderRequest, reply: replyOf<BookingCreated>(), callers: ['gateway'] }),
  /**
   * Answers in several messages (TaggedBookingPageChunk): the head with the page's entity tag, then the bookings
   * as raw JSON bytes (none for a client that has that page, If-None-Match). v4: the filter in the booking
   * context's words (BookingListFilter); v3 took the API's query and was never in a release, so it is gone.
   */
  BOOKING_BOOKING_LIST: operation({ subject: 'booking.booking.list.v4', request: ListBookingsRequestV4, reply: replyOf<TaggedBookingPageChunk>(), callers: ['gateway'] }),
  /** v3: domain data (the gateway renders the API's answer). */
  BOOKING_BOOKING_PRECANCEL: operation({ subject: 'booking.booking.precancel.v3', request: BookingIdRequest, reply: replyOf<CancellationQuote>(), callers: ['gateway'] }),
  /** The booking a book request recorded (by its idempotency key or prebook), when its answer did not come. */
  BOOKING_BOOKING_FIND_RECORDED: operation({ subject: 'booking.booking.find-recorded.v1', request: FindRecordedBookingRequest, reply: replyOf<RecordedBooking>(), callers: ['gateway'] }),
  /** v3: domain data (the gateway renders the API's answer). */
  BOOKING_BOOKING_CANCEL: operation({ subject: 'booking.booking.cancel.v3', request: BookingIdRequest, reply: replyOf<Cancellation>(), callers: ['gateway'] }),
  /** Answers in several messages, tagged, as booking.booking.list does. */
  BOOKING_BACKEND_BOOKING_LIST: operation({ subject: 'booking.backend-booking.list.v3', request: ListBackendBookingsRequestV3, reply: replyOf<TaggedBookingPageChunk>(), callers: ['gateway'] }),
  /** v3: with the PDF's entity tag, and 'not modified' for a client that has it. */
  BOOKING_VOUCHER_RENDER: operation({ subject: 'booking.voucher.render.v3', request: RenderVoucherRequestV3, reply: replyOf<VoucherAnswer>(), callers: ['gateway'] }),
  SEARCH_RATE_RESOLVE: operation({ subject: 'search.rate.resolve.v2', request: ResolveRateRequest, reply: replyOf<ResolvedRate>(), callers: ['rates'] }),
  SEARCH_CATALOG_HOTELS_GET: operation({ subject: 'search.catalog-hotels.get.v1', request: GetCatalogHotelsRequest, reply: replyOf<CatalogHotelsReply>(), callers: ['rates'] }),
  SEARCH_CONTENT_IMPORT_RUN: operation({ subject: 'search.content-import.run.v1', request: RunContentImportRequest, reply: replyOf<ContentImportRunReply>(), callers: ['admin'] }),

  /** v2: the answer carries when the client was created (the credit policy of its day). */
  USERS_CLIENT_GET: operation({ subject: 'users.client.get.v2', request: ClientIdRequest, reply: replyOf<ClientAccountTerms>(), callers: ['accounting', 'booking', 'gateway'] }),

  /** v2: answers the entry, or the credit request a `pending` credit policy makes of a client's own credit. */
  ACCOUNTING_ENTRY_CREATE: operation({ subject: 'accounting.entry.create.v2', request: CreateEntryRequest, reply: replyOf<EntryPosted>(), callers: ['gateway'] }),
  ACCOUNTING_ENTRY_LIST: operation({ subject: 'accounting.entry.list.v1', request: ListEntriesRequest, reply: replyOf<EntryPage>(), callers: ['gateway'] }),
  ACCOUNTING_ENTRY_GET: operation({ subject: 'accounting.entry.get.v1', request: EntryIdRequest, reply: replyOf<AccountingEntryView>(), callers: ['gateway'] }),
  ACCOUNTING_ENTRY_LIST_BY_BOOKING: operation({ subject: 'accounting.entry.list-by-booking.v1', request: BookingEntriesRequest, reply: replyOf<AccountingEntryView[]>(), callers: ['gateway'] }),
  ACCOUNTING_BALANCE_GET: operation({ subject: 'accounting.balance.get.v1', request: BalanceRequest, reply: replyOf<BalanceView>(), callers: ['gateway'] }),
  ACCOUNTING_FUNDS_CHECK: operation({ subject: 'accounting.funds.check.v2', request: FundsCheckRequest, reply: replyOf<FundsCheckReply>(), callers: ['rates'] }),
  ACCOUNTING_HOLD_PLACE: operation({ subject: 'accounting.hold.place.v2', request: PlaceHoldRequest, reply: replyOf<HoldView>(), callers: ['booking'] }),
  ACCOUNTING_HOLD_CAPTURE: operation({ subject: 'accounting.hold.capture.v1', request: HoldRequest, reply: replyOf<HoldView>(), callers: ['booking'] }),
  ACCOUNTING_HOLD_RELEASE: operation({ subject: 'accounting.hold.release.v1', request: HoldRequest, reply: replyOf<HoldView>(), callers: ['booking'] }),
  ACCOUNTING_REFUND_CREATE: operation({ subject: 'accounting.refund.create.v2', request: RefundRequest, reply: replyOf<AccountingEntryView>(), callers: ['booking'] }),
  ACCOUNTING_CARD_PAYMENT_RECORD: operation({ subject: 'accounting.card-payment.record.v2', request: CardPaymentRequest, reply: replyOf<AccountingEntryView[]>(), callers: ['booking'] }),

  PROMO_CODE_CREATE: operation({ subject: 'promo.code.create.v1', request: CreatePromoRequest, reply: replyOf<PromoView>(), callers: ['admin'] }),
  /** v2: says the world (sandbox or live) whose uses of the code count. */
  PROMO_CODE_QUOTE: operation({ subject: 'promo.code.quote.v2', request: QuotePromoRequest, reply: replyOf<PromoQuote>(), callers: ['gateway', 'rates'] }),
  /** v2: says the world (sandbox or live) whose uses of the code count. */
  PROMO_CODE_REDEEM: operation({ subject: 'promo.code.redeem.v2', request: RedeemPromoRequest, reply: replyOf<PromoQuote>(), callers: ['booking'] }),

  WEBHOOKS_ENDPOINT_CREATE: operation({ subject: 'webhooks.endpoint.create.v1', request: CreateWebhookEndpointRequest, reply: replyOf<WebhookEndpointWithSecret>(), callers: ['gateway'] }),
  WEBHOOKS_ENDPOINT_LIST: operation({ subject: 'webhooks.endpoint.list.v1', request: ActorScoped, reply: replyOf<WebhookEndpointList>(), callers: ['gateway'] }),
  WEBHOOKS_ENDPOINT_GET: operation({ subject: 'webhooks.endpoint.get.v1', request: WebhookEndpointIdRequest, reply: replyOf<WebhookEndpointView>(), callers: ['gateway'] }),
  WEBHOOKS_ENDPOINT_UPDATE: operation({ subject: 'webhooks.endpoint.update.v1', request: UpdateWebhookEndpointRequest, reply: replyOf<WebhookEndpointView>(), callers: ['gateway'] }),
  WEBHOOKS_ENDPOINT_DELETE: operation({ subject: 'webhooks.endpoint.delete.v1', request: WebhookEndpointIdRequest, reply: replyOf<DeletedWebhookEndpoint>(), callers: ['gateway'] }),
  WEBHOOKS_ENDPOINT_ROTATE_SECRET: operation({ subject: 'webhooks.endpoint.rotate-secret.v1', request: WebhookEndpointIdRequest, reply: replyOf<WebhookEndpointWithSecret>(), callers: ['gateway'] }),
  WEBHOOKS_ENDPOINT_TEST: operation({ subject: 'webhooks.endpoint.test.v1', request: WebhookEndpointIdRequest, reply: replyOf<WebhookDeliveryView>(), callers: ['gateway'] }),
  WEBHOOKS_DELIVERY_LIST: operation({ subject: 'webhooks.delivery.list.v1', request: ListWebhookDeliveriesRequest, reply: replyOf<WebhookDeliveryPage>(), callers: ['gateway'] }),
  WEBHOOKS_DELIVERY_RETRY: operation({ subject: 'webhooks.delivery.retry.v1', request: WebhookDeliveryIdRequest, reply: replyOf<WebhookDeliveryView>(), callers: ['gateway'] }),
  // Finance workspace: the finance credential, credit policy and requests, statements, exports, reconciliation.
  USERS_FINANCE_TOKEN_CREATE: operation({ subject: 'users.finance-token.create.v1', request: CreateFinanceTokenRequest, reply: replyOf<FinanceTokenCreated>(), callers: ['admin'] }),
  USERS_FINANCE_TOKEN_REVOKE: operation({ subject: 'users.finance-token.revoke.v1', request: RevokeFinanceTokenRequest, reply: replyOf<FinanceTokenRevoked>(), callers: ['admin'] }),
  ACCOUNTING_CREDIT_POLICY_SET: operation({ subject: 'accounting.credit-policy.set.v1', request: SetCreditPolicyRequest, reply: replyOf<CreditPolicyView>(), callers: ['admin'] }),
  ACCOUNTING_CREDIT_REQUEST_LIST: operation({ subject: 'accounting.credit-request.list.v1', request: ListCreditRequestsRequest, reply: replyOf<CreditRequestPage>(), callers: ['gateway'] }),
  ACCOUNTING_CREDIT_REQUEST_CONFIRM: operation({ subject: 'accounting.credit-request.confirm.v1', request: CreditRequestDecision, reply: replyOf<CreditRequestView>(), callers: ['gateway'] }),
  ACCOUNTING_CREDIT_REQUEST_REJECT: operation({ subject: 'accounting.credit-request.reject.v1', request: CreditRequestDecision, reply: replyOf<CreditRequestView>(), callers: ['gateway'] }),
  /** v2: the figures also as exact decimal strings in the account currency's minor unit (`amounts`). */
  ACCOUNTING_STATEMENT_SUMMARY: operation({ subject: 'accounting.statement.summary.v2', request: PeriodRequest, reply: replyOf<StatementSummary>(), callers: ['gateway'] }),
  /** v2: the running balance carried between pages is any exact decimal (three decimals, no size limit). */
  ACCOUNTING_EXPORT_PAGE: operation({ subject: 'accounting.export.page.v2', request: ExportPageRequest, reply: replyOf<ExportPage>(), callers: ['gateway'] }),
  ACCOUNTING_BALANCE_DAILY: operation({ subject: 'accounting.balance.daily.v1', request: PeriodRequest, reply: replyOf<DailyBalanceView>(), callers: ['gateway'] }),
  /** v3: with the vendors' reconciliation reports of the period (`vendors`, for the finance credential). */
  ACCOUNTING_RECONCILIATION_GET: operation({ subject: 'accounting.reconciliation.get.v3', request: PeriodRequest, reply: replyOf<ReconciliationView>(), callers: ['gateway'] }),
  /** v2: each booking carries its currency and FX record. */
  BOOKING_RECONCILIATION_LIST: operation({ subject: 'booking.reconciliation.list.v2', request: ReconciliationBookingsRequest, reply: replyOf<ReconciliationBookingPage>(), callers: ['accounting'] }),
} as const;

export type Operations = typeof OPERATIONS;
export type OperationKey = keyof Operations;
export type RequestOfOperation<O> = O extends Operation<string, infer Request, unknown> ? Request : never;
export type ReplyOfOperation<O> = O extends Operation<string, unknown, infer Reply> ? Reply : never;

/** The service that answers an operation: the first segment of its subject. */
export function ownerOf(operation: Operation): ServiceName {
  return operation.subject.slice(0, operation.subject.indexOf('.')) as ServiceName;
}
