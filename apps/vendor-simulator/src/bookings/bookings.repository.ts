import { Injectable } from '@nestjs/common';
import { InjectDataSource } from '@nestjs/typeorm';
import { DataSource, EntityManager } from 'typeorm';
import { getPage, rowsOf } from '@hotel/platform';
import { AllotmentEntity } from './allotment.entity';
import { BookingRoomEntity } from './booking-room.entity';
import { BookingEntity } from './booking.entity';

/** A booking and its rooms, in room order. */
export interface BookingRecord {
  booking: BookingEntity;
  rooms: BookingRoomEntity[];
}

/** A booking to record: everything but its reference, which the sequence gives. */
export interface NewBooking {
  /** The reference's prefix, the vendor's office (`101` in 101-1000001). */
  office: string;
  booking: Omit<BookingEntity, 'reference'>;
  rooms: Omit<BookingRoomEntity, 'reference'>[];
}

/** Rooms of one type to take from the allotment on every night of a stay. */
export interface AllotmentTake {
  hotelCode: number;
  roomId: number;
  rooms: number;
  /** The vendor's allotment of the room type per night. */
  capacity: number;
  /** YYYY-MM-DD, ascending. */
  nights: string[];
}

/** Rooms left of a room type on the fullest night of a stay, for room types with rooms sold. */
export interface RoomsLeft {
  hotelCode: number;
  roomId: number;
  left: number;
}

export interface BookingFilter {
  /** YYYY-MM-DD, inclusive. */
  start: string;
  end: string;
  filterType: 'CHECKIN' | 'CREATION' | 'MODIFIED';
  status: 'ALL' | 'CONFIRMED' | 'CANCELLED';
  clientReference?: string;
  hotelCodes?: number[];
  countries?: string[];
  destinations?: string[];
}

/** A night of the stay had not enough rooms left: nothing was taken. */
export class AllotmentExhausted extends Error {
  override readonly name = 'AllotmentExhausted';
}

const DAY_MS = 86_400_000;

const ROOM_ORDER = { roomNumber: 'ASC' } as const;

/**
 * The vendors' bookings and allotments (schema vendor_simulator). Every change is one
 * transaction here; callers pass what to write, never a manager.
 */
@Injectable()
export class BookingsRepository {
  constructor(@InjectDataSource() private readonly dataSource: DataSource) {}

  /** Room types with fewer rooms left than their capacity on some night of the stay. */
  async roomsLeft(vendor: string, hotelCodes: number[], checkIn: string, checkOut: string): Promise<RoomsLeft[]> {
    if (hotelCodes.length === 0) return [];
    const rows = await this.dataSource
      .getRepository(AllotmentEntity)
      .createQueryBuilder('a')
      .select('a.hotelCode', 'hotel_code')
      .addSelect('a.roomId', 'room_id')
      .addSelect('min(a.capacity - a.roomsSold)', 'left')
      .where('a.vendor = :vendor', { vendor })
      // One array parameter, whatever the number of hotels: one statement text.
      .andWhere('a.hotelCode = ANY(CAST(:hotelCodes AS int[]))', { hotelCodes })
      .andWhere('a.night >= CAST(:checkIn AS date)', { checkIn })
      .andWhere('a.night < CAST(:checkOut AS date)', { checkOut })
      .groupBy('a.hotelCode')
      .addGroupBy('a.roomId')
      .getRawMany<{ hotel_code: number; room_id: number; left: number }>();
    return rows.map((row) => ({ hotelCode: row.hotel_code, roomId: row.room_id, left: Number(row.left) }));
  }

