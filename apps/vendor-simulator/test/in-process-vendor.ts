import { HotelRate, SupplierBooking, toMilli } from '@hotel/contracts';
import {
  AvailabilityRequest,
  Hotel,
  OfferKey,
  PlacedSupplierBooking,
  PricingContext,
  Stay,
  SupplierBookingOrder,
  SupplierOffer,
  SupplierPort,
  hash32,
  offerKeyString,
} from '@hotel/inventory';
import { DomainError } from '@hotel/platform';
import { listOffers, priceOffer } from '../src/inventory/pricing';
import { Vendor, VendorCode } from '../src/inventory/vendors';

export interface InProcessVendorOptions {
  /** A booking in the sandbox scenario supplier_pending is confirmed this long after the vendor accepted it. */
  pendingSeconds: number;
}

const DEFAULT_OPTIONS: InProcessVendorOptions = { pendingSeconds: 60 };

/**
 * For tests only: one of the simulator's vendors in process, offers and prices as the
 * simulator makes them, answered at once, with no allotment (`soldOut` of a test's own
 * stands for one). It keeps no bookings of its own: where one stands follows from what
 * the platform recorded of its answer.
 */
export class InProcessVendor implements SupplierPort {
  readonly code: VendorCode;
  readonly name: string;
  private readonly answered: AnsweredBookings;
  /** Room types a test has sold out (`vendor:hotel:room`): offered and rechecked no more. */
  readonly soldOut = new Set<string>();

  constructor(
    private readonly vendor: Vendor,
    options: InProcessVendorOptions = DEFAULT_OPTIONS,
  ) {
    this.code = vendor.code;
    this.name = vendor.name;
    this.answered = new AnsweredBookings(vendor.code, options.pendingSeconds);
  }

  async availability(hotels: readonly Hotel[], stay: Stay, request: AvailabilityRequest): Promise<SupplierOffer[][]> {
    const answer: SupplierOffer[][] = new Array<SupplierOffer[]>(hotels.length);
    for (let i = 0; i < hotels.length; i++) {
      const hotel = hotels[i];
      answer[i] = listOffers(hotel, this.vendor, stay, { soldOut: this.soldOut, includeMemberRates: request.includeMemberRates }).map((key) => ({ key, rate: priceOffer(hotel, key, stay, request.context) }));
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

  async recheck(hotel: Hotel, offer: OfferKey, stay: Stay): Promise<OfferKey | null> {
    const wanted = offerKeyString(offer);
    return listOffers(hotel, this.vendor, stay, { soldOut: this.soldOut, includeMemberRates: true }).some((candidate) => offerKeyString(candidate) === wanted) ? offer : null;
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

/**
 * Bookings answered without a vendor keeping them. The
 * reference follows from the order (`ATL-<booking id>-<6 hex>`), so an order placed again
 * is the same booking; the sandbox scenarios make it pending (confirmed `pendingSeconds`
 * after it was accepted) or refused.
 */
class AnsweredBookings {
  constructor(
    private readonly vendorCode: string,
    private readonly pendingSeconds: number,
  ) {}

  book(order: SupplierBookingOrder): SupplierBooking {
    if (order.testScenario === 'supplier_error') {
      throw new DomainError('SUPPLIER_ERROR', 'the supplier could not confirm the booking (sandbox scenario supplier_error)');
    }
    const suffix = hash32(this.vendorCode, order.bookingId, order.sandbox ? 'sandbox' : 'live').toString(16).toUpperCase().padStart(8, '0').slice(0, 6);
    const reference = `${this.vendorCode.slice(0, 3).toUpperCase()}-${order.bookingId}-${suffix}`;
    return { reference, status: order.testScenario === 'supplier_pending' ? 'pending' : 'confirmed' };
  }

  /** A pending booking is confirmed once `pendingSeconds` have passed since it was accepted. */
  status(booking: PlacedSupplierBooking, now = Date.now()): SupplierBooking {
    const due = booking.status === 'pending' && booking.placedAt.getTime() + this.pendingSeconds * 1000 <= now;
    return { reference: booking.reference, status: due ? 'confirmed' : booking.status };
  }

  cancel(booking: PlacedSupplierBooking): SupplierBooking {
    return { reference: booking.reference, status: 'cancelled' };
  }
}
