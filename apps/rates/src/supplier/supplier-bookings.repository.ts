import { Injectable } from '@nestjs/common';
import { InjectDataSource } from '@nestjs/typeorm';
import { DataSource, EntityManager } from 'typeorm';
import { CancellationCharge, SupplierBooking } from '@hotel/contracts';
import { SupplierBookingEntity } from './supplier-booking.entity';

/** A supplier booking recorded before its vendor is called (`requested`). */
export interface RequestedSupplierBooking {
  bookingId: number;
  vendor: string;
  hotelId: number;
  roomId: number;
  checkIn: string;
  checkOut: string;
  rooms: number;
  sandbox: boolean;
}

/** A vendor's answer that made a booking. */
export interface SupplierAnswer {
  reference: string;
  status: 'pending' | 'confirmed';
}

/** A supplier booking as recorded: the rooms it took, and the vendor's last answer (`createdAt`: when it was accepted). */
export type SupplierBookingRecord = Pick<
  SupplierBookingEntity,
  | 'bookingId'
  | 'vendor'
  | 'hotelId'
  | 'roomId'
  | 'checkIn'
  | 'checkOut'
  | 'rooms'
  | 'reference'
  | 'status'
  | 'sandbox'
  | 'createdAt'
  | 'attemptUntil'
  | 'cancellationCharge'
  | 'cancellationCurrency'
>;

/** The query of one booking's record. */
function recordQuery(manager: EntityManager, bookingId: number) {
  return manager
    .getRepository(SupplierBookingEntity)
    .createQueryBuilder('b')
    .select([
      'b.bookingId',
      'b.vendor',
      'b.hotelId',
      'b.roomId',
      'b.checkIn',
      'b.checkOut',
      'b.rooms',
      'b.reference',
      'b.status',
      'b.sandbox',
      'b.createdAt',
      'b.attemptUntil',
      'b.cancellationCharge',
      'b.cancellationCurrency',
    ])
    .where('b.bookingId = :bookingId', { bookingId });
}

/**
 * The statements a booking runs inside the transaction SupplierBookingsRepository
 * opened for it (see `inBookingLock`, `inTransaction`). The transaction stays private: callers get
 * these operations, never the manager.
 */
export class SupplierBookingTransaction {
  constructor(private readonly manager: EntityManager) {}

  /** A booking's record with whether an attempt still has its vendor call in hand (by the database's clock). */
  async find(bookingId: number): Promise<(SupplierBookingRecord & { attemptUnderWay: boolean }) | null> {
    const { entities, raw } = await recordQuery(this.manager, bookingId)
      .addSelect('coalesce(b.attemptUntil > now(), false)', 'under_way')
      .getRawAndEntities<{ under_way: boolean }>();
    return entities[0] ? { ...entities[0], attemptUnderWay: raw[0].under_way } : null;
  }

  /** Records a booking before its vendor is called; this attempt has the call in hand for `attemptSeconds`. */
  async insertRequested(booking: RequestedSupplierBooking, attemptSeconds: number): Promise<void> {
    await this.manager
      .createQueryBuilder()
      .insert()
      .into(SupplierBookingEntity)
      .values({ ...booking, reference: null, status: 'requested', attemptUntil: () => 'now() + make_interval(secs => :attemptSeconds)' })
      .setParameter('attemptSeconds', attemptSeconds)
      .updateEntity(false)
      .execute();
  }

  /** Takes a requested booking whose last attempt ran out over for a new one. */
  async renewAttempt(bookingId: number, attemptSeconds: number): Promise<void> {
    await this.manager
      .getRepository(SupplierBookingEntity)
      .createQueryBuilder()
      .update()
      .set({ attemptUntil: () => 'now() + make_interval(secs => :attemptSeconds)', updatedAt: () => 'now()' })
      .setParameter('attemptSeconds', attemptSeconds)
      .where('booking_id = :bookingId', { bookingId })
      .execute();
  }

  /** Forgets a requested booking its vendor refused. */
  async deleteRequested(bookingId: number): Promise<void> {
    await this.manager.getRepository(SupplierBookingEntity).createQueryBuilder().delete().where(`booking_id = :bookingId AND status = 'requested'`, { bookingId }).execute();
  }

  /** A booking's record, its row held until the transaction ends; null when there is no such booking. */
  async lock(bookingId: number): Promise<SupplierBookingRecord | null> {
    return recordQuery(this.manager, bookingId).setLock('pessimistic_write').getOne();
  }

  /** Cancelled, with what the vendor said cancelling cost when it said. */
  async markCancelled(bookingId: number, charge?: CancellationCharge): Promise<void> {
    await this.manager
      .getRepository(SupplierBookingEntity)
      .createQueryBuilder()
      .update()
      .set({ status: 'cancelled', updatedAt: () => 'now()', ...(charge && { cancellationCharge: charge.amount, cancellationCurrency: charge.currency }) })
      .where('booking_id = :bookingId', { bookingId })
      .execute();
  }
}

/**
 * The platform's record of its supplier bookings (`rates.supplier_bookings`: one per
 * platform booking, with the vendor's reference and last answer).
 */
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
      // Raw: a lock function call on no table, and TypeORM's builder cannot build a SELECT without FROM.
      await manager.query(`SELECT pg_advisory_xact_lock(hashtext('supplier-booking'), $1)`, [bookingId]);
      return work(new SupplierBookingTransaction(manager));
    });
  }

  /** Runs `work` in one transaction (rows it locks stay held until the end). All or nothing. */
  inTransaction<T>(work: (booking: SupplierBookingTransaction) => Promise<T>): Promise<T> {
    return this.dataSource.transaction((manager) => work(new SupplierBookingTransaction(manager)));
  }

  /** A booking's record; null when there is no such booking. */
  async find(bookingId: number): Promise<SupplierBookingRecord | null> {
    return recordQuery(this.dataSource.manager, bookingId).getOne();
  }

  /** Records the vendor's answer of a requested booking; false when it was answered meanwhile (and stays as answered). */
  async recordAnswer(bookingId: number, answer: SupplierAnswer): Promise<boolean> {
    // One statement, no transaction of its own: nothing else changes with it.
    const updated = await this.dataSource.manager
      .getRepository(SupplierBookingEntity)
      .createQueryBuilder()
      .update()
      .set({ reference: answer.reference, status: answer.status, attemptUntil: null, updatedAt: () => 'now()' })
      .where(`booking_id = :bookingId AND status = 'requested'`, { bookingId })
      .execute();
    return updated.affected === 1;
  }

  /**
   * Records that the vendor confirmed a pending booking (one cancelled meanwhile
   * stays cancelled); where it then stands, or null when there is no such booking.
   */
  async confirm(bookingId: number): Promise<SupplierBooking | null> {
    const updated = await this.dataSource
      .getRepository(SupplierBookingEntity)
      .createQueryBuilder()
      .update()
      .set({ status: () => `CASE WHEN status = 'pending' THEN 'confirmed' ELSE status END`, updatedAt: () => 'now()' })
      .where('booking_id = :bookingId', { bookingId })
      .returning(['reference', 'status'])
      .execute();
    // Only a pending booking is confirmed here: an answered one, with its reference.
    const rows = updated.raw as { reference: string; status: SupplierBooking['status'] }[];
    return rows[0] ? { reference: rows[0].reference, status: rows[0].status } : null;
  }
}
