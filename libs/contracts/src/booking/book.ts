import { Type } from 'class-transformer';
import { createHash } from 'node:crypto';
import { PageAfter, PageLimit, PageNumber, QueryId } from '../common/page-query';
import {
  ArrayMaxSize,
  ArrayMinSize,
  IsArray,
  IsDefined,
  IsEmail,
  IsIn,
  IsInt,
  IsOptional,
  IsPositive,
  IsString,
  IsUUID,
  Matches,
  MaxLength,
  ValidateNested,
} from 'class-validator';
import { ActorScoped } from '../common/actor';
import { ErrorCode } from '../errors';
import { ENTITY_TAGS } from '../common/entity-tags';
import { TEST_SCENARIOS, TestScenario } from '../common/test-scenario';
import { IsCalendarDay, IsDayOrRange, IsNonBlankString } from '../common/validators';
import { CancellationPolicyData, HotelDetails, HotelRate } from '../search/hotel';
import { PAYMENT_METHODS, PaymentMethod } from '../rates/prebook';
import { PrebookSelector } from '../rates/supplier';
import { STAY_LIMITS } from '../search/stay';
import { BOOKING_LANGUAGES, BookingLanguage } from '../common/languages';

export { BOOKING_LANGUAGES };
export type { BookingLanguage };

export const BOOKING_STATUSES = ['confirmed', 'cancelled', 'pending', 'failed'] as const;
export type BookingStatus = (typeof BOOKING_STATUSES)[number];

export class BookRoomGuest {
  @IsNonBlankString()
  @MaxLength(100)
  lead_first_name: string;

  @IsNonBlankString()
  @MaxLength(100)
  lead_last_name: string;
}

/** BookCreateRequest of the specification. Card fields are required for credit_card (checked by the booking service). */
export class BookCreateBody {
  @IsDefined()
  @IsArray()
  @ArrayMinSize(1)
  @ArrayMaxSize(STAY_LIMITS.maxRooms)
  @ValidateNested({ each: true })
  @Type(() => BookRoomGuest)
  rooms: BookRoomGuest[];

  @IsEmail({}, { message: 'email must be a valid e-mail address' })
  @MaxLength(254)
  email: string;

  @IsNonBlankString()
  @MaxLength(40)
  phone: string;

  @IsOptional()
  @IsString()
  @MaxLength(200)
  payment_token?: string;

  @IsOptional()
  @IsNonBlankString()
  @MaxLength(100)
  payment_first_name?: string;

  @IsOptional()
  @IsNonBlankString()
  @MaxLength(100)
  payment_last_name?: string;

  @IsOptional()
  @IsNonBlankString()
  @MaxLength(20)
  payment_postal_code?: string;

  @IsOptional()
  @Matches(/^(0[1-9]|1[0-2])\/\d{2}$/, { message: 'payment_expiration must be MM/YY' })
  payment_expiration?: string;

  @IsOptional()
  @IsString()
  @MaxLength(64)
  promo_code?: string;

  @IsOptional()
  @Matches(/^[\x21-\x7e]{1,128}$/, { message: 'idempotency_key must be 1 to 128 printable characters' })
  idempotency_key?: string;

  @IsOptional()
  @IsString()
  @MaxLength(64)
  loyalty_number?: string;

  @IsOptional()
  @IsString()
  @MaxLength(1000)
  special_request?: string;

  @IsOptional()
  @Matches(/^[\x20-\x7e]{1,128}$/, { message: 'client_reference must be 1 to 128 printable characters' })
  client_reference?: string;

  @IsOptional()
  @IsIn(BOOKING_LANGUAGES, { message: `language must be one of ${BOOKING_LANGUAGES.join(', ')}` })
  language?: BookingLanguage;

  /** Alias of language. */
  @IsOptional()
  @IsIn(BOOKING_LANGUAGES, { message: `lang must be one of ${BOOKING_LANGUAGES.join(', ')}` })
  lang?: BookingLanguage;
}

