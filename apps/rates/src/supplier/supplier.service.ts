import { Inject, Injectable } from '@nestjs/common';
import { randomBytes } from 'node:crypto';
import { SupplierBookRequest, SupplierBooking } from '@hotel/contracts';
import { allotmentCapacity, stayNights } from '@hotel/inventory';
import { DomainError, SERVICE_ENV } from '@hotel/platform';
import { RatesEnv } from '../rates.env';
import { SupplierBookingTransaction, SupplierBookingsRepository } from './supplier-bookings.repository';

/**
 * The supplier API's book and cancel, answered by the simulated vendors: a
 * booking takes rooms from the vendor's allotment for every night, all or
 * nothing; a cancellation gives them back. Both are idempotent by booking id. A
 * sandbox booking checks that the room is there but takes nothing: test traffic
 * never costs live clients a room.
 */
@Injectable()
export class SupplierService {
  constructor(
    private readonly bookings: SupplierBookingsRepository,
    @Inject(SERVICE_ENV) private readonly env: RatesEnv,
  ) {}

  async book(request: SupplierBookRequest): Promise<SupplierBooking> {
    return this.bookings.inBookingLock(request.bookingId, async (booking) => {
      const existing = await booking.find(request.bookingId);
      if (existing) return existing;
      if (request.testScenario === 'supplier_error') {
        throw new DomainError('SUPPLIER_ERROR', 'the supplier could not confirm the booking (sandbox scenario supplier_error)');
      }
      for (const night of stayNights({ check_in: request.checkIn, check_out: request.checkOut })) {
        const available = request.sandbox ? await this.hasRoom(booking, request, night) : await this.take(booking, request, night);
        if (!available) throw new DomainError('RATE_NOT_AVAILABLE', 'rate not available: the room sold out');
      }
      const reference = `${request.vendor.slice(0, 3).toUpperCase()}-${request.bookingId}-${randomBytes(3).toString('hex').toUpperCase()}`;
      const status = request.testScenario === 'supplier_pending' ? 'pending' : 'confirmed';
      await booking.insert({
        bookingId: request.bookingId,
        vendor: request.vendor,
        hotelId: request.hotelId,
        roomId: request.roomId,
        checkIn: request.checkIn,
        checkOut: request.checkOut,
        rooms: request.rooms,
        reference,
        status,
        confirmAfterSeconds: this.env.SUPPLIER_PENDING_S,
        sandbox: request.sandbox,
      });
      return { reference, status };
    });
  }

  /** Where a supplier booking stands; a pending one is confirmed by its vendor once its time has come. */
  async status(bookingId: number): Promise<SupplierBooking> {
    const booking = await this.bookings.confirmDue(bookingId);
    if (!booking) throw DomainError.notFound(`supplier booking for booking ${bookingId}`);
    return booking;
  }

  async cancel(bookingId: number): Promise<SupplierBooking> {
    const booking = await this.bookings.cancel(bookingId);
    if (!booking) throw DomainError.notFound(`supplier booking for booking ${bookingId}`);
    return booking;
  }

  /** Whether the rooms are there for one night (a sandbox booking: looked at, not taken). */
  private async hasRoom(booking: SupplierBookingTransaction, request: SupplierBookRequest, night: string): Promise<boolean> {
    const capacity = allotmentCapacity(request.vendor, request.hotelId, request.roomId);
    return (await booking.roomsSold(request, night)) + request.rooms <= capacity;
  }

  /** Takes rooms for one night: never more than the allotment. */
  private async take(booking: SupplierBookingTransaction, request: SupplierBookRequest, night: string): Promise<boolean> {
    const capacity = allotmentCapacity(request.vendor, request.hotelId, request.roomId);
    if (request.rooms > capacity) return false;
    return booking.take(request, night, capacity);
  }
}
