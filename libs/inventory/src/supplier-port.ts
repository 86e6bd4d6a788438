import { HotelRate } from '@hotel/contracts';
import { Hotel } from './catalog';
import { OfferKey, PricingContext, Stay, listOffers, offerKeyString, priceOffer } from './pricing';
import { VENDORS, VENDOR_CODES, Vendor, VendorCode } from './vendors';

export interface OfferOptions {
  /** Room types whose allotment is used up (`vendor:hotel:room`). */
  soldOut: ReadonlySet<string>;
  includeMemberRates: boolean;
}

/**
 * What the platform asks of a supplier when searching and prebooking: its
 * offers for a hotel and stay (search availability and hotel rates), their
 * price, and a recheck before booking. Booking and cancelling change the
 * supplier's inventory and go through the rates service's supplier API
 * (`rates.supplier.book|cancel|status.v1`). A real supplier is added by
 * implementing this port (and that API's side) and registering it in SUPPLIERS.
 */
export interface SupplierPort {
  readonly code: VendorCode;
  readonly name: string;
  offers(hotel: Hotel, stay: Stay, options: OfferOptions): OfferKey[];
  price(hotel: Hotel, offer: OfferKey, stay: Stay, context: PricingContext): Omit<HotelRate, 'id'>;
  /** Is the offer still available (closed nights, allotment)? */
  recheck(hotel: Hotel, offer: OfferKey, stay: Stay, soldOut: ReadonlySet<string>): boolean;
}

/** The built-in simulated vendors: deterministic offers and prices from the catalog. */
export class SimulatedSupplier implements SupplierPort {
  readonly code: VendorCode;
  readonly name: string;

  constructor(private readonly vendor: Vendor) {
    this.code = vendor.code;
    this.name = vendor.name;
  }

  offers(hotel: Hotel, stay: Stay, options: OfferOptions): OfferKey[] {
    return listOffers(hotel, this.vendor, stay, options);
  }

  price(hotel: Hotel, offer: OfferKey, stay: Stay, context: PricingContext): Omit<HotelRate, 'id'> {
    return priceOffer(hotel, offer, stay, context);
  }

  recheck(hotel: Hotel, offer: OfferKey, stay: Stay, soldOut: ReadonlySet<string>): boolean {
    const wanted = offerKeyString(offer);
    return this.offers(hotel, stay, { soldOut, includeMemberRates: true }).some((candidate) => offerKeyString(candidate) === wanted);
  }
}

/** Every supplier the platform searches, by code. */
export const SUPPLIERS: Readonly<Record<VendorCode, SupplierPort>> = {
  atlas: new SimulatedSupplier(VENDORS.atlas),
  borealis: new SimulatedSupplier(VENDORS.borealis),
  cobalt: new SimulatedSupplier(VENDORS.cobalt),
};

export function supplier(code: string): SupplierPort | undefined {
  return (VENDOR_CODES as readonly string[]).includes(code) ? SUPPLIERS[code as VendorCode] : undefined;
}
