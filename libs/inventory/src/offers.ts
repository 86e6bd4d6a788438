import { Board, HotelRateRoom, RoomRequest } from '@hotel/contracts';
import { RoomType } from './catalog';

/** Vendor prices move in 15-minute steps; a prebook in a later step may see a new price. */
const PRICE_EPOCH_MS = 15 * 60_000;

export interface Stay {
  check_in: string;
  check_out: string;
  rooms: RoomRequest[];
}

/** Identical rooms asked of a vendor as one occupancy: how many, and the guests in each. */
export interface VendorOccupancy {
  rooms: number;
  guests: RoomRequest;
}

/**
 * A vendor's own handle on an offer: what it needs to recheck and book it (its rate
 * keys, one per group of identical rooms, in the stay's room order) and what it priced it
 * at when the client saw it. Opaque to the platform; only the vendor's adapter reads it.
 */
export interface VendorRate {
  keys: string[];
  /** The group of identical rooms each key is for, as the vendor was asked (it books them with these guests). */
  occupancies: VendorOccupancy[];
  /** The vendor wants its price confirmed (CheckRate) before booking. */
  recheck: boolean;
  /** The price the vendor answered, a decimal in its currency. */
  net: string;
  currency: string;
  /** The vendor's code of the hotel (its own numbering, not the platform's id). */
  hotelCode?: number;
}

/** What identifies an offer at a vendor; rate ids are derived from it. */
export interface OfferKey {
  /** The vendor's code (`atlas`, `hotelbeds`…). */
  vendor: string;
  hotelId: number;
  roomId: number;
  board: Board;
  refundable: boolean;
  /** A loyalty-programme member rate (brand_loyalty_required). */
  memberRate: boolean;
  /** The vendor's handle on the offer (absent only in a test's in-process vendor). */
  vendorRate?: VendorRate;
}

export interface PricingContext {
  /** Price step the offer was priced in (see priceEpoch). */
  epoch: number;
  /** When the offer was made: non-refundable penalties run from here. */
  issuedAt: Date;
}

export function priceEpoch(time = Date.now()): number {
  return Math.floor(time / PRICE_EPOCH_MS);
}

export function priceEpochStart(epoch: number): number {
  return epoch * PRICE_EPOCH_MS;
}

export const PRICE_EPOCH_SECONDS = PRICE_EPOCH_MS / 1000;

export function offerKeyString(key: OfferKey): string {
  return `${key.vendor}:${key.hotelId}:${key.roomId}:${key.board}:${key.refundable ? 'R' : 'N'}:${key.memberRate ? 'M' : '-'}`;
}

/** A catalog room type as a rate's room describes it. */
export function roomDataOf(room: RoomType): HotelRateRoom['room_data'] {
  return {
    images: room.images,
    size_sqft: Math.round(room.sizeSqm * 10.7639),
    size_sqm: room.sizeSqm,
    max_occupancy: room.maxOccupancy,
    max_adults: room.maxAdults,
    max_children: room.maxChildren,
    beds: room.beds,
    amenities: room.amenities,
    room_id: room.roomId,
  };
}
