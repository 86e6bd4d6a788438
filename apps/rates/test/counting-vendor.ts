import { Injectable } from '@nestjs/common';
import { SupplierBooking } from '@hotel/contracts';
import { Hotel, OfferKey, PlacedSupplierBooking, Stay, SupplierBookingOrder, SupplierPort } from '@hotel/inventory';
// eslint-disable-next-line @nx/enforce-module-boundaries -- offers and prices as the vendor simulator's atlas makes them
import { VENDORS } from '../../vendor-simulator/src/inventory/vendors';
// eslint-disable-next-line @nx/enforce-module-boundaries -- as above
import { InProcessVendor } from '../../vendor-simulator/test/in-process-vendor';

/**
 * A vendor of a test's own for the code atlas, as a remote one behaves: it keeps the
 * bookings it made (so it can be asked about one whose answer was lost), counts what it
 * is asked, and can be told to lose its next answer or to run a check while it works.
 * Offers and prices are the simulated atlas's.
 */
@Injectable()
export class CountingVendor implements SupplierPort {
  readonly code = 'atlas';
  readonly name = 'Atlas Beds over the network';
  readonly calls: string[] = [];
  readonly made = new Map<number, SupplierBooking>();
  private readonly search = new InProcessVendor(VENDORS.atlas);

  /** Runs while the vendor handles a book or cancel call (a test looks at the database meanwhile). */
  whileWorking: (() => Promise<void>) | null = null;
  /** The next book call makes the booking but its answer never arrives (a timeout). */
  loseNextAnswer = false;
  /** What `book` answers, and `status` next. */
  bookAnswer: SupplierBooking['status'] = 'confirmed';
  statusAnswer: SupplierBooking['status'] = 'confirmed';

  availability(...args: Parameters<SupplierPort['availability']>) {
    return this.search.availability(...args);
  }

  price(...args: Parameters<SupplierPort['price']>) {
    return this.search.price(...args);
  }

  seenPrice(...args: Parameters<SupplierPort['seenPrice']>) {
    return this.search.seenPrice(...args);
  }

  recheck(hotel: Hotel, offer: OfferKey, stay: Stay) {
    return this.search.recheck(hotel, offer, stay);
  }

  async book(order: SupplierBookingOrder): Promise<SupplierBooking> {
    this.calls.push(`book ${order.bookingId}`);
    // The reference counts this booking's book calls: a second vendor booking for one platform booking would show as -2.
    const attempt = this.calls.filter((call) => call === `book ${order.bookingId}`).length;
    await this.whileWorking?.();
    const booking: SupplierBooking = { reference: `REMOTE-${order.bookingId}-${attempt}`, status: order.testScenario === 'supplier_pending' ? 'pending' : this.bookAnswer };
    if (booking.status === 'confirmed' || booking.status === 'pending') this.made.set(order.bookingId, booking);
    if (this.loseNextAnswer) {
      this.loseNextAnswer = false;
      throw new Error('the vendor did not answer in time');
    }
    return booking;
  }

  async find(order: SupplierBookingOrder): Promise<SupplierBooking | null> {
    this.calls.push(`find ${order.bookingId}`);
    return this.made.get(order.bookingId) ?? null;
  }

  async status(booking: PlacedSupplierBooking): Promise<SupplierBooking> {
    this.calls.push(`status ${booking.bookingId}`);
    return { reference: booking.reference, status: this.statusAnswer };
  }

  async cancel(booking: PlacedSupplierBooking): Promise<SupplierBooking> {
    this.calls.push(`cancel ${booking.bookingId}`);
    await this.whileWorking?.();
    return { reference: booking.reference, status: 'cancelled' };
  }
}
