import { Inject, Injectable } from '@nestjs/common';
import { InjectDataSource } from '@nestjs/typeorm';
import { randomBytes } from 'node:crypto';
import { DataSource, EntityManager } from 'typeorm';
import { SupplierBookRequest, SupplierBooking } from '@hotel/contracts';
import { allotmentCapacity, stayNights } from '@hotel/inventory';
import { DomainError, SERVICE_ENV, rowsOf } from '@hotel/platform';
import { RatesEnv } from '../rates.env';

/**
 * The supplier port's book and cancel, answered by the simulated vendors: a
 * booking takes rooms from the vendor's allotment for every night, all or
 * nothing; a cancellation gives them back. Both are idempotent by booking id. A
 * sandbox booking checks that the room is there but takes nothing: test traffic
 * never costs live clients a room.
 */
@Injectable()
export class SupplierService {
  constructor(
    @InjectDataSource() private readonly dataSource: DataSource,
    @Inject(SERVICE_ENV) private readonly env: RatesEnv,
  ) {}

  async book(request: SupplierBookRequest): Promise<SupplierBooking> {
    return this.dataSource.transaction(async (manager) => {
      // A retried step can race the first attempt (a timeout, then recovery): one at a time per booking.
      await manager.query(`SELECT pg_advisory_xact_lock(hashtext('supplier-booking'), $1)`, [request.booking_id]);
      const existing = await this.find(manager, request.booking_id);
      if (existing) return existing;
      if (request.test_scenario === 'supplier_error') {
        throw new DomainError('SUPPLIER_ERROR', 'the supplier could not confirm the booking (sandbox scenario supplier_error)');
      }
      for (const night of stayNights(request)) {
        const available = request.sandbox ? await this.hasRoom(manager, request, night) : await this.take(manager, request, night);
        if (!available) throw new DomainError('RATE_NOT_AVAILABLE', 'rate not available: the room sold out');
      }
      const reference = `${request.vendor.slice(0, 3).toUpperCase()}-${request.booking_id}-${randomBytes(3).toString('hex').toUpperCase()}`;
      const pending = request.test_scenario === 'supplier_pending';
      await manager.query(
        `INSERT INTO rates.supplier_bookings (booking_id, vendor, hotel_id, room_id, check_in, check_out, rooms, reference, status, confirm_after, sandbox)
         VALUES ($1, $2, $3, $4, $5, $6, $7, $8, $9, CASE WHEN $9 = 'pending' THEN now() + make_interval(secs => $10) END, $11)`,
        [request.booking_id, request.vendor, request.hotel_id, request.room_id, request.check_in, request.check_out, request.rooms, reference, pending ? 'pending' : 'confirmed', this.env.SUPPLIER_PENDING_S, request.sandbox],
      );
      return { reference, status: pending ? 'pending' : 'confirmed' };
    });
  }

  /** Where a supplier booking stands; a pending one is confirmed by its vendor once its time has come. */
  async status(bookingId: number): Promise<SupplierBooking> {
    const rows = rowsOf<{ reference: string; status: SupplierBooking['status'] }>(
      await this.dataSource.query(
        `UPDATE rates.supplier_bookings SET status = CASE WHEN status = 'pending' AND confirm_after <= now() THEN 'confirmed' ELSE status END,
                updated_at = now()
          WHERE booking_id = $1 RETURNING reference, status`,
        [bookingId],
      ),
    );
    if (!rows.length) throw DomainError.notFound(`supplier booking for booking ${bookingId}`);
    return rows[0];
  }

  async cancel(bookingId: number): Promise<SupplierBooking> {
    return this.dataSource.transaction(async (manager) => {
      const rows: { vendor: string; hotel_id: number; room_id: number; check_in: string; check_out: string; rooms: number; reference: string; status: string; sandbox: boolean }[] =
        await manager.query(
          `SELECT vendor, hotel_id, room_id, to_char(check_in, 'YYYY-MM-DD') AS check_in, to_char(check_out, 'YYYY-MM-DD') AS check_out, rooms, reference, status, sandbox
             FROM rates.supplier_bookings WHERE booking_id = $1 FOR UPDATE`,
          [bookingId],
        );
      const booking = rows[0];
      if (!booking) throw DomainError.notFound(`supplier booking for booking ${bookingId}`);
      if (booking.status === 'cancelled') return { reference: booking.reference, status: 'cancelled' };
      if (!booking.sandbox) await manager.query(
        `UPDATE rates.allotments SET rooms_sold = rooms_sold - $5
          WHERE vendor = $1 AND hotel_id = $2 AND room_id = $3 AND night >= $4::date AND night < $6::date`,
        [booking.vendor, booking.hotel_id, booking.room_id, booking.check_in, booking.rooms, booking.check_out],
      );
      await manager.query(`UPDATE rates.supplier_bookings SET status = 'cancelled', updated_at = now() WHERE booking_id = $1`, [bookingId]);
      return { reference: booking.reference, status: 'cancelled' };
    });
  }

  private async find(manager: EntityManager, bookingId: number): Promise<SupplierBooking | null> {
    const rows: { reference: string; status: SupplierBooking['status'] }[] = await manager.query(
      `SELECT reference, status FROM rates.supplier_bookings WHERE booking_id = $1`,
      [bookingId],
    );
    return rows[0] ?? null;
  }

  /** Whether the rooms are there for one night (a sandbox booking: looked at, not taken). */
  private async hasRoom(manager: EntityManager, request: SupplierBookRequest, night: string): Promise<boolean> {
    const capacity = allotmentCapacity(request.vendor, request.hotel_id, request.room_id);
    const rows: { rooms_sold: number }[] = await manager.query(
      `SELECT rooms_sold FROM rates.allotments WHERE vendor = $1 AND hotel_id = $2 AND room_id = $3 AND night = $4`,
      [request.vendor, request.hotel_id, request.room_id, night],
    );
    return (rows[0]?.rooms_sold ?? 0) + request.rooms <= capacity;
  }

  /** Takes rooms for one night in one statement: never more than the allotment, whoever races. */
  private async take(manager: EntityManager, request: SupplierBookRequest, night: string): Promise<boolean> {
    const capacity = allotmentCapacity(request.vendor, request.hotel_id, request.room_id);
    if (request.rooms > capacity) return false;
    const rows = rowsOf(
      await manager.query(
        `INSERT INTO rates.allotments (vendor, hotel_id, room_id, night, capacity, rooms_sold) VALUES ($1, $2, $3, $4, $5, $6)
         ON CONFLICT (hotel_id, night, vendor, room_id)
         DO UPDATE SET rooms_sold = rates.allotments.rooms_sold + EXCLUDED.rooms_sold
          WHERE rates.allotments.rooms_sold + EXCLUDED.rooms_sold <= rates.allotments.capacity
         RETURNING rooms_sold`,
        [request.vendor, request.hotel_id, request.room_id, night, capacity, request.rooms],
      ),
    );
    return rows.length === 1;
  }
}
