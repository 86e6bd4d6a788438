import { Column, CreateDateColumn, Entity, PrimaryColumn } from 'typeorm';
import { AMOUNT_COLUMN } from '@hotel/platform';

/** `requested`: recorded before the vendor was called, its answer not (yet) known. */
export type SupplierBookingStatus = 'requested' | 'pending' | 'confirmed' | 'cancelled';

/** A booking made with a vendor (table rates.supplier_bookings): one per platform booking, with the vendor's last answer. */
@Entity({ schema: 'rates', name: 'supplier_bookings' })
export class SupplierBookingEntity {
  /** The platform booking's id. */
  @PrimaryColumn({ name: 'booking_id', type: 'integer' })
  bookingId: number;

  @Column({ type: 'text' })
  vendor: string;

  @Column({ name: 'hotel_id', type: 'integer' })
  hotelId: number;

  @Column({ name: 'room_id', type: 'integer' })
  roomId: number;

  /** YYYY-MM-DD. */
  @Column({ name: 'check_in', type: 'date' })
  checkIn: string;

  /** YYYY-MM-DD. */
  @Column({ name: 'check_out', type: 'date' })
  checkOut: string;

  @Column({ type: 'integer' })
  rooms: number;

  /** The vendor's reference; null while `requested`. */
  @Column({ type: 'text', unique: true, nullable: true })
  reference: string | null;

  @Column({ type: 'text' })
  status: SupplierBookingStatus;

  /**
   * When a pending booking was due to be confirmed, as the rates service simulated
   * it before vendors answered through the SupplierPort; no longer written (the
   * vendor says, see SupplierPort.status).
   */
  @Column({ name: 'confirm_after', type: 'timestamptz', nullable: true })
  confirmAfter: Date | null;

  /** When the vendor accepted the booking. */
  @CreateDateColumn({ name: 'created_at', type: 'timestamptz' })
  createdAt: Date;

  @Column({ name: 'updated_at', type: 'timestamptz', default: () => 'now()' })
  updatedAt: Date;

  /** While set and to come, one attempt has the vendor call in hand; others wait. */
  @Column({ name: 'attempt_until', type: 'timestamptz', nullable: true })
  attemptUntil: Date | null;

  /** A sandbox booking took no room from the allotment. */
  @Column({ type: 'boolean', default: false })
  sandbox: boolean;

  /** What the vendor said cancelling cost, in `cancellationCurrency` (none from a vendor that does not say). */
  @Column({ name: 'cancellation_charge', type: 'numeric', precision: 15, scale: 3, nullable: true, transformer: AMOUNT_COLUMN })
  cancellationCharge: string | null;

  @Column({ name: 'cancellation_currency', type: 'char', length: 3, nullable: true })
  cancellationCurrency: string | null;
}
