import { SupplierBooking } from '@hotel/contracts';
import { DomainError } from '@hotel/platform';
import { hash32 } from './hash';
import { PlacedSupplierBooking, SupplierBookingOrder } from './supplier-port';

/**
 * Bookings answered without a vendor keeping them: a built-in simulated vendor's, and a
 * remote vendor's sandbox bookings (test traffic never reaches a real vendor). The
 * reference follows from the order (`ATL-<booking id>-<6 hex>`), so an order placed again
 * is the same booking; the sandbox scenarios make it pending (confirmed `pendingSeconds`
 * after it was accepted) or refused.
 */
export class AnsweredBookings {
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