  /**
   * Records a booking and takes its rooms, all or nothing: every night of every room type
   * or none (AllotmentExhausted). The same client reference and rooms booked again while
   * the first booking lives answers the first booking (`created: false`); concurrent
   * repeats wait for one another on an advisory lock, and a unique index backs it.
   */
  book(order: NewBooking, takes: AllotmentTake[]): Promise<{ record: BookingRecord; created: boolean }> {
    const { vendor, clientReference, roomsFingerprint } = order.booking;
    return this.dataSource.transaction(async (manager) => {
      // Raw: a lock function call on no table (TypeORM's builder cannot build a SELECT without FROM).
      await manager.query(`SELECT pg_advisory_xact_lock(hashtext('vendor-booking'), hashtext($1))`, [`${vendor}|${clientReference}|${roomsFingerprint}`]);
      const existing = await manager
        .getRepository(BookingEntity)
        .createQueryBuilder('b')
        .where('b.vendor = :vendor AND b.clientReference = :clientReference AND b.roomsFingerprint = :roomsFingerprint', { vendor, clientReference, roomsFingerprint })
        .andWhere(`b.status <> 'CANCELLED'`)
        .getOne();
      if (existing) return { record: { booking: existing, rooms: await roomsOf(manager, existing.reference) }, created: false };
      // Room types in one order, nights ascending: concurrent bookings lock the rows they share in the same order.
      const ordered = [...takes].sort((a, b) => a.hotelCode - b.hotelCode || a.roomId - b.roomId);
      for (const take of ordered) {
        if (!(await takeRooms(manager, vendor, take))) throw new AllotmentExhausted(`room type ${take.roomId} of hotel ${take.hotelCode} has fewer than ${take.rooms} rooms left on a night of the stay`);
      }
      // Raw: a sequence function on no table.
      const [{ number }] = rowsOf<{ number: string }>(await manager.query(`SELECT nextval('vendor_simulator.booking_numbers') AS number`));
      const reference = `${order.office}-${number}`;
      const booking = manager.getRepository(BookingEntity).create({ ...order.booking, reference });
      await manager.getRepository(BookingEntity).insert(booking);
      const rooms = order.rooms.map((room) => manager.getRepository(BookingRoomEntity).create({ ...room, reference }));
      await manager.getRepository(BookingRoomEntity).insert(rooms);
      return { record: { booking, rooms }, created: true };
    });
  }

  async find(vendor: string, reference: string): Promise<BookingRecord | null> {
    const booking = await this.dataSource.getRepository(BookingEntity).findOne({ where: { vendor, reference } });
    return booking ? { booking, rooms: await roomsOf(this.dataSource.manager, reference) } : null;
  }

  /** Confirms the vendor's PRECONFIRMED bookings whose time has come. */
  async confirmDue(vendor: string, now: Date): Promise<void> {
    await this.dataSource
      .getRepository(BookingEntity)
      .createQueryBuilder()
      .update()
      .set({ status: 'CONFIRMED', confirmAfter: null, modifiedAt: now })
      .where(`vendor = :vendor AND status = 'PRECONFIRMED' AND confirm_after <= :now`, { vendor, now })
      .execute();
  }

  /** One page of the vendor's bookings matching the filter (oldest first), and how many match in all. */
  async list(vendor: string, filter: BookingFilter, offset: number, limit: number): Promise<{ bookings: BookingEntity[]; total: number }> {
    const query = this.dataSource.getRepository(BookingEntity).createQueryBuilder('b').where('b.vendor = :vendor', { vendor });
    if (filter.filterType === 'CHECKIN') {
      query.andWhere('b.checkIn >= CAST(:start AS date) AND b.checkIn <= CAST(:end AS date)', { start: filter.start, end: filter.end });
    } else {
      const column = filter.filterType === 'CREATION' ? 'b.createdAt' : 'b.modifiedAt';
      const from = new Date(`${filter.start}T00:00:00Z`);
      const until = new Date(new Date(`${filter.end}T00:00:00Z`).getTime() + DAY_MS);
      query.andWhere(`${column} >= :from AND ${column} < :until`, { from, until });
    }
    if (filter.status === 'CONFIRMED') query.andWhere(`b.status <> 'CANCELLED'`);
    if (filter.status === 'CANCELLED') query.andWhere(`b.status = 'CANCELLED'`);
    if (filter.clientReference !== undefined) query.andWhere('b.clientReference = :clientReference', { clientReference: filter.clientReference });
    if (filter.hotelCodes?.length) query.andWhere('b.hotelCode = ANY(CAST(:hotelCodes AS int[]))', { hotelCodes: filter.hotelCodes });
    if (filter.countries?.length) query.andWhere('b.countryCode = ANY(CAST(:countries AS text[]))', { countries: filter.countries });
    if (filter.destinations?.length) query.andWhere('b.destinationCode = ANY(CAST(:destinations AS text[]))', { destinations: filter.destinations });
    const total = await query.getCount();
    const bookings = total > offset ? await getPage(query.orderBy('b.createdAt', 'ASC').addOrderBy('b.reference', 'ASC'), limit, offset) : [];
    return { bookings, total };
  }