/** Body of `POST /v2/book`. */
export class V2BookBody extends BookCreateBody {
  @IsUUID('all', { message: 'prebook_id must be the prebook_id from POST /v2/prebook' })
  prebook_id: string;
}

/**
 * A book request as the partner sent it: the body (V2: without prebook_id), which prebook it
 * books, and the sandbox scenario. The gateway takes its fingerprint and maps it to a
 * BookingOrderRequest (bookingOrderOf).
 */
export class CreateBookingRequest extends PrebookSelector {
  @IsDefined()
  @ValidateNested()
  @Type(() => BookCreateBody)
  body: BookCreateBody;

  /** Sandbox only (X-Test-Scenario). */
  @IsOptional()
  @IsIn(TEST_SCENARIOS)
  testScenario?: TestScenario;
}

/** The guest a room is booked for. */
export class LeadGuest {
  @IsNonBlankString()
  @MaxLength(100)
  firstName: string;

  @IsNonBlankString()
  @MaxLength(100)
  lastName: string;
}

/** What the partner gave of a card (required for a card payment: the booking service checks it against the prebook's payment method). */
export class CardInput {
  @IsOptional()
  @IsString()
  @MaxLength(200)
  token?: string;

  @IsOptional()
  @IsNonBlankString()
  @MaxLength(100)
  firstName?: string;

  @IsOptional()
  @IsNonBlankString()
  @MaxLength(100)
  lastName?: string;

  @IsOptional()
  @IsNonBlankString()
  @MaxLength(20)
  postalCode?: string;

  /** MM/YY. */
  @IsOptional()
  @Matches(/^(0[1-9]|1[0-2])\/\d{2}$/)
  expiration?: string;
}

/** A book request in the booking service's words: for each room its lead guest, the contact, the card, and the partner's keys. */
export class BookingOrder {
  @IsDefined()
  @IsArray()
  @ArrayMinSize(1)
  @ArrayMaxSize(STAY_LIMITS.maxRooms)
  @ValidateNested({ each: true })
  @Type(() => LeadGuest)
  leadGuests: LeadGuest[];

  @IsEmail()
  @MaxLength(254)
  email: string;

  @IsNonBlankString()
  @MaxLength(40)
  phone: string;

  @IsDefined()
  @ValidateNested()
  @Type(() => CardInput)
  card: CardInput;

  @IsOptional()
  @IsString()
  @MaxLength(64)
  promoCode?: string;

  @IsOptional()
  @Matches(/^[\x21-\x7e]{1,128}$/)
  idempotencyKey?: string;

  @IsOptional()
  @IsString()
  @MaxLength(64)
  loyaltyNumber?: string;

  @IsOptional()
  @IsString()
  @MaxLength(1000)
  specialRequest?: string;

  @IsOptional()
  @Matches(/^[\x20-\x7e]{1,128}$/)
  clientReference?: string;

  /** The language of the booking's texts (English when not given). */
  @IsOptional()
  @IsIn(BOOKING_LANGUAGES)
  language?: BookingLanguage;
}

/** booking.booking.create.v4: which prebook to book, and the order. */
export class BookingOrderRequest extends PrebookSelector {
  @IsDefined()
  @ValidateNested()
  @Type(() => BookingOrder)
  order: BookingOrder;

  /**
   * What makes a repeat of an idempotency key the same request (else 409): a digest of the
   * request as the partner sent it (bookRequestFingerprint), taken where it is known whole.
   */
  @Matches(/^[0-9a-f]{64}$/)
  fingerprint: string;

  /** Sandbox only (X-Test-Scenario). */
  @IsOptional()
  @IsIn(TEST_SCENARIOS)
  testScenario?: TestScenario;
}

/**
 * A book request of the booking API (POST /book/... or /v2/book) in the booking service's
 * words: the one mapping, used by the gateway.
 */
