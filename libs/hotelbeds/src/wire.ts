// Hotelbeds APItude JSON, as the vendor writes it (camelCase, its own names): the Hotel
// Booking API 1.0 (/hotel-api/1.0) and the Hotel Content API 1.0 (/hotel-content-api/1.0).
// Field names and enums follow the vendor's documentation (developer.hotelbeds.com) and its
// official Java SDK's model (hotel-api-model, hotel-content-model). Only the fields the
// platform may use are typed; a reader drops the rest. These types stay inside the adapter:
// the platform's own types are made from them, never passed on.

/**
 * An amount as a decimal string ("118.27"). The vendor writes most amounts as JSON strings
 * and some as numbers (a booking's `totalNet`); the reader turns both into this, so no
 * amount is ever a float the platform could sum.
 */
export type Decimal = string;
/** YYYY-MM-DD. */
export type IsoDate = string;

/** `AD` adult, `CH` child (the vendor's HotelbedsCustomerType). */
export type PaxType = 'AD' | 'CH';
/** BOOKABLE: book it as it is; RECHECK: CheckRate first (the vendor's RateType). */
export type RateType = 'BOOKABLE' | 'RECHECK';
/** AT_WEB: paid to Hotelbeds; AT_HOTEL: paid at the hotel (needs card data, another host). */
export type PaymentType = 'AT_WEB' | 'AT_HOTEL';
/** The vendor's ShoppingCartStatus, as a booking or a booked room carries it. */
export type BookingStatus = 'NEW' | 'PRECONFIRMED' | 'CONFIRMED' | 'TO_BE_UPDATED' | 'CANCELLED' | 'TO_BE_CANCELLED';
/** What the dates of a booking list filter on. */
export type BookingListFilterType = 'CHECKIN' | 'CREATION' | 'MODIFIED' | 'CLXPOLICIES';
export type BookingListStatus = 'ALL' | 'CONFIRMED' | 'CANCELLED';
/** SIMULATION answers what a cancellation would cost and cancels nothing. */
export type CancellationFlag = 'CANCELLATION' | 'SIMULATION';

/** Diagnostics the vendor adds to every answer (its types vary: kept as text). */
export interface AuditData {
  processTime?: string;
  timestamp?: string;
  requestHost?: string;
  serverId?: string;
  environment?: string;
  release?: string;
  token?: string;
}

/** The vendor's error element (`HotelbedsError` in its SDK). */
export interface VendorError {
  code?: string;
  message?: string;
}

// ---------------------------------------------------------------- requests

export interface Pax {
  roomId?: number;
  type: PaxType;
  /** Children's ages go here (type CH). */
  age?: number;
  /** At most 50 characters. */
  name?: string;
  /** At most 50 characters. */
  surname?: string;
}

export interface Occupancy {
  rooms: number;
  adults: number;
  children: number;
  paxes?: Pax[];
}

export interface Stay {
  checkIn: IsoDate;
  checkOut: IsoDate;
  shiftDays?: number;
  allowOnlyShift?: boolean;
}

/** Availability by hotel codes: at most 2000 codes (the SDK's `@Size(max = 2000)`). */
export interface HotelsFilter {
  hotel: number[];
  included?: boolean;
  type?: 'HOTELBEDS' | 'GIATA';
}

export interface AvailabilityFilter {
  maxHotels?: number;
  maxRooms?: number;
  minRate?: number;
  maxRate?: number;
  maxRatesPerRoom?: number;
  packaging?: boolean;
  paymentType?: 'AT_HOTEL' | 'AT_WEB' | 'BOTH';
  hotelPackage?: 'YES' | 'NO' | 'BOTH';
  minCategory?: number;
  maxCategory?: number;
  contract?: string;
}

export interface AvailabilityRQ {
  stay: Stay;
  occupancies: Occupancy[];
  /** The only search this client makes: by hotel codes (not destination or geolocation). */
  hotels: HotelsFilter;
  filter?: AvailabilityFilter;
  boards?: { board: string[]; included?: boolean };
  rooms?: { room: string[]; included?: boolean };
  dailyRate?: boolean;
  sourceMarket?: string;
  language?: string;
  platform?: number;
}

export interface CheckRateRQ {
  rooms: { rateKey: string }[];
  upselling?: boolean;
  language?: string;
}

export interface Holder {
  /** 1 to 50 characters. */
  name: string;
  /** 1 to 50 characters. */
  surname: string;
}

export interface BookingRQ {
  holder: Holder;
  rooms: { rateKey: string; paxes?: Pax[] }[];
  /** The platform's own reference, 1 to 20 characters; the vendor answers it in upper case. */
  clientReference: string;
  /** At most 2000 characters. */
  remark?: string;
  /** Price change accepted at booking, in percent. */
  tolerance?: number;
  language?: string;
}

/** GET /bookings: the booking list's query parameters, as documented. */
export interface BookingListQuery {
  start: IsoDate;
  end: IsoDate;
  /** The first and last position of the page (1-based, inclusive). */
  from: number;
  to: number;
  filterType?: BookingListFilterType;
  status?: BookingListStatus;
  clientReference?: string;
  country?: string[];
  destination?: string[];
  hotel?: number[];
  extend?: boolean;
}

