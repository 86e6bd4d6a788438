import { HealthCheckReply, HealthCheckRequest } from './health/health-check';
import { SUBJECTS } from './subjects';
import { BackendBookingPageChunk, ListBackendBookingsRequest, ListBackendBookingsRequestV3 } from './booking/backend-booking';
import { RenderVoucherRequest, RenderVoucherRequestV3, VoucherAnswer, VoucherPdf } from './booking/voucher';
import {
  BookingIdRequest,
  FindRecordedBookingRequest,
  RecordedBooking,
  BookingPageChunk,
  CancelView,
  CreateBookingReply,
  CreateBookingRequest,
  ListBookingsRequest,
  ListBookingsRequestV3,
  TaggedBookingPageChunk,
  PrecancelView,
} from './booking/book';
import { AttachBookingRequest, FindPrebookRequest, StoredPrebook, SupplierBookRequest, SupplierBooking, SupplierCancelRequest, SupplierStatusRequest } from './rates/supplier';
import { CreatePrebookRequest, PrebookData, ResolveRateRequest, ResolvedRate } from './rates/prebook';
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
import { PlacesQuery, PlacesReply } from './search/places';
import { CreateSearchSessionRequest, HotelRatesData, HotelRatesRequest, PollSearchSessionRequest, SearchData } from './search/search-session';
import { V2RatesChunk, V2RatesRequest } from './search/v2-rates';
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

interface Contract<Request, Reply> {
  request: Request;
  reply: Reply;
}

/**
 * Subject -> request and reply types. `ServiceClient.send` takes its types from
 * here, so a wrong payload for a subject fails to compile.
 */
export interface ContractMap {
  [SUBJECTS.SEARCH_HEALTH_CHECK]: Contract<HealthCheckRequest, HealthCheckReply>;
  [SUBJECTS.RATES_HEALTH_CHECK]: Contract<HealthCheckRequest, HealthCheckReply>;
  [SUBJECTS.BOOKING_HEALTH_CHECK]: Contract<HealthCheckRequest, HealthCheckReply>;
  [SUBJECTS.PROMO_HEALTH_CHECK]: Contract<HealthCheckRequest, HealthCheckReply>;
  [SUBJECTS.USERS_HEALTH_CHECK]: Contract<HealthCheckRequest, HealthCheckReply>;
  [SUBJECTS.ACCOUNTING_HEALTH_CHECK]: Contract<HealthCheckRequest, HealthCheckReply>;
  [SUBJECTS.WEBHOOKS_HEALTH_CHECK]: Contract<HealthCheckRequest, HealthCheckReply>;

  [SUBJECTS.USERS_CREDENTIAL_RESOLVE]: Contract<ResolveCredentialRequest, ResolvedCredential>;
  [SUBJECTS.USERS_CLIENT_CREATE]: Contract<CreateClientRequest, Required<ClientCredentials>>;
  [SUBJECTS.USERS_CLIENT_LIST]: Contract<ListClientsRequest, ListClientsReply>;
  [SUBJECTS.USERS_CLIENT_SEARCH]: Contract<SearchClientsRequest, ClientName[]>;
  [SUBJECTS.USERS_CLIENT_ROTATE_KEYS]: Contract<ClientKeysRequest, RotateKeysReply>;
  [SUBJECTS.USERS_CLIENT_REVOKE_KEYS]: Contract<ClientKeysRequest, RevokeKeysReply>;
  [SUBJECTS.USERS_CLIENT_SET_RATE_LIMIT]: Contract<SetRateLimitRequest, ClientRateLimitReply>;
  [SUBJECTS.USERS_CLIENT_DELETE]: Contract<ClientIdRequest, DeleteClientReply>;
  [SUBJECTS.USERS_CLIENT_SET_FX_MARGIN]: Contract<SetFxMarginRequest, ClientPricingReply>;
  [SUBJECTS.USERS_USER_CREATE]: Contract<CreateUserRequest, UserView>;
  [SUBJECTS.USERS_USER_GET]: Contract<UserIdRequest, UserView>;
  [SUBJECTS.USERS_USER_UPDATE]: Contract<UpdateUserRequest, UserView>;
  [SUBJECTS.USERS_USER_DELETE]: Contract<UserIdRequest, UserView>;
  [SUBJECTS.USERS_USER_TOKEN_ISSUE]: Contract<IssueUserTokenRequest, UserTokenView>;

