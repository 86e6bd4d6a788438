import { Type } from 'class-transformer';
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

/** booking.booking.create.v2: the body as the caller sent it (V2: without prebook_id), and which prebook it books. */
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

export interface CreateBookingReply {
  booking: BookingView;
  /** True when an idempotency_key repeat returned the original booking. */
  replayed: boolean;
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