/** GET /hotel-content-api/1.0/hotels: the Content API's hotel list query. */
export interface ContentHotelsQuery {
  /** Which fields to answer (`all`, or names); the vendor answers the code alone without. */
  fields?: 'all' | string[];
  codes?: number[];
  destinationCode?: string;
  countryCode?: string;
  lastUpdateTime?: IsoDate;
  /** The vendor's language code (ENG, CAS…). */
  language?: string;
  useSecondaryLanguage?: boolean;
  /** 1-based, inclusive; the vendor answers at most 1000 hotels a page (1 to 100 by default). */
  from?: number;
  to?: number;
}

// ---------------------------------------------------------------- answers

export interface CancellationPolicy {
  amount: Decimal;
  /** ISO date-time with offset, when the charge starts. */
  from: string;
  hotelAmount?: Decimal;
  hotelCurrency?: string;
}

export interface Tax {
  included?: boolean;
  percent?: Decimal;
  amount?: Decimal;
  currency?: string;
  type?: 'TAX' | 'FEE';
  clientAmount?: Decimal;
  clientCurrency?: string;
}

export interface Taxes {
  taxes?: Tax[];
  allIncluded?: boolean;
}

export interface CodedAmount {
  code?: string;
  name?: string;
  amount?: Decimal;
}

export interface Rate {
  rateKey?: string;
  rateClass?: string;
  rateType?: RateType;
  net?: Decimal;
  sellingRate?: Decimal;
  hotelMandatory?: boolean;
  allotment?: number;
  rateCommentsId?: string;
  rateComments?: string;
  paymentType?: PaymentType;
  packaging?: boolean;
  boardCode?: string;
  boardName?: string;
  cancellationPolicies?: CancellationPolicy[];
  taxes?: Taxes;
  rateBreakDown?: { rateDiscounts?: CodedAmount[]; rateSupplements?: CodedAmount[] };
  rooms?: number;
  adults?: number;
  children?: number;
  childrenAges?: string;
  promotions?: CodedAmount[];
  offers?: CodedAmount[];
}

export interface Room {
  code?: string;
  name?: string;
  /** In a booking: the room's status and its passengers. */
  status?: BookingStatus;
  id?: number;
  paxes?: Pax[];
  rates?: Rate[];
}

export interface Hotel {
  code: number;
  name?: string;
  checkIn?: IsoDate;
  checkOut?: IsoDate;
  categoryCode?: string;
  categoryName?: string;
  destinationCode?: string;
  destinationName?: string;
  zoneCode?: number;
  zoneName?: string;
  latitude?: Decimal;
  longitude?: Decimal;
  rooms?: Room[];
  minRate?: Decimal;
  maxRate?: Decimal;
  totalNet?: Decimal;
  totalSellingRate?: Decimal;
  pendingAmount?: Decimal;
  currency?: string;
  supplier?: { name?: string; vatNumber?: string };
  cancellationAmount?: Decimal;
}

export interface AvailabilityRS {
  auditData?: AuditData;
  hotels: {
    /** Absent when no hotel has availability. */
    hotels?: Hotel[];
    checkIn?: IsoDate;
    checkOut?: IsoDate;
    total?: number;
  };
}

export interface CheckRateRS {
  auditData?: AuditData;
  hotel: Hotel;
}

export interface Booking {
  reference: string;
  /** Set once the booking is cancelled. */
  cancellationReference?: string;
  clientReference?: string;
  creationDate?: IsoDate;
  status: BookingStatus;
  modificationPolicies?: { cancellation?: boolean; modification?: boolean };
  creationUser?: string;
  holder?: Holder;
  hotel?: Hotel;
  remark?: string;
  totalSellingRate?: Decimal;
  totalNet?: Decimal;
  pendingAmount?: Decimal;
  currency?: string;
}

/** POST /bookings, GET /bookings/{reference} and DELETE /bookings/{reference} all answer one booking. */
export interface BookingRS {
  auditData?: AuditData;
  booking: Booking;
}

export interface BookingListRS {
  auditData?: AuditData;
  bookings: {
    /** Absent when nothing matches. */
    bookings?: Booking[];
    from?: number;
    to?: number;
    total?: number;
  };
}

/** A text in a language (`{content, languageCode}`), as the Content API writes names. */
export interface ContentText {
  content?: string;
  languageCode?: string;
}

export interface ContentHotel {
  code: number;
  name?: ContentText;
  description?: ContentText;
  countryCode?: string;
  stateCode?: string;
  destinationCode?: string;
  zoneCode?: number;
  coordinates?: { longitude?: Decimal; latitude?: Decimal };
  categoryCode?: string;
  categoryGroupCode?: string;
  chainCode?: string;
  accommodationTypeCode?: string;
  boardCodes?: string[];
  segmentCodes?: number[];
  address?: ContentText;
  postalCode?: string;
  city?: ContentText;
  email?: string;
  giataCode?: number;
  web?: string;
  lastUpdate?: IsoDate;
  phones?: { phoneNumber?: string; phoneType?: string }[];
  rooms?: { roomCode?: string; roomType?: string; characteristicCode?: string; minPax?: number; maxPax?: number; maxAdults?: number; maxChildren?: number }[];
  images?: { imageTypeCode?: string; path?: string; order?: number; visualOrder?: number; roomCode?: string }[];
  /** What the hotel offers, by the vendor's facility codes (listed under /types/facilities); `indYesOrNo` false says it has not. */
  facilities?: { facilityCode?: number; facilityGroupCode?: number; order?: number; indYesOrNo?: boolean }[];
}

export interface ContentHotelsRS {
  auditData?: AuditData;
  from?: number;
  to?: number;
  total?: number;
  hotels?: ContentHotel[];
}
