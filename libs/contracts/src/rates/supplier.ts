import { IsBoolean, IsIn, IsInt, IsOptional, IsPositive, IsString, IsUUID, Length, Matches, Max, Min, ValidateNested } from 'class-validator';
import { ActorScoped } from '../common/actor';
import { TestScenario } from '../common/test-scenario';
import { BOOKING_LANGUAGES, BookingLanguage } from '../common/languages';
import { HotelDetails } from '../search/hotel';
import { BookingFx } from './fx';
import { STAY_LIMITS } from '../search/stay';
import { OfferKeyWire, PAYMENT_METHODS, PaymentMethod, PrebookData, VendorRateWire } from './prebook';
import { Type } from 'class-transformer';

/** Which prebook a booking relies on: V2 names it; V1 names the session's rate and payment method. */
export class PrebookSelector extends ActorScoped {
  @IsOptional()
  @IsUUID()
  prebookId?: string;

  @IsOptional()
  @IsUUID()
  sessionId?: string;

  @IsOptional()
  @IsInt()
  @IsPositive()
  hotelId?: number;

  @IsOptional()
  @IsUUID()
  rateId?: string;

  @IsOptional()
  @IsIn(PAYMENT_METHODS)
  paymentMethod?: PaymentMethod;
}

/**
 * rates.prebook.find.v4: the prebook a booking relies on (by id, or the latest for a V1
 * rate), with its hotel's details in the booking's language (v3: the booking service
 * keeps no catalog of its own).
 */
export class FindPrebookRequest extends PrebookSelector {
  @IsOptional()
  @IsIn(BOOKING_LANGUAGES)
  language?: BookingLanguage;
}

export interface StoredPrebook {
  prebookId: string;
  offer: OfferKeyWire;
  paymentMethod: PaymentMethod;
  response: PrebookData;
  /** The hotel as a booking stores it: its details in the language asked (en when none was), without lowest rates. */
  hotel: HotelDetails;
  /** The price the prebook confirmed, after any promo discount. */
  priceChargeable: string;
  promoCode: string | null;
  discount: string;
  /** How the price came to be in the client's currency, fixed at prebook. */
  fx: BookingFx;
  expiresAt: string;
}

/** rates.prebook.attach.v2: marks the booking made from a prebook, and whether it is still under way (is_booking_processing). */
export class AttachBookingRequest {
  @IsUUID()
  prebookId: string;

  @IsInt()
  @IsPositive()
  bookingId: number;

  @IsBoolean()
  processing: boolean;
}

/** The sandbox scenarios a supplier booking can be asked to play (see TEST_SCENARIOS). */
export const SUPPLIER_TEST_SCENARIOS = ['supplier_pending', 'supplier_error'] as const satisfies readonly TestScenario[];
export type SupplierTestScenario = (typeof SUPPLIER_TEST_SCENARIOS)[number];

/** Who a supplier booking is in the name of. */
export class SupplierHolder {
  @IsString()
  @Length(1, 50)
  name: string;

  @IsString()
  @Length(1, 50)
  surname: string;
}

/** rates.supplier.book.v3: books the room with its vendor, consuming allotment (not for a sandbox booking); idempotent by booking. */
export class SupplierBookRequest {
  @IsInt()
  @IsPositive()
  bookingId: number;

  @IsString()
  vendor: string;

  @IsInt()
  @IsPositive()
  hotelId: number;

  @IsInt()
  @IsPositive()
  roomId: number;

  @Matches(/^\d{4}-\d{2}-\d{2}$/)
  checkIn: string;

  @Matches(/^\d{4}-\d{2}-\d{2}$/)
  checkOut: string;

  @IsInt()
  @Min(1)
  @Max(STAY_LIMITS.maxRooms)
  rooms: number;

  /** A sandbox booking: the vendor's answer is simulated and no real room is taken. */
  @IsBoolean()
  sandbox: boolean;

  /** Sandbox only: the vendor accepts without confirming, or refuses. */
  @IsOptional()
  @IsIn(SUPPLIER_TEST_SCENARIOS)
  testScenario?: SupplierTestScenario;

  /** A remote vendor's handle on the offer (from the prebook); the built-in vendors need none. */
  @IsOptional()
  @ValidateNested()
  @Type(() => VendorRateWire)
  vendorRate?: VendorRateWire;

  /** Who the booking is in the name of (a remote vendor books in a holder's name). */
  @IsOptional()
  @ValidateNested()
  @Type(() => SupplierHolder)
  holder?: SupplierHolder;
}

/** What a vendor charges for cancelling a booking, in its own currency (a decimal string). */
export interface CancellationCharge {
  amount: string;
  currency: string;
}

export interface SupplierBooking {
  reference: string;
  /** pending: accepted but not yet confirmed by the vendor; ask again later. */
  status: 'confirmed' | 'pending' | 'cancelled' | 'rejected';
  /** A cancelled booking: what the vendor charged for cancelling it, when the vendor says (the refund follows it). */
  cancellationCharge?: CancellationCharge;
}

/** rates.supplier.status.v2: where a supplier booking stands (a pending one settles later). */
export class SupplierStatusRequest {
  @IsInt()
  @IsPositive()
  bookingId: number;
}

/** rates.supplier.cancel.v2: cancels with the vendor and returns the rooms to the allotment; idempotent. */
export class SupplierCancelRequest {
  @IsInt()
  @IsPositive()
  bookingId: number;
}

