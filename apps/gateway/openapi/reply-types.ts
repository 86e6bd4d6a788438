/**
 * The root file the OpenAPI generator reads reply types from (TypeScript
 * sources, with ts-json-schema-generator): every type a route of the
 * route definitions (ROUTES) answers with, named as the document names its schema.
 */
export type {
  AccountingEntryView,
  BackendBooking,
  BalanceView,
  BookingView,
  CancelView,
  ClientName,
  CreditRequestView,
  DailyBalanceView,
  HotelRatesData,
  PlacesReply,
  PrebookData,
  PrecancelView,
  ReconciliationView,
  SearchData,
  StatementView,
  UserTokenView,
  UserView,
  V2RatesResponse,
  DeletedWebhookEndpoint,
  WebhookDeliveryView,
  WebhookEndpointView,
  WebhookEndpointWithSecret,
} from '@hotel/contracts';
export type { ErrorEnvelope } from '../src/http/http-error.filter';
export type { IdentityView, LivenessView, PromoDiscountView, ReadinessView } from '../src/http/reply-views';