export function bookingOrderOf(body: BookCreateBody): BookingOrder {
  const card: CardInput = {
    ...(body.payment_token !== undefined && { token: body.payment_token }),
    ...(body.payment_first_name !== undefined && { firstName: body.payment_first_name }),
    ...(body.payment_last_name !== undefined && { lastName: body.payment_last_name }),
    ...(body.payment_postal_code !== undefined && { postalCode: body.payment_postal_code }),
    ...(body.payment_expiration !== undefined && { expiration: body.payment_expiration }),
  };
  const language = body.language ?? body.lang;
  return {
    leadGuests: body.rooms.map((room) => ({ firstName: room.lead_first_name, lastName: room.lead_last_name })),
    email: body.email,
    phone: body.phone,
    card,
    ...(body.promo_code !== undefined && { promoCode: body.promo_code }),
    ...(body.idempotency_key !== undefined && { idempotencyKey: body.idempotency_key }),
    ...(body.loyalty_number !== undefined && { loyaltyNumber: body.loyalty_number }),
    ...(body.special_request !== undefined && { specialRequest: body.special_request }),
    ...(body.client_reference !== undefined && { clientReference: body.client_reference }),
    ...(language !== undefined && { language }),
  };
}

/**
 * The request's selector fields under the names they had when fingerprints were first
 * stored (before the request's own fields were camelCase), so that a key used before
 * the rename still matches its repeat.
 */
const FINGERPRINT_NAMES: Record<string, string> = {
  prebookId: 'prebook_id',
  sessionId: 'session_id',
  hotelId: 'hotel_id',
  rateId: 'rate_id',
  paymentMethod: 'payment_method',
  testScenario: 'test_scenario',
};

/**
 * What makes two book requests "the same": the rate they book and every field of the
 * partner's body, in a stable order, as a SHA-256 digest. Stored with each booking; the
 * same function as the booking service always used, so keys used before an upgrade still
 * match their repeats.
 */
export function bookRequestFingerprint(request: Omit<CreateBookingRequest, 'actor'> & { actor?: unknown }): string {
  const { actor: _actor, ...rest } = request;
  const named = Object.fromEntries(Object.entries(rest).map(([field, value]) => [FINGERPRINT_NAMES[field] ?? field, value]));
  const canonical = JSON.stringify(named, (_key, value) =>
    value && typeof value === 'object' && !Array.isArray(value) ? Object.fromEntries(Object.entries(value).sort(([a], [b]) => a.localeCompare(b))) : value,
  );
  return createHash('sha256').update(canonical).digest('hex');
}

/**
 * The book request's fields as the booking service names them, and as the booking API does
 * (a card's names before a lead guest's: `card.firstName` is matched whole first).
 */
const BOOK_API_NAMES: Record<string, string> = {
  'card.token': 'payment_token',
  'card.firstName': 'payment_first_name',
  'card.lastName': 'payment_last_name',
  'card.postalCode': 'payment_postal_code',
  'card.expiration': 'payment_expiration',
  leadGuests: 'rooms',
  firstName: 'lead_first_name',
  lastName: 'lead_last_name',
  promoCode: 'promo_code',
  idempotencyKey: 'idempotency_key',
  clientReference: 'client_reference',
  loyaltyNumber: 'loyalty_number',
  specialRequest: 'special_request',
};
const escaped = (text: string) => text.replace(/[.*+?^${}()|[\]\\]/g, '\\$&');
const BOOK_DOMAIN_NAMES = new RegExp(`\\b(?:${Object.keys(BOOK_API_NAMES).map(escaped).join('|')})\\b`, 'g');

/** A booking service's refusal of a book request (a field, a message) in the booking API's words: the order is the body. */
export function inBookApiWords(text: string): string {
  return text.replace(/\border\./g, 'body.').replace(BOOK_DOMAIN_NAMES, (name) => BOOK_API_NAMES[name]);
}

