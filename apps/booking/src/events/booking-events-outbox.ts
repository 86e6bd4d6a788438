import { Inject, Injectable } from '@nestjs/common';
import { randomUUID } from 'node:crypto';
import { EntityManager } from 'typeorm';
import { BOOKING_EVENT_BY_STATUS, BookingEvent } from '@hotel/contracts';
import { SERVICE_ENV } from '@hotel/platform';
import { BookingEnv } from '../booking.env';
import { toBookingView } from '../bookings/booking-view';
import { BookingEntity } from '../bookings/booking.entity';
import { voucherUrl } from '../vouchers/voucher-links';
import { BookingEventEntity } from './booking-event.entity';

/**
 * The writing half of the booking events' outbox: the event of a status change is
 * written by the transaction that makes the change, so there is never a change
 * without its event nor an event without its change. The relay publishes it.
 */
@Injectable()
export class BookingEventsOutbox {
  private readonly listeners: (() => void)[] = [];

  constructor(@Inject(SERVICE_ENV) private readonly env: BookingEnv) {}

  /**
   * Writes the event of the status change the caller's transaction just made to a
   * booking (its status and `event_sequence` already updated): the Booking read back
   * in that transaction, so `data` is what GET /book answers as of the change.
   */
  async record(manager: EntityManager, bookingId: number): Promise<void> {
    const row = await manager.getRepository(BookingEntity).createQueryBuilder('b').addSelect('b.eventSequence').where('b.id = :id', { id: bookingId }).getOne();
    if (!row?.eventSequence) throw new Error(`booking ${bookingId}: no status change to record`);
    const event: BookingEvent = {
      type: BOOKING_EVENT_BY_STATUS[row.status],
      timestamp: row.updatedAt.toISOString(),
      sequence: row.eventSequence,
      data: toBookingView(row, voucherUrl(this.env, row.id)),
    };
    await manager
      .getRepository(BookingEventEntity)
      .createQueryBuilder()
      .insert()
      .values({ id: randomUUID(), bookingId, sequence: event.sequence, type: event.type, clientId: row.clientId, payload: JSON.stringify(event) })
      .updateEntity(false)
      .execute();
  }

  /** Called once a transaction with an event has committed: the relay publishes it now rather than at its next pass. */
  committed(): void {
    for (const listener of this.listeners) listener();
  }

  onCommitted(listener: () => void): void {
    this.listeners.push(listener);
  }
}
