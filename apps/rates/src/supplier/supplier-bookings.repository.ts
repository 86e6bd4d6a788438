import { Injectable } from '@nestjs/common';
import { InjectDataSource } from '@nestjs/typeorm';
import { DataSource, EntityManager } from 'typeorm';
import { SupplierBookRequest, SupplierBooking } from '@hotel/contracts';
import { rowsOf } from '@hotel/platform';

/** The room type a supplier booking is for, and how many rooms. */
export type BookedRoom = Pick<SupplierBookRequest, 'vendor' | 'hotel_id' | 'room_id' | 'rooms'>;

export interface NewSupplierBooking {
  bookingId: number;
  vendor: string;
  hotelId: number;
  roomId: number;
  checkIn: string;
  checkOut: string;
  rooms: number;
  reference: string;
  status: 'pending' | 'confirmed';
  /** A pending booking confirms this many seconds from now. */
  confirmAfterSeconds: number;
  sandbox: boolean;
}

/**
 * The statements a booking runs inside the transaction SupplierBookingsRepository
 * opened for it (see `inBookingLock`).
 */
export class SupplierBookingTransaction {
  constructor(private readonly manager: EntityManager) {}

  async find(bookingId: number): Promise<SupplierBooking | null> {
    const rows: { reference: string; status: SupplierBooking['status'] }[] = await this.manager.query(
      `SELECT reference, status FROM rates.supplier_bookings WHERE booking_id = $1`,
      [bookingId],
    );
    return rows[0] ?? null;
  }

  /** Rooms already sold of the room type on one night (none when the night has no allotment row yet). */
  async roomsSold(room: BookedRoom, night: string): Promise<number> {
    const rows: { rooms_sold: number }[] = await this.manager.query(
      `SELECT rooms_sold FROM rates.allotments WHERE vendor = $1 AND hotel_id = $2 AND room_id = $3 AND night = $4`,
      [room.vendor, room.hotel_id, room.room_id, night],
    );
    return rows[0]?.rooms_sold ?? 0;
  }

  /** Takes rooms for one night in one statement: never more than the allotment, whoever races. */
  async take(room: BookedRoom, night: string, capacity: number): Promise<boolean> {
    const rows = rowsOf(
      await this.manager.query(
        `INSERT INTO rates.allotments (vendor, hotel_id, room_id, night, capacity, rooms_sold) VALUES ($1, $2, $3, $4, $5, $6)
         ON CONFLICT (hotel_id, night, vendor, room_id)
         DO UPDATE SET rooms_sold = rates.allotments.rooms_sold + EXCLUDED.rooms_sold
          WHERE rates.allotments.rooms_sold + EXCLUDED.rooms_sold <= rates.allotments.capacity
         RETURNING rooms_sold`,
        [room.vendor, room.hotel_id, room.room_id, night, capacity, room.rooms],
      ),
    );
    return rows.length === 1;
  }

  async insert(booking: NewSupplierBooking): Promise<void> {
    await this.manager.query(
      `INSERT INTO rates.supplier_bookings (booking_id, vendor, hotel_id, room_id, check_in, check_out, rooms, reference, status, confirm_after, sandbox)
       VALUES ($1, $2, $3, $4, $5, $6, $7, $8, $9, CASE WHEN $9 = 'pending' THEN now() + make_interval(secs => $10) END, $11)`,
      [
        booking.bookingId,
        booking.vendor,
        booking.hotelId,
        booking.roomId,
        booking.checkIn,
        booking.checkOut,
        booking.rooms,
        booking.reference,
        booking.status,
        booking.confirmAfterSeconds,
        booking.sandbox,
      ],
    );
  }
}

/** Supplier bookings with the simulated vendors (`rates.supplier_bookings`) and the allotment rooms they take. */
@Injectable()
export class SupplierBookingsRepository {
  constructor(@InjectDataSource() private readonly dataSource: DataSource) {}

  /**
   * Runs `work` in one transaction holding the booking id's advisory lock: a retried
   * step can race the first attempt (a timeout, then recovery), so one at a time per
   * booking. All or nothing: if `work` throws, nothing it did is kept.
   */
  inBookingLock<T>(bookingId: number, work: (booking: SupplierBookingTransaction) => Promise<T>): Promise<T> {
    return this.dataSource.transaction(async (manager) => {
      await manager.query(`SELECT pg_advisory_xact_lock(hashtext('supplier-booking'), $1)`, [bookingId]);
      return work(new SupplierBookingTransaction(manager));
    });
  }

  /** Where a booking stands, confirming a pending one whose time has come; null when there is no such booking. */
  async confirmDue(bookingId: number): Promise<SupplierBooking | null> {
    const rows = rowsOf<{ reference: string; status: SupplierBooking['status'] }>(
      await this.dataSource.query(
        `UPDATE rates.supplier_bookings SET status = CASE WHEN status = 'pending' AND confirm_after <= now() THEN 'confirmed' ELSE status END,
                updated_at = now()
          WHERE booking_id = $1 RETURNING reference, status`,
        [bookingId],
      ),
    );
    return rows[0] ?? null;
  }

  /**
   * Cancels a booking and gives its rooms back to the allotment (a sandbox booking
   * took none), in one transaction holding the booking's row; cancelling again
   * changes nothing. Null when there is no such booking.
   */
  async cancel(bookingId: number): Promise<SupplierBooking | null> {
    return this.dataSource.transaction(async (manager) => {
      const rows: { vendor: string; hotel_id: number; room_id: number; check_in: string; check_out: string; rooms: number; reference: string; status: string; sandbox: boolean }[] =
        await manager.query(
          `SELECT vendor, hotel_id, room_id, to_char(check_in, 'YYYY-MM-DD') AS check_in, to_char(check_out, 'YYYY-MM-DD') AS check_out, rooms, reference, status, sandbox
             FROM rates.supplier_bookings WHERE booking_id = $1 FOR UPDATE`,
          [bookingId],
        );
      const booking = rows[0];
      if (!booking) return null;
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
}