  [SUBJECTS.SEARCH_PLACE_FIND]: Contract<PlacesQuery, PlacesReply>;
  [SUBJECTS.SEARCH_SESSION_CREATE]: Contract<CreateSearchSessionRequest, SearchData>;
  [SUBJECTS.SEARCH_SESSION_POLL]: Contract<PollSearchSessionRequest, SearchData>;
  [SUBJECTS.SEARCH_HOTEL_RATES_GET]: Contract<HotelRatesRequest, HotelRatesData>;
  [SUBJECTS.SEARCH_V2_RATES_SEARCH]: Contract<V2RatesRequest, V2RatesChunk>;

  [SUBJECTS.RATES_INVENTORY_SOLD_OUT]: Contract<SoldOutRequest, SoldOutReply>;
  [SUBJECTS.RATES_PREBOOK_CREATE]: Contract<CreatePrebookRequest, PrebookData>;
  [SUBJECTS.RATES_PREBOOK_FIND]: Contract<FindPrebookRequest, StoredPrebook>;
  [SUBJECTS.RATES_PREBOOK_ATTACH]: Contract<AttachBookingRequest, { attached: boolean }>;
  [SUBJECTS.RATES_SUPPLIER_BOOK]: Contract<SupplierBookRequest, SupplierBooking>;
  [SUBJECTS.RATES_SUPPLIER_CANCEL]: Contract<SupplierCancelRequest, SupplierBooking>;
  [SUBJECTS.RATES_SUPPLIER_STATUS]: Contract<SupplierStatusRequest, SupplierBooking>;
  [SUBJECTS.RATES_FX_RATES_GET]: Contract<GetFxRatesRequest, FxRatesReply>;
  [SUBJECTS.RATES_FX_RATES_IMPORT]: Contract<ImportFxRatesRequest, ImportFxRatesReply>;
  [SUBJECTS.RATES_VENDOR_RECONCILIATION_RUN]: Contract<RunVendorReconciliationRequest, VendorReconciliationRunReply>;
  [SUBJECTS.RATES_VENDOR_RECONCILIATION_LIST]: Contract<ListVendorReconciliationsRequest, VendorReconciliationSection>;

  [SUBJECTS.BOOKING_BOOKING_CREATE]: Contract<CreateBookingRequest, CreateBookingReply>;
  [SUBJECTS.BOOKING_BOOKING_LIST]: Contract<ListBookingsRequest, BookingPageChunk>;
  [SUBJECTS.BOOKING_BOOKING_LIST_V3]: Contract<ListBookingsRequestV3, TaggedBookingPageChunk>;
  [SUBJECTS.BOOKING_BOOKING_PRECANCEL]: Contract<BookingIdRequest, PrecancelView>;
  [SUBJECTS.BOOKING_BOOKING_FIND_RECORDED]: Contract<FindRecordedBookingRequest, RecordedBooking>;
  [SUBJECTS.BOOKING_BOOKING_CANCEL]: Contract<BookingIdRequest, CancelView>;
  [SUBJECTS.BOOKING_BACKEND_BOOKING_LIST]: Contract<ListBackendBookingsRequest, BackendBookingPageChunk>;
  [SUBJECTS.BOOKING_BACKEND_BOOKING_LIST_V3]: Contract<ListBackendBookingsRequestV3, TaggedBookingPageChunk>;
  [SUBJECTS.BOOKING_VOUCHER_RENDER]: Contract<RenderVoucherRequest, VoucherPdf>;
  [SUBJECTS.BOOKING_VOUCHER_RENDER_V3]: Contract<RenderVoucherRequestV3, VoucherAnswer>;
  [SUBJECTS.SEARCH_RATE_RESOLVE]: Contract<ResolveRateRequest, ResolvedRate>;
  [SUBJECTS.SEARCH_CATALOG_HOTELS_GET]: Contract<GetCatalogHotelsRequest, CatalogHotelsReply>;
  [SUBJECTS.SEARCH_CONTENT_IMPORT_RUN]: Contract<RunContentImportRequest, ContentImportRunReply>;

  [SUBJECTS.USERS_CLIENT_GET]: Contract<ClientIdRequest, ClientAccountTerms>;

