import { IsBoolean, IsIn, IsInt, IsOptional, IsPositive, IsString, IsUUID, Matches, Max, Min } from 'class-validator';
import { ActorScoped } from '../common/actor';
import { STAY_LIMITS } from '../search/stay';
import { OfferKeyWire, PAYMENT_METHODS, PaymentMethod, PrebookData } from './prebook';

/** Which prebook a booking relies on: V2 names it; V1 names the session's rate and payment method. */
export class PrebookSelector extends ActorScoped {
  @IsOptional()
  @IsUUID()
  prebook_id?: string;

  @IsOptional()
  @IsUUID()
  session_id?: string;

  @IsOptional()
  @IsInt()
  @IsPositive()
  hotel_id?: number;

  @IsOptional()
  @IsUUID()
  rate_id?: string;

  @IsOptional()
  @IsIn(PAYMENT_METHODS)
  payment_method?: PaymentMethod;
}

/** rates.prebook.find.v1: the prebook a booking relies on (by id, or the latest for a V1 rate). */
export class FindPrebookRequest extends PrebookSelector {}

export interface StoredPrebook {
  prebookId: string;
  offer: OfferKeyWire;
  paymentMethod: PaymentMethod;
  response: PrebookData;
  /** The price the prebook confirmed, after any promo discount. */
  priceChargeable: string;
  promoCode: string | null;
  discount: string;
  expiresAt: string;
}

/** rates.prebook.attach.v1: marks the booking made from a prebook, and whether it is still under way (is_booking_processing). */
export class AttachBookingRequest {
  @IsUUID()
  prebook_id: string;

  @IsInt()
  @IsPositive()
  booking_id: number;

  @IsBoolean()
  processing: boolean;
}

/** rates.supplier.book.v2: books the room with its vendor, consuming allotment (not for a sandbox booking); idempotent by booking. */
export class SupplierBookRequest {
  @IsInt()
  @IsPositive()
  booking_id: number;

  @IsString()
  vendor: string;

  @IsInt()
  @IsPositive()
  hotel_id: number;

  @IsInt()
  @IsPositive()
  room_id: number;

  @Matches(/^\d{4}-\d{2}-\d{2}$/)
  check_in: string;

  @Matches(/^\d{4}-\d{2}-\d{2}$/)
  check_out: string;

  @IsInt()
  @Min(1)
  @Max(STAY_LIMITS.maxRooms)
  rooms: number;

  /** A sandbox booking: the vendor's answer is simulated and no real room is taken. */
  @IsBoolean()
  sandbox: boolean;

  /** Sandbox only: the vendor accepts without confirming, or refuses. */
  @IsOptional()
  @IsIn(['supplier_pending', 'supplier_error'])
  test_scenario?: 'supplier_pending' | 'supplier_error';
}

export interface SupplierBooking {
  reference: string;
  /** pending: accepted but not yet confirmed by the vendor; ask again later. */
  status: 'confirmed' | 'pending' | 'cancelled' | 'rejected';
}

/** rates.supplier.status.v1: where a supplier booking stands (a pending one settles later). */
export class SupplierStatusRequest {
  @IsInt()
  @IsPositive()
  booking_id: number;
}

/** rates.supplier.cancel.v1: cancels with the vendor and returns the rooms to the allotment; idempotent. */
export class SupplierCancelRequest {
  @IsInt()
  @IsPositive()
  booking_id: number;
}