/**
 * Whether a refusal of a book request is the booking service's own (its input checks, a key's
 * conflicts), worded in its names: the others carry a vendor's, a card processor's or another
 * service's text, passed on as it came.
 */
export function isOwnBookRefusal(code: ErrorCode): boolean {
  return code === 'VALIDATION_FAILED' || code === 'IDEMPOTENCY_CONFLICT' || code === 'CONFLICT' || code === 'DUPLICATE_CLIENT_REFERENCE';
}

export interface BookingGuest {
  title: 'Mr' | 'Mrs' | 'Ms' | null;
  first_name: string;
  last_name: string;
}

export interface BookingRoom {
  adults: BookingGuest[];
  children: (BookingGuest & { age: number })[];
}

/** The rate's price fields a Booking repeats as they were booked. */
type BookedPrices = Pick<
  HotelRate,
  | 'price_per_night_avg'
  | 'price_per_night'
  | 'price_per_room'
  | 'price_per_night_per_room'
  | 'price_before_fees'
  | 'price_fees'
  | 'price_due_at_hotel'
  | 'price_inclusive'
  | 'price_retail'
  | 'price_currency'
  | 'price_commission'
  | 'price_commission_currency'
>;

/** The Booking resource of the booking API. */
export interface BookingView extends BookedPrices {
  id: number;
  status: BookingStatus;
  booking_reference: string[];
  voucher_url: string | null;
  hotel_id: number;
  check_in: string;
  check_out: string;
  nights: number;
  first_name: string;
  last_name: string;
  email: string;
  phone: string;
  /** What was charged, after any promo code. */
  price_chargeable: number;
  cancellation_policy: string;
  cancellation_policy_date: string;
  cancellation_policy_data: CancellationPolicyData[];
  remarks: string;
  rate: HotelRate;
  rooms: BookingRoom[];
  payment_method: PaymentMethod;
  is_sandbox: boolean;
  hotel: HotelDetails;
  loyalty_number: string | null;
  special_request: string | null;
  client_reference: string | null;
  price_commission_paid: number | null;
  created_at: string;
  updated_at: string;
  /** Why a failed booking failed (an addition). */
  failure_reason?: string | null;
  /** A cancelled booking's cancellation reference, as `DELETE /book/{id}` answered it; null unless cancelled. */
  cancellation_reference: string | null;
  /** When the booking was cancelled (ISO 8601); null unless cancelled. */
  cancelled_at: string | null;
  /** What cancelling cost, in `price_currency` (the rest was refunded); null unless cancelled. */
  price_cancellation_penalty: number | null;
}

export const BOOKING_SORT_FIELDS = ['id', 'created_at', 'check_in', 'check_out', 'price_chargeable', 'hotel_name', 'status'] as const;

/** Query of `GET /book`. */
export class BookingListQuery {
  @PageNumber()
  page?: number;

  @PageLimit(200, 'limit must be from 1 to 200')
  limit?: number;

  @PageAfter()
  after?: number;

  @IsOptional()
  @IsIn(BOOKING_SORT_FIELDS, { message: `sort_by must be one of ${BOOKING_SORT_FIELDS.join(', ')}` })
  sort_by?: (typeof BOOKING_SORT_FIELDS)[number];

  @IsOptional()
  @IsIn(['asc', 'desc'], { message: 'sort_order must be asc or desc' })
  sort_order?: 'asc' | 'desc';

  @QueryId()
  id?: number;

  @IsOptional()
  @IsString()
  @MaxLength(200)
  hotel_name?: string;

  @IsOptional()
  @IsDayOrRange()
  created_at?: string;

  @IsOptional()
  @IsDayOrRange()
  check_in?: string;

  @IsOptional()
  @IsDayOrRange()
  check_out?: string;

  @IsOptional()
  @IsString()
  @MaxLength(100)
  first_name?: string;

