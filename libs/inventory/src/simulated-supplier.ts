import { HotelRate } from '@hotel/contracts';
import { Hotel } from './catalog';
import { OfferKey, PricingContext, Stay, listOffers, offerKeyString, priceOffer } from './pricing';
import { AvailabilityRequest, SupplierOffer, SupplierPort } from './supplier-port';
import { Vendor, VendorCode } from './vendors';

/**
 * A built-in simulated vendor: deterministic offers and prices from the catalog,
 * computed in process (its answers are ready at once; the search service
 * simulates the vendor's latency).
 */
export class SimulatedSupplier implements SupplierPort {
  readonly code: VendorCode;
  readonly name: string;

  constructor(private readonly vendor: Vendor) {
    this.code = vendor.code;
    this.name = vendor.name;
  }

  async availability(hotels: readonly Hotel[], stay: Stay, request: AvailabilityRequest): Promise<SupplierOffer[][]> {
    const answer: SupplierOffer[][] = new Array<SupplierOffer[]>(hotels.length);
    for (let i = 0; i < hotels.length; i++) {
      const hotel = hotels[i];
      answer[i] = listOffers(hotel, this.vendor, stay, request).map((key) => ({ key, rate: priceOffer(hotel, key, stay, request.context) }));
    }
    return answer;
  }

  async price(hotel: Hotel, offer: OfferKey, stay: Stay, context: PricingContext): Promise<Omit<HotelRate, 'id'>> {
    return priceOffer(hotel, offer, stay, context);
  }

  async recheck(hotel: Hotel, offer: OfferKey, stay: Stay, soldOut: ReadonlySet<string>): Promise<boolean> {
    const wanted = offerKeyString(offer);
    return listOffers(hotel, this.vendor, stay, { soldOut, includeMemberRates: true }).some((candidate) => offerKeyString(candidate) === wanted);
  }
}
