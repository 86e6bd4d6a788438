import { CircuitState, HotelRate, SupplierBooking, SupplierTestScenario } from '@hotel/contracts';
import { Hotel } from './catalog';
import { OfferKey, PricingContext, Stay, VendorRate } from './offers';

/** What an availability request asks for: which offers, and the price step to price them in. */
export interface AvailabilityRequest {
  /** Loyalty-programme member rates too. */
  includeMemberRates: boolean;
  context: PricingContext;
}

/** One offer a supplier makes for a hotel and stay, with its price. */
export interface SupplierOffer {
  key: OfferKey;
  rate: Omit<HotelRate, 'id'>;
}

/**
 * A booking the platform places with a vendor: one room type for a stay. The
 * platform's booking id is the idempotency reference: the same order placed again
 * (a retry after a timeout or a crash) is the same booking at the vendor.
 */
export interface SupplierBookingOrder {
  bookingId: number;
  hotelId: number;
  roomId: number;
  /** YYYY-MM-DD. */
  checkIn: string;
  /** YYYY-MM-DD. */
  checkOut: string;
  /** Rooms of the type. */
  rooms: number;
  /** A test booking: the vendor answers as it would, and no real room is taken. */
  sandbox: boolean;
  /** Sandbox only: the vendor accepts without confirming, or refuses. */
  testScenario?: SupplierTestScenario;
  /** A remote vendor's handle on the offer, as its availability (or its recheck) answered it. */
  vendorRate?: VendorRate;
  /** The name the booking is made in (a remote vendor needs one). */
  holder?: { name: string; surname: string };
}

/**
 * A booking a vendor accepted, as the platform recorded its answer: a real vendor
 * needs the reference (or the booking id); the rest lets a vendor that keeps no
 * bookings of its own (the simulated ones) answer too.
 */
export interface PlacedSupplierBooking {
  bookingId: number;
  reference: string;
  /** As the vendor last answered. */
  status: SupplierBooking['status'];
  sandbox: boolean;
  /** When the vendor accepted it. */
  placedAt: Date;
}

/**
 * A booking as a vendor's own list of bookings shows it (for reconciliation): the vendor's
 * reference, the client reference the platform gave it (`HB<booking id>`, in the vendor's
 * upper case), where it stands and the day it was made. `net` is what the vendor says the
 * booking costs (once cancelled: what cancelling cost), in `currency`, when it says.
 */
export interface VendorBookingSummary {
  reference: string;
  clientReference: string | null;
  status: 'confirmed' | 'pending' | 'cancelled';
  /** YYYY-MM-DD, the vendor's creation day. */
  createdOn: string;
  net?: string;
  currency?: string;
}

/**
 * What the platform asks of a supplier: for searching and prebooking, its priced
 * offers for many hotels at once (search availability, hotel rates, V2 rates), one
 * offer's price and a recheck before booking; for booking, to book, to say where a
 * booking stands and to cancel it. Every vendor is reached over the network and keeps
 * its own allotment: what it offers and rechecks is what it has. The rates service
 * keeps the platform's own record of supplier bookings around the booking calls.
 *
 * A vendor's refusal is a DomainError (`@hotel/platform`): SUPPLIER_ERROR, or
 * RATE_NOT_AVAILABLE for a room gone; the booking then fails. Any other error is
 * taken as passing (a timeout, the vendor down) and the step is retried later with
 * the same booking id.
 *
 * Implementations are Nest providers collected under SUPPLIER_PORTS (see
 * `suppliers.ts`); callers inject `Suppliers`, never a static registry.
 */
export interface SupplierPort {
  readonly code: string;
  readonly name: string;
  /**
   * Bulk availability: the offers for every hotel, priced. One call covers a whole
   * search; the answer is aligned with `hotels` (element i is hotels[i]'s offers, in
   * the supplier's order; empty when it has none).
   */
  availability(hotels: readonly Hotel[], stay: Stay, request: AvailabilityRequest): Promise<SupplierOffer[][]>;
  /**
   * One offer's price now (from the vendor's recheck). A sandbox prebook says so: the
   * vendor itself is then never asked to hold a rate.
   */
  price(hotel: Hotel, offer: OfferKey, stay: Stay, context: PricingContext & { sandbox?: boolean }): Promise<Omit<HotelRate, 'id'>>;
  /**
   * What the offer cost when the client saw it, in the vendor's currency (thousandths):
   * the price the vendor answered, which the offer carries.
   */
  seenPrice(hotel: Hotel, offer: OfferKey, stay: Stay, context: PricingContext): Promise<{ milli: number; currency: string }>;
  /**
   * Is the offer still available (closed nights, allotment)? The offer as the vendor now
   * holds it (its recheck may give new rate keys to book with), or null.
   */
  recheck(hotel: Hotel, offer: OfferKey, stay: Stay, sandbox?: boolean): Promise<OfferKey | null>;
  /** Books the room: confirmed, or pending (accepted, to be confirmed later: ask `status`). */
  book(order: SupplierBookingOrder): Promise<SupplierBooking>;
  /**
   * The booking the vendor made for this order, if it made one (looked up by the
   * platform's booking id, the order's client reference): asked when the answer to
   * `book` was lost, before booking again. Null when the vendor has none.
   */
  find(order: SupplierBookingOrder): Promise<SupplierBooking | null>;
  /** Where a booking stands now (a pending one may have been confirmed, or rejected). */
  status(booking: PlacedSupplierBooking): Promise<SupplierBooking>;
  /** Cancels a booking: answers `cancelled`, again for a booking already cancelled. */
  cancel(booking: PlacedSupplierBooking): Promise<SupplierBooking>;
  /**
   * Every booking the vendor made from `start` to `end` (YYYY-MM-DD, by its creation day,
   * both included), whatever its status, all pages: what reconciliation compares the
   * platform's records with.
   */
  bookingsMade?(start: string, end: string): Promise<VendorBookingSummary[]>;
  /** The vendor's circuit breakers, by operation (for health detail and metrics). */
  circuits?(): Record<string, CircuitState>;
  /** Lets go of connections (at shutdown). */
  close?(): void;
}

/** Injection token: remote suppliers an app registers (`SupplierPort[]`, built from its configuration). */
export const REMOTE_SUPPLIERS = Symbol('REMOTE_SUPPLIERS');

/** Injection token: every registered supplier (`readonly SupplierPort[]`), one per vendor code. */
export const SUPPLIER_PORTS = Symbol('SUPPLIER_PORTS');
