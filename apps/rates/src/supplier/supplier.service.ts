import { Injectable } from '@nestjs/common';
import { SupplierBookRequest, SupplierBooking } from '@hotel/contracts';
import { PlacedSupplierBooking, SupplierPort, Suppliers, allotmentCapacity, stayNights } from '@hotel/inventory';
import { DomainError } from '@hotel/platform';
import { SupplierBookingRecord, SupplierBookingTransaction, SupplierBookingsRepository } from './supplier-bookings.repository';

/**
 * The supplier API's book, status and cancel: the vendor is asked through its
 * SupplierPort, and the platform keeps its own record around the call. A booking
 * takes rooms from the vendor's allotment for every night, all or nothing; a
 * cancellation gives them back. A sandbox booking checks that the room is there
 * but takes nothing: test traffic never costs live clients a room. Book and cancel
 * are idempotent by booking id, which is also the vendor's idempotency reference.
 */
@Injectable()
export class SupplierService {
  constructor(
    private readonly bookings: SupplierBookingsRepository,
    private readonly suppliers: Suppliers,
  ) {}

  /**
   * One transaction holding the booking id's lock: the rooms are taken, the vendor
   * books, its answer is recorded. A repeat answers the record without asking the
   * vendor again; a refusal or a crash before the record keeps nothing, and a retry
   * asks the vendor again under the same booking id.
   */
  async book(request: SupplierBookRequest): Promise<SupplierBooking> {
    const { vendor, ...order } = request;
    return this.bookings.inBookingLock(request.bookingId, async (booking) => {
      const existing = await booking.find(request.bookingId);
      if (existing) return existing;
      const supplier = this.supplierOf(vendor);
      const nights = stayNights({ check_in: request.checkIn, check_out: request.checkOut });
      // A refusal throws, rolling back whatever nights were taken.
      if (!(request.sandbox ? await this.hasRooms(booking, request, nights) : await this.take(booking, request, nights))) {
        throw new DomainError('RATE_NOT_AVAILABLE', 'rate not available: the room sold out');
      }
      const answer = await supplier.book(order);
      if (answer.status !== 'confirmed' && answer.status !== 'pending') throw refused(answer);
      const { bookingId, hotelId, roomId, checkIn, checkOut, rooms, sandbox } = request;
      await booking.insert({ bookingId, vendor, hotelId, roomId, checkIn, checkOut, rooms, sandbox, reference: answer.reference, status: answer.status });
      return { reference: answer.reference, status: answer.status };
    });
  }

  /**
   * Where a supplier booking stands; a pending one is asked of its vendor, and recorded
   * once confirmed. One the vendor rejected (or cancelled) while pending holds nothing
   * there any more: its rooms go back and the record says cancelled, so the saga's
   * compensation, which cancels it, asks the vendor nothing and cannot loop on it.
   */
  async status(bookingId: number): Promise<SupplierBooking> {
    const booking = await this.bookings.find(bookingId);
    if (!booking) throw notFound(bookingId);
    if (booking.status !== 'pending') return { reference: booking.reference, status: booking.status };
    const answer = await this.supplierOf(booking.vendor).status(placed(booking));
    if (answer.status === 'confirmed') return (await this.bookings.confirm(bookingId)) ?? answer;
    if (answer.status === 'rejected' || answer.status === 'cancelled') {
      await this.bookings.inTransaction(async (transaction) => {
        const locked = await transaction.lock(bookingId);
        if (locked?.status !== 'pending') return;
        if (!locked.sandbox) await transaction.giveBack(locked);
        await transaction.markCancelled(bookingId);
      });
    }
    return answer;
  }

  /**
   * Cancels with the vendor and gives the rooms back (a sandbox booking took none),
   * in one transaction holding the booking's row; cancelling again changes nothing
   * and asks the vendor nothing.
   */
  async cancel(bookingId: number): Promise<SupplierBooking> {
    return this.bookings.inTransaction(async (transaction) => {
      const booking = await transaction.lock(bookingId);
      if (!booking) throw notFound(bookingId);
      if (booking.status !== 'cancelled') {
        const answer = await this.supplierOf(booking.vendor).cancel(placed(booking));
        if (answer.status !== 'cancelled') throw new DomainError('SUPPLIER_ERROR', `the supplier did not cancel the booking (it answered ${answer.status})`);
        if (!booking.sandbox) await transaction.giveBack(booking);
        await transaction.markCancelled(bookingId);
      }
      return { reference: booking.reference, status: 'cancelled' };
    });
  }

  private supplierOf(vendor: string): SupplierPort {
    const supplier = this.suppliers.find(vendor);
    if (!supplier) throw new DomainError('SUPPLIER_ERROR', `no supplier is registered for vendor ${vendor}`);
    return supplier;
  }

  /** Whether the rooms are there every night (a sandbox booking: looked at, not taken). */
  private async hasRooms(booking: SupplierBookingTransaction, request: SupplierBookRequest, nights: string[]): Promise<boolean> {
    const capacity = allotmentCapacity(request.vendor, request.hotelId, request.roomId);
    for (const night of nights) {
      if ((await booking.roomsSold(request, night)) + request.rooms > capacity) return false;
    }
    return true;
  }

  /** Takes rooms for every night: never more than the allotment. */
  private async take(booking: SupplierBookingTransaction, request: SupplierBookRequest, nights: string[]): Promise<boolean> {
    const capacity = allotmentCapacity(request.vendor, request.hotelId, request.roomId);
    if (request.rooms > capacity) return false;
    return booking.take(request, nights, capacity);
  }
}

function placed(booking: SupplierBookingRecord): PlacedSupplierBooking {
  return { bookingId: booking.bookingId, reference: booking.reference, status: booking.status, sandbox: booking.sandbox, placedAt: booking.createdAt };
}

function notFound(bookingId: number): DomainError {
  return DomainError.notFound(`supplier booking for booking ${bookingId}`);
}

function refused(answer: SupplierBooking): DomainError {
  return new DomainError('SUPPLIER_ERROR', `the supplier ${answer.status} the booking`);
}
