import { HotelRate } from '@hotel/contracts';
import { Hotel } from './catalog';
import { OfferKey, PricingContext, Stay } from './pricing';
import { VendorCode } from './vendors';

export interface OfferOptions {
  /** Room types whose allotment is used up (`vendor:hotel:room`). */
  soldOut: ReadonlySet<string>;
  includeMemberRates: boolean;
}

/** What an availability request asks for: which offers, and the price step to price them in. */
export interface AvailabilityRequest extends OfferOptions {
  context: PricingContext;
}

/** One offer a supplier makes for a hotel and stay, with its price. */
export interface SupplierOffer {
  key: OfferKey;
  rate: Omit<HotelRate, 'id'>;
}

/**
 * What the platform asks of a supplier when searching and prebooking: its priced
 * offers for many hotels at once (search availability, hotel rates, V2 rates),
 * one offer's price, and a recheck before booking. Every method is asynchronous, so
 * a supplier may answer over the network. Booking and cancelling change the
 * supplier's inventory and go through the rates service's supplier API
 * (`rates.supplier.book|cancel|status`).
 *
 * Implementations are Nest providers collected under SUPPLIER_PORTS (see
 * `supplier-providers.ts`); callers inject `Suppliers`, never a static registry.
 */
export interface SupplierPort {
  readonly code: VendorCode;
  readonly name: string;
  /**
   * Bulk availability: the offers for every hotel, priced. One call covers a whole
   * search; the answer is aligned with `hotels` (element i is hotels[i]'s offers, in
   * the supplier's order; empty when it has none).
   */
  availability(hotels: readonly Hotel[], stay: Stay, request: AvailabilityRequest): Promise<SupplierOffer[][]>;
  /** One offer's price in a price step (now, or when the client saw it). */
  price(hotel: Hotel, offer: OfferKey, stay: Stay, context: PricingContext): Promise<Omit<HotelRate, 'id'>>;
  /** Is the offer still available (closed nights, allotment)? */
  recheck(hotel: Hotel, offer: OfferKey, stay: Stay, soldOut: ReadonlySet<string>): Promise<boolean>;
}

/** Injection token: every registered supplier (`readonly SupplierPort[]`), one per vendor code. */
export const SUPPLIER_PORTS = Symbol('SUPPLIER_PORTS');