  [SUBJECTS.ACCOUNTING_ENTRY_CREATE]: Contract<CreateEntryRequest, EntryPosted>;
  [SUBJECTS.ACCOUNTING_ENTRY_LIST]: Contract<ListEntriesRequest, EntryPage>;
  [SUBJECTS.ACCOUNTING_ENTRY_GET]: Contract<EntryIdRequest, AccountingEntryView>;
  [SUBJECTS.ACCOUNTING_ENTRY_LIST_BY_BOOKING]: Contract<BookingEntriesRequest, AccountingEntryView[]>;
  [SUBJECTS.ACCOUNTING_BALANCE_GET]: Contract<BalanceRequest, BalanceView>;
  [SUBJECTS.ACCOUNTING_FUNDS_CHECK]: Contract<FundsCheckRequest, FundsCheckReply>;
  [SUBJECTS.ACCOUNTING_HOLD_PLACE]: Contract<PlaceHoldRequest, HoldView>;
  [SUBJECTS.ACCOUNTING_HOLD_CAPTURE]: Contract<HoldRequest, HoldView>;
  [SUBJECTS.ACCOUNTING_HOLD_RELEASE]: Contract<HoldRequest, HoldView>;
  [SUBJECTS.ACCOUNTING_REFUND_CREATE]: Contract<RefundRequest, AccountingEntryView>;
  [SUBJECTS.ACCOUNTING_CARD_PAYMENT_RECORD]: Contract<CardPaymentRequest, AccountingEntryView[]>;

  [SUBJECTS.PROMO_CODE_CREATE]: Contract<CreatePromoRequest, PromoView>;
  [SUBJECTS.PROMO_CODE_QUOTE]: Contract<QuotePromoRequest, PromoQuote>;
  [SUBJECTS.PROMO_CODE_REDEEM]: Contract<RedeemPromoRequest, PromoQuote>;

  [SUBJECTS.WEBHOOKS_ENDPOINT_CREATE]: Contract<CreateWebhookEndpointRequest, WebhookEndpointWithSecret>;
  [SUBJECTS.WEBHOOKS_ENDPOINT_LIST]: Contract<ActorScoped, WebhookEndpointList>;
  [SUBJECTS.WEBHOOKS_ENDPOINT_GET]: Contract<WebhookEndpointIdRequest, WebhookEndpointView>;
  [SUBJECTS.WEBHOOKS_ENDPOINT_UPDATE]: Contract<UpdateWebhookEndpointRequest, WebhookEndpointView>;
  [SUBJECTS.WEBHOOKS_ENDPOINT_DELETE]: Contract<WebhookEndpointIdRequest, DeletedWebhookEndpoint>;
  [SUBJECTS.WEBHOOKS_ENDPOINT_ROTATE_SECRET]: Contract<WebhookEndpointIdRequest, WebhookEndpointWithSecret>;
  [SUBJECTS.WEBHOOKS_ENDPOINT_TEST]: Contract<WebhookEndpointIdRequest, WebhookDeliveryView>;
  [SUBJECTS.WEBHOOKS_DELIVERY_LIST]: Contract<ListWebhookDeliveriesRequest, WebhookDeliveryPage>;
  [SUBJECTS.WEBHOOKS_DELIVERY_RETRY]: Contract<WebhookDeliveryIdRequest, WebhookDeliveryView>;
  [SUBJECTS.USERS_FINANCE_TOKEN_CREATE]: Contract<CreateFinanceTokenRequest, FinanceTokenCreated>;
  [SUBJECTS.USERS_FINANCE_TOKEN_REVOKE]: Contract<RevokeFinanceTokenRequest, FinanceTokenRevoked>;
  [SUBJECTS.ACCOUNTING_CREDIT_POLICY_SET]: Contract<SetCreditPolicyRequest, CreditPolicyView>;
  [SUBJECTS.ACCOUNTING_CREDIT_REQUEST_LIST]: Contract<ListCreditRequestsRequest, CreditRequestPage>;
  [SUBJECTS.ACCOUNTING_CREDIT_REQUEST_CONFIRM]: Contract<CreditRequestDecision, CreditRequestView>;
  [SUBJECTS.ACCOUNTING_CREDIT_REQUEST_REJECT]: Contract<CreditRequestDecision, CreditRequestView>;
  [SUBJECTS.ACCOUNTING_STATEMENT_SUMMARY]: Contract<PeriodRequest, StatementSummary>;
  [SUBJECTS.ACCOUNTING_EXPORT_PAGE]: Contract<ExportPageRequest, ExportPage>;
  [SUBJECTS.ACCOUNTING_BALANCE_DAILY]: Contract<PeriodRequest, DailyBalanceView>;
  [SUBJECTS.ACCOUNTING_RECONCILIATION_GET]: Contract<PeriodRequest, ReconciliationView>;
  [SUBJECTS.BOOKING_RECONCILIATION_LIST]: Contract<ReconciliationBookingsRequest, ReconciliationBookingPage>;
}

export type RequestOf<S extends keyof ContractMap> = ContractMap[S]['request'];
export type ReplyOf<S extends keyof ContractMap> = ContractMap[S]['reply'];