  @IsOptional()
  @IsString()
  @MaxLength(100)
  last_name?: string;

  @IsOptional()
  @IsIn(BOOKING_STATUSES)
  status?: BookingStatus;

  @IsOptional()
  @IsIn(PAYMENT_METHODS)
  payment_method?: PaymentMethod;

  @IsOptional()
  @IsString()
  @MaxLength(128)
  vendor_reference?: string;

  @IsOptional()
  @IsString()
  @MaxLength(128)
  client_reference?: string;
}

export interface BookingPage {
  bookings: BookingView[];
  total: number;
}

/** What a booking list may be ordered by, in the booking context's words. */
export const BOOKING_SORT_KEYS = ['id', 'createdAt', 'checkIn', 'checkOut', 'priceChargeable', 'hotelName', 'status'] as const;
export type BookingSortKey = (typeof BOOKING_SORT_KEYS)[number];

/** The days from `from` to `to`, both included. */
export class DayRange {
  @IsCalendarDay()
  from: string;

  @IsCalendarDay()
  to: string;
}

/**
 * Which of the caller's bookings a list shows, in what order, and which page: the domain
 * request of booking.booking.list.v4. The gateway maps the booking API's `GET /book`
 * query (BookingListQuery) to it with bookingListFilterOf, so a change to the query's
 * public names is the gateway's alone.
 */
export class BookingListFilter {
  // The same paging as the API's query (BookingListQuery), in the same words.
  @PageNumber()
  page?: number;

  @PageLimit(200, 'limit must be from 1 to 200')
  limit?: number;

  @PageAfter()
  after?: number;

  @IsOptional()
  @IsIn(BOOKING_SORT_KEYS)
  sortBy?: BookingSortKey;

  @IsOptional()
  @IsIn(['asc', 'desc'])
  sortOrder?: 'asc' | 'desc';

  @QueryId()
  id?: number;

  /** Part of the hotel's name, in any case. */
  @IsOptional()
  @IsString()
  @MaxLength(200)
  hotelName?: string;

  @IsOptional()
  @ValidateNested()
  @Type(() => DayRange)
  createdOn?: DayRange;

  @IsOptional()
  @ValidateNested()
  @Type(() => DayRange)
  checkIn?: DayRange;

  @IsOptional()
  @ValidateNested()
  @Type(() => DayRange)
  checkOut?: DayRange;

  /** The lead guest's first name, in any case. */
  @IsOptional()
  @IsString()
  @MaxLength(100)
  firstName?: string;

  @IsOptional()
  @IsString()
  @MaxLength(100)
  lastName?: string;

  @IsOptional()
  @IsIn(BOOKING_STATUSES)
  status?: BookingStatus;

  @IsOptional()
  @IsIn(PAYMENT_METHODS)
  paymentMethod?: PaymentMethod;

  /** One of the vendor's references of the booking. */
  @IsOptional()
  @IsString()
  @MaxLength(128)
  vendorReference?: string;

  @IsOptional()
  @IsString()
  @MaxLength(128)
  clientReference?: string;
}

/** The API's sort fields by the filter's sort keys. */
const SORT_KEY_OF: Record<(typeof BOOKING_SORT_FIELDS)[number], BookingSortKey> = {
  id: 'id',
  created_at: 'createdAt',
  check_in: 'checkIn',
  check_out: 'checkOut',
  price_chargeable: 'priceChargeable',
  hotel_name: 'hotelName',
  status: 'status',
};

/** A validated day filter (`YYYY-MM-DD` or `YYYY-MM-DD..YYYY-MM-DD`) as a range. */
function dayRangeOf(days: string | undefined): DayRange | undefined {
  if (days === undefined) return undefined;
  const [from, to = from] = days.split('..');
  return { from, to };
}

/**
 * The booking API's `GET /book` query in the booking context's words: the one mapping,
 * used by the gateway. Fields left out of the query stay out.
 */
