import { Column, Entity, PrimaryColumn } from 'typeorm';
import { BookingEventType } from '@hotel/contracts';

/**
 * A booking event in the outbox (table booking.booking_events): written in the
 * transaction of the booking's status change, published by the relay, then
 * marked sent. `payload` is the message exactly as it goes on the stream.
 */
@Entity({ schema: 'booking', name: 'booking_events' })
export class BookingEventEntity {
  /** The event's id, and the stream message's id (Nats-Msg-Id): the stream drops a repeat. */
  @PrimaryColumn({ type: 'uuid' })
  id: string;

  @Column({ name: 'booking_id', type: 'integer' })
  bookingId: number;

  /** The booking's events counted from 1. */
  @Column({ type: 'integer' })
  sequence: number;

  @Column({ type: 'text' })
  type: BookingEventType;

  @Column({ name: 'client_id', type: 'integer' })
  clientId: number;

  @Column({ type: 'text' })
  payload: string;

  @Column({ name: 'created_at', type: 'timestamptz' })
  createdAt: Date;

  @Column({ name: 'sent_at', type: 'timestamptz', nullable: true })
  sentAt: Date | null;
}
