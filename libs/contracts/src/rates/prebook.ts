import { Type } from 'class-transformer';
import { ArrayMaxSize, ArrayMinSize, IsArray, IsBoolean, IsIn, IsInt, IsOptional, IsPositive, IsString, IsUUID, Length, Matches, Max, MaxLength, Min, MinLength, ValidateNested } from 'class-validator';
import { ActorScoped } from '../common/actor';
import { ClientPricing, PricedForActor } from '../users/credentials';
import { TEST_SCENARIOS, TestScenario } from '../common/test-scenario';
import { Coordinates, HotelDetails, HotelRate } from '../search/hotel';
import { HotelProfile, Rate, hotelAnswer, rateAnswer } from '../search/rate';
import { StayRoom } from '../search/search-session';
import { decimalToNumber } from '../common/money';
import { RoomRequest, STAY_LIMITS } from '../search/stay';

export const PAYMENT_METHODS = ['account', 'credit_card'] as const;
export type PaymentMethod = (typeof PAYMENT_METHODS)[number];

/** Query of the V1 prebook routes. */
export class PrebookQuery {
  @IsOptional()
  @IsString()
  @MinLength(1)
  @MaxLength(64)
  promo_code?: string;
}

/**
 * A rate id's longest form: a V2 id carries a remote vendor's rate keys (one per group of
 * identical rooms, about 130 characters each), so eight different rooms make one of ~3,200.
 */
export const MAX_RATE_ID_LENGTH = 4096;

/** Body of `POST /v2/prebook`. */
export class V2PrebookBody {
  @IsString()
  @MinLength(1)
  @MaxLength(MAX_RATE_ID_LENGTH)
  rate_id: string;

  @IsIn(PAYMENT_METHODS, { message: 'payment_method must be account or credit_card' })
  payment_method: PaymentMethod;

  @IsOptional()
  @IsString()
  @MinLength(1)
  @MaxLength(64)
  promo_code?: string;
}

/** search.rate.resolve.v2: the offer behind a V1 rate id, for prebook. */
export class ResolveRateRequest extends ActorScoped {
  @IsUUID()
  sessionId: string;

  @IsInt()
  @IsPositive()
  hotelId: number;

  @IsUUID()
  rateId: string;
}

export interface PrebookSearch {
  destination_id: string | null;
  place_id: string | null;
  coordinates: Coordinates | null;
  radius: number | null;
  check_in: string;
  check_out: string;
  rooms: RoomRequest[];
}

export class VendorOccupancyWire {
  @IsInt()
  @Min(1)
  @Max(STAY_LIMITS.maxRooms)
  rooms: number;

  /** The guests in each of these rooms. */
  @ValidateNested()
  @Type(() => RoomRequest)
  guests: RoomRequest;
}

/** A remote vendor's handle on an offer (see libs/inventory VendorRate): opaque to everyone but its adapter. */
export class VendorRateWire {
  /** The vendor's rate keys, one per group of identical rooms. */
  @IsArray()
  @ArrayMinSize(1)
  @ArrayMaxSize(STAY_LIMITS.maxRooms)
  @IsString({ each: true })
  @Length(1, 2000, { each: true })
  keys: string[];

  /** Aligned with keys: the rooms each is for and the guests in each room. */
  @IsArray()
  @ArrayMinSize(1)
  @ArrayMaxSize(STAY_LIMITS.maxRooms)
  @ValidateNested({ each: true })
  @Type(() => VendorOccupancyWire)
  occupancies: VendorOccupancyWire[];

  @IsBoolean()
  recheck: boolean;

  @Matches(/^\d{1,15}(\.\d{1,3})?$/)
  net: string;

  @Matches(/^[A-Z]{3}$/)
  currency: string;

  @IsOptional()
  @IsInt()
  @Min(1)
  @Max(Number.MAX_SAFE_INTEGER)
  hotelCode?: number;
}

/** An offer as the supplier model names it (see libs/inventory OfferKey). */
export interface OfferKeyWire {
  vendor: string;
  hotelId: number;
  roomId: number;
  board: string;
  refundable: boolean;
  memberRate: boolean;
  vendorRate?: VendorRateWire;
}

