import { HotelRate, SupplierBooking } from '@hotel/contracts';
import { DomainError } from '@hotel/platform';
import { Hotel } from './catalog';
import { hash32 } from './hash';
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

  constructor(
    private readonly vendor: Vendor,
    private readonly options: SimulatedSupplierOptions = DEFAULT_OPTIONS,
  ) {
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

  /**
   * Confirmed at once with the order's reference (`ATL-<booking id>-<6 hex>`, the same for
   * the same order: an order placed again is the same booking); the sandbox scenarios
   * make it pending or refused.
   */
  async book(order: SupplierBookingOrder): Promise<SupplierBooking> {
    if (order.testScenario === 'supplier_error') {
      throw new DomainError('SUPPLIER_ERROR', 'the supplier could not confirm the booking (sandbox scenario supplier_error)');
    }
    const suffix = hash32(this.code, order.bookingId, order.sandbox ? 'sandbox' : 'live').toString(16).toUpperCase().padStart(8, '0').slice(0, 6);
    const reference = `${this.code.slice(0, 3).toUpperCase()}-${order.bookingId}-${suffix}`;
    return { reference, status: order.testScenario === 'supplier_pending' ? 'pending' : 'confirmed' };
  }

  /** Keeps no bookings of its own: nothing to find (booking again makes the same booking, see `book`). */
  async find(_order: SupplierBookingOrder): Promise<SupplierBooking | null> {
    return null;
  }

  /** A pending booking is confirmed once `pendingSeconds` have passed since it was accepted. */
  async status(booking: PlacedSupplierBooking, now = Date.now()): Promise<SupplierBooking> {
    const due = booking.status === 'pending' && booking.placedAt.getTime() + this.options.pendingSeconds * 1000 <= now;
    return { reference: booking.reference, status: due ? 'confirmed' : booking.status };
  }

  async cancel(booking: PlacedSupplierBooking): Promise<SupplierBooking> {
    return { reference: booking.reference, status: 'cancelled' };
  }
}
