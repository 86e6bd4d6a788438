import { Column, Entity, PrimaryColumn } from 'typeorm';
import { AMOUNT_COLUMN } from '@hotel/platform';
import type { Pax } from '@hotel/hotelbeds';

/** A cancellation policy as booked: amount (decimal string) from an instant. */
export interface BookedPolicy {
  amount: string;
  from: string;
}

/** One room entry of a booking (one rate key: `rooms` rooms of one type), vendor_simulator.booking_rooms. */
@Entity({ schema: 'vendor_simulator', name: 'booking_rooms' })
export class BookingRoomEntity {
  @PrimaryColumn({ type: 'text' })
  reference: string;

  /** 1-based, in the order of the booking request (the answer's room `id`). */
  @PrimaryColumn({ name: 'room_number', type: 'integer' })
  roomNumber: number;

  /** The catalog's room type. */
  @Column({ name: 'room_id', type: 'integer' })
  roomId: number;

  @Column({ type: 'text' })
  board: string;

  @Column({ type: 'boolean' })
  refundable: boolean;

  @Column({ name: 'member_rate', type: 'boolean' })
  memberRate: boolean;

  @Column({ type: 'integer' })
  rooms: number;

  @Column({ type: 'integer' })
  adults: number;

  @Column({ type: 'integer' })
  children: number;

  @Column({ name: 'children_ages', type: 'integer', array: true })
  childrenAges: number[];

  @Column({ type: 'numeric', precision: 14, scale: 2, transformer: AMOUNT_COLUMN })
  net: string;

  @Column({ name: 'cancellation_policies', type: 'jsonb' })
  cancellationPolicies: BookedPolicy[];

  @Column({ type: 'jsonb' })
  paxes: Pax[];

  @Column({ name: 'rate_key', type: 'text' })
  rateKey: string;
}
