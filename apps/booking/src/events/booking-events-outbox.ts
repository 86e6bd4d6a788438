import { Inject, Injectable } from '@nestjs/common';
import { randomUUID } from 'node:crypto';
import { InjectDataSource } from '@nestjs/typeorm';
import { DataSource, EntityManager } from 'typeorm';
import { BOOKING_EVENT_BY_STATUS, BookingEvent, BookingEventType } from '@hotel/contracts';
import { SERVICE_ENV } from '@hotel/platform';
import { BookingEnv } from '../booking.env';
import { bookingSnapshotOf } from '../bookings/booking-view';
import { BookingEntity } from '../bookings/booking.entity';
import { voucherUrl } from '../vouchers/voucher-links';
import { BookingEventEntity } from './booking-event.entity';

/** An event waiting in the outbox, as the relay publishes it. */
export interface UnsentEvent {
  id: string;
  type: BookingEventType;
  clientId: number;
  /** The exact bytes to publish (JSON). */
  payload: string;
  /** Its booking has a later event unsent: the next one, which this batch could not take before this one was sent. */
  later: boolean;
}

/**
 * The booking events' outbox (its data; the relay publishes). The writing half: the event of a status change is
 * written by the transaction that makes the change, so there is never a change
 * without its event nor an event without its change. The relay publishes it.
 */
@Injectable()
export class BookingEventsOutbox {
  private readonly listeners: (() => void)[] = [];

  constructor(
    @Inject(SERVICE_ENV) private readonly env: BookingEnv,
    @InjectDataSource() private readonly dataSource: DataSource,
  ) {}

  /**
   * Writes the event of the status change the caller's transaction just made to a
   * booking: `booking` is the row as that transaction left it (the caller's copy with
   * the change, which the step guard of the change makes the row's) and `sequence` its
   * `event_sequence` after the change, so the event holds the booking as of the change
   * without reading the row back.
   */
  async record(manager: EntityManager, booking: BookingEntity, sequence: number): Promise<void> {
    const event: BookingEvent = {
      type: BOOKING_EVENT_BY_STATUS[booking.status],
      timestamp: booking.updatedAt.toISOString(),
      sequence,
      booking: bookingSnapshotOf(booking, voucherUrl(this.env, booking.id)),
    };
    await manager
      .getRepository(BookingEventEntity)
      .createQueryBuilder()
      .insert()
      .values({ id: randomUUID(), bookingId: booking.id, sequence, type: event.type, clientId: booking.clientId, payload: JSON.stringify(event) })
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

  /**
   * One transaction of the relay: takes up to `limit` unsent events, each the earliest
   * unsent one of its booking (an event whose booking has an earlier one unsent waits
   * for it, even if another replica holds that one), lets `publish` send them, and
   * marks sent the ids it answers; the others stay for a later pass. How many were sent,
   * and the publishing failure if any.
   */
  async publishUnsent(
    limit: number,
    publish: (events: UnsentEvent[]) => Promise<{ published: string[]; failure?: unknown }>,
  ): Promise<{ sent: number; more: boolean; failure?: unknown }> {
    return this.dataSource.transaction(async (manager) => {
      // Raw SQL: "the earliest unsent event of each booking, skipping what another replica
      // holds" is a NOT EXISTS over the same table with FOR UPDATE OF ... SKIP LOCKED.
      const events: UnsentEvent[] = await manager.query(
        `SELECT e.id, e.type, e.client_id AS "clientId", e.payload,
                EXISTS (SELECT 1 FROM booking.booking_events n WHERE n.booking_id = e.booking_id AND n.sent_at IS NULL AND n.sequence > e.sequence) AS later
           FROM booking.booking_events e
          WHERE e.sent_at IS NULL
            AND NOT EXISTS (SELECT 1 FROM booking.booking_events p WHERE p.booking_id = e.booking_id AND p.sent_at IS NULL AND p.sequence < e.sequence)
          ORDER BY e.created_at, e.booking_id
          LIMIT $1
          FOR UPDATE OF e SKIP LOCKED`,
        [limit],
      );
      if (events.length === 0) return { sent: 0, more: false };
      const { published, failure } = await publish(events);
      if (published.length > 0) {
        await manager.getRepository(BookingEventEntity).createQueryBuilder().update().set({ sentAt: () => 'now()' }).where('id = ANY(:ids::uuid[])', { ids: published }).execute();
      }
      // More to take now: a full batch may have left some, and a booking's later event waited for this one.
      const more = published.length > 0 && (events.length === limit || events.some((event) => event.later));
      return { sent: published.length, more, ...(failure !== undefined && { failure }) };
    });
  }

  /** Deletes up to `batch` events sent over `days` days ago; how many. */
  async pruneSent(days: number, batch: number): Promise<number> {
    const events = this.dataSource.getRepository(BookingEventEntity);
    const old = events.createQueryBuilder('e').select('e.id').where('e.sentAt < now() - make_interval(days => :days)', { days }).limit(batch);
    const result = await events.createQueryBuilder().delete().where(`id IN (${old.getQuery()})`).setParameters(old.getParameters()).execute();
    return result.affected ?? 0;
  }
}