export function bookingListFilterOf(query: BookingListQuery): BookingListFilter {
  const filter: BookingListFilter = {
    page: query.page,
    limit: query.limit,
    after: query.after,
    sortBy: query.sort_by && SORT_KEY_OF[query.sort_by],
    sortOrder: query.sort_order,
    id: query.id,
    hotelName: query.hotel_name,
    createdOn: dayRangeOf(query.created_at),
    checkIn: dayRangeOf(query.check_in),
    checkOut: dayRangeOf(query.check_out),
    firstName: query.first_name,
    lastName: query.last_name,
    status: query.status,
    paymentMethod: query.payment_method,
    vendorReference: query.vendor_reference,
    clientReference: query.client_reference,
  };
  for (const key of Object.keys(filter) as (keyof BookingListFilter)[]) if (filter[key] === undefined) delete filter[key];
  return filter;
}

/** booking.booking.list.v4: v3 with the list's filter in the booking context's words (BookingListFilter) instead of the API's query. */
export class ListBookingsRequestV4 extends ActorScoped {
  @IsDefined()
  @ValidateNested()
  @Type(() => BookingListFilter)
  filter: BookingListFilter;

  @IsOptional()
  @Matches(ENTITY_TAGS)
  ifNoneMatch?: string;
}

/**
 * The head of a page in booking.booking.list.v4 and booking.backend-booking.list.v3:
 * `total`, the page's entity tag (one per content of the page's bytes), and `notModified`
 * when the client's If-None-Match names it (then no bookings follow: the client has them).
 */
export interface TaggedPageHead {
  total: number;
  etag: string;
  notModified?: true;
}

/**
 * booking.booking.list.v4 (and booking.backend-booking.list.v3) answer a page in several NATS
 * messages: first the head (`total`, all matches across pages, and the page's entity tag),
 * then the page's bookings as raw UTF-8 JSON bytes (objects joined by commas, no brackets;
 * see HEADERS.RAW_REPLY) in chunks under 1 MB, none for an empty page or a client that has
 * the page (If-None-Match). The booking service keeps each booking's representation
 * serialized, so a page is joined from stored bytes and the gateway passes them on without
 * decoding them.
 */
export type TaggedBookingPageChunk = TaggedPageHead | Uint8Array;

/** booking.booking.precancel.v3 and cancel.v3 */
export class BookingIdRequest extends ActorScoped {
  @IsInt()
  @IsPositive()
  bookingId: number;
}

/** booking.booking.find-recorded.v1: the caller's booking of this idempotency key, or of this prebook. */
export class FindRecordedBookingRequest extends ActorScoped {
  @IsOptional()
  @Matches(/^[\x21-\x7e]{1,128}$/, { message: 'idempotencyKey must be 1 to 128 printable characters' })
  idempotencyKey?: string;

  @IsOptional()
  @IsUUID('all')
  prebookId?: string;
}

export interface RecordedBooking {
  /** The booking's id; null when the request recorded none (or it failed). */
  bookingId: number | null;
}

// Rendered by the gateway from a CancellationQuote.
/** What cancelling the booking would cost if it were cancelled now. */
export interface PrecancelView {
  price_cancellation_penalty: number;
  price_currency: string;
}

// Rendered by the gateway from a Cancellation.
/** The booking's cancellation, done. */
export interface CancelView {
  cancelled: boolean;
  cancellation_reference: string;
}

/** booking.booking.precancel.v3: what cancelling a booking would cost now (fixed once its cancellation has started). */
export interface CancellationQuote {
  bookingId: number;
  /** A decimal string in `currency`. */
  penalty: string;
  currency: string;
}

/** booking.booking.cancel.v3: a booking's cancellation, done. */
export interface Cancellation {
  bookingId: number;
  cancelled: true;
  /** The vendor's reference of the cancellation. */
  reference: string;
}