export interface ResolvedRate {
  key: OfferKeyWire;
  search: PrebookSearch;
  /** The price step the client saw the rate in, and when. */
  epoch: number;
  issuedAt: string;
  /** How the session priced it for the client (currency, FX margin when the session began). */
  pricing?: ClientPricing;
  /** The reference date of the exchange rates the session priced at. */
  fxDate?: string | null;
}

/** rates.prebook.create.v4: the V1 route's path and query, or the V2 body, with the caller and its client's pricing. */
export class CreatePrebookRequest extends PricedForActor {
  /** V1: the session's rate; V2: the opaque rate id alone. */
  @IsOptional()
  @IsUUID()
  sessionId?: string;

  @IsOptional()
  @IsInt()
  @IsPositive()
  hotelId?: number;

  @IsString()
  @MinLength(1)
  @MaxLength(MAX_RATE_ID_LENGTH)
  rateId: string;

  @IsIn(PAYMENT_METHODS)
  paymentMethod: PaymentMethod;

  @IsOptional()
  @IsString()
  @MaxLength(64)
  promoCode?: string;

  /** Sandbox only (X-Test-Scenario). */
  @IsOptional()
  @IsIn(TEST_SCENARIOS)
  testScenario?: TestScenario;
}

export interface PrebookPromoResponse {
  success: boolean;
  message: string;
  discount_amount: number;
}

export interface PrebookData {
  prebook_id: string;
  search: PrebookSearch;
  hotel: HotelDetails;
  nights: number;
  rooms: RoomRequest[];
  rate: HotelRate;
  remarks: string;
  is_booking_processing: boolean;
  booking_id: number | null;
  payment_session_token: string | null;
  promo_code_response: PrebookPromoResponse | null;
  price_changed: boolean;
  previous_price_chargeable: number;
  expires_at: string;
}

/** Where and when the prebooked stay is: the V1 search's place (none for a V2 rate), the dates and rooms. */
export interface PrebookStay {
  placeId: string | null;
  destinationId: string | null;
  coordinates: Coordinates | null;
  radius: number | null;
  checkIn: string;
  checkOut: string;
  rooms: StayRoom[];
}

/** A promo code's effect on a prebook: applied (the discount in the rate's currency, a decimal string), or why not. */
export interface PrebookPromo {
  applied: boolean;
  message: string;
  discount: string;
}

/**
 * rates.prebook.create.v4: a prebook in the rates service's words. The rate is as rechecked
 * with its vendor now, any promo discount taken off; `previousPrice` is what the client was
 * shown for it (decimal strings in the rate's currency).
 */
export interface Prebook {
  id: string;
  stay: PrebookStay;
  hotel: HotelProfile;
  nights: number;
  rate: Rate;
  remarks: string;
  /** A booking of this rate is under way (a repeat of book, or a booking in another tab). */
  bookingInProgress: boolean;
  bookingId: number | null;
  /** A card prebook's handle for the card form; null for account payment. */
  paymentSessionToken: string | null;
  promo: PrebookPromo | null;
  priceChanged: boolean;
  previousPrice: string;
  expiresAt: string;
}

/**
 * The answer of `GET /prebook/...` and `POST /v2/prebook`, rendered by the gateway (and by the
 * rates service for the record a booking reads, which keeps the API's shape).
 */
export function prebookAnswer(prebook: Prebook): PrebookData {
  const rate = rateAnswer(prebook.rate);
  const rooms = prebook.stay.rooms.map((room) => ({ adults: room.adults, children: room.children, children_ages: room.childAges }));
  const { stay } = prebook;
  return {
    prebook_id: prebook.id,
    search: { destination_id: stay.destinationId, place_id: stay.placeId, coordinates: stay.coordinates, radius: stay.radius, check_in: stay.checkIn, check_out: stay.checkOut, rooms },
    hotel: hotelAnswer(prebook.hotel, [rate]),
    nights: prebook.nights,
    rooms,
    rate,
    remarks: prebook.remarks,
    is_booking_processing: prebook.bookingInProgress,
    booking_id: prebook.bookingId,
    payment_session_token: prebook.paymentSessionToken,
    promo_code_response: prebook.promo && { success: prebook.promo.applied, message: prebook.promo.message, discount_amount: decimalToNumber(prebook.promo.discount) },
    price_changed: prebook.priceChanged,
    previous_price_chargeable: decimalToNumber(prebook.previousPrice),
    expires_at: prebook.expiresAt,
  };
}