  /**
   * Cancels a booking and gives its rooms back, in one transaction holding its row; a
   * booking already cancelled is answered as it is. `charge` says what cancelling costs,
   * read under the lock. Null when the vendor has no such booking.
   */
  cancel(vendor: string, reference: string, now: Date, charge: (record: BookingRecord) => string): Promise<BookingRecord | null> {
    return this.dataSource.transaction(async (manager) => {
      const booking = await manager
        .getRepository(BookingEntity)
        .createQueryBuilder('b')
        .where('b.vendor = :vendor AND b.reference = :reference', { vendor, reference })
        .setLock('pessimistic_write')
        .getOne();
      if (!booking) return null;
      const rooms = await roomsOf(manager, reference);
      if (booking.status === 'CANCELLED') return { booking, rooms };
      const cancellationAmount = charge({ booking, rooms });
      await manager
        .getRepository(BookingEntity)
        .createQueryBuilder()
        .update()
        .set({ status: 'CANCELLED', cancellationAmount, cancelledAt: now, modifiedAt: now, confirmAfter: null })
        .where('reference = :reference', { reference })
        .execute();
      for (const room of rooms) {
        await manager
          .getRepository(AllotmentEntity)
          .createQueryBuilder()
          .update()
          .set({ roomsSold: () => 'rooms_sold - :rooms' })
          .where('vendor = :vendor AND hotel_code = :hotelCode AND room_id = :roomId', { vendor, hotelCode: booking.hotelCode, roomId: room.roomId })
          .andWhere('night >= CAST(:checkIn AS date) AND night < CAST(:checkOut AS date)', { checkIn: booking.checkIn, checkOut: booking.checkOut })
          .setParameter('rooms', room.rooms)
          .execute();
      }
      return { booking: { ...booking, status: 'CANCELLED', cancellationAmount, cancelledAt: now, modifiedAt: now, confirmAfter: null }, rooms };
    });
  }
}

function roomsOf(manager: EntityManager, reference: string): Promise<BookingRoomEntity[]> {
  return manager.getRepository(BookingRoomEntity).find({ where: { reference }, order: ROOM_ORDER });
}

/**
 * Takes rooms of one type for every night of a stay in one statement: never more than
 * the allotment, whoever races. False when a night had not enough left: the caller's
 * transaction must then be rolled back, since the other nights were taken.
 */
async function takeRooms(manager: EntityManager, vendor: string, take: AllotmentTake): Promise<boolean> {
  if (take.rooms > take.capacity) return false;
  // Raw: TypeORM's orUpdate can only overwrite a column with EXCLUDED's value, not add to the stored count under a WHERE that keeps it within capacity.
  const rows = rowsOf(
    await manager.query(
      `INSERT INTO vendor_simulator.allotments (vendor, hotel_code, room_id, night, capacity, rooms_sold)
       SELECT $1, $2, $3, night, $5, $6 FROM unnest($4::date[]) AS night ORDER BY night
       ON CONFLICT (vendor, hotel_code, room_id, night)
       DO UPDATE SET rooms_sold = vendor_simulator.allotments.rooms_sold + EXCLUDED.rooms_sold
        WHERE vendor_simulator.allotments.rooms_sold + EXCLUDED.rooms_sold <= vendor_simulator.allotments.capacity
       RETURNING rooms_sold`,
      [vendor, take.hotelCode, take.roomId, take.nights, take.capacity, take.rooms],
    ),
  );
  return rows.length === take.nights.length;
}
