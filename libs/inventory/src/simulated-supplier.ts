import { HotelRate, SupplierBooking, toMilli } from '@hotel/contracts';
import { Hotel } from './catalog';
import { AnsweredBookings } from './answered-bookings';
import { OfferKey, PricingContext, Stay, listOffers, offerKeyString, priceOffer } from './pricing';
import { AvailabilityRequest, PlacedSupplierBooking, SupplierBookingOrder, SupplierOffer, SupplierPort } from './supplier-port';
import { Vendor, VendorCode } from './vendors';

export interface SimulatedSupplierOptions {
  /** A booking in the sandbox scenario supplier_pending is confirmed this long after the vendor accepted it. */
  pendingSeconds: number;
}

const DEFAULT_OPTIONS: SimulatedSupplierOptions = { pendingSeconds: 60 };

/**
 * A built-in simulated vendor: deterministic offers and prices from the catalog,
 * computed in process (its answers are ready at once; the search service
 * simulates the vendor's latency). It books whatever it is asked (the rates
 * service has checked the room against its allotment), keeping no bookings of its
 * own: where one stands follows from what the platform recorded of its answer.
 */
export class SimulatedSupplier implements SupplierPort {
  readonly code: VendorCode;
  readonly name: string;
  readonly remote = false;
  private readonly answered: AnsweredBookings;

  constructor(
    private readonly vendor: Vendor,
    options: SimulatedSupplierOptions = DEFAULT_OPTIONS,
  ) {
    this.code = vendor.code;
    this.name = vendor.name;
    this.answered = new AnsweredBookings(vendor.code, options.pendingSeconds);
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

  async seenPrice(hotel: Hotel, offer: OfferKey, stay: Stay, context: PricingContext): Promise<{ milli: number; currency: string }> {
    const rate = priceOffer(hotel, offer, stay, context);
    return { milli: toMilli(rate.price_chargeable), currency: rate.price_currency };
  }

  async recheck(hotel: Hotel, offer: OfferKey, stay: Stay, soldOut: ReadonlySet<string>): Promise<OfferKey | null> {
    const wanted = offerKeyString(offer);
    return listOffers(hotel, this.vendor, stay, { soldOut, includeMemberRates: true }).some((candidate) => offerKeyString(candidate) === wanted) ? offer : null;
  }

  /** Confirmed at once (the same reference for the same order); the sandbox scenarios make it pending or refused. */
  async book(order: SupplierBookingOrder): Promise<SupplierBooking> {
    return this.answered.book(order);
  }

  /** Keeps no bookings of its own: nothing to find (booking again makes the same booking, see `book`). */
  async find(_order: SupplierBookingOrder): Promise<SupplierBooking | null> {
    return null;
  }

  async status(booking: PlacedSupplierBooking, now = Date.now()): Promise<SupplierBooking> {
    return this.answered.status(booking, now);
  }

  async cancel(booking: PlacedSupplierBooking): Promise<SupplierBooking> {
    return this.answered.cancel(booking);
  }
}
