import { Column, Entity, PrimaryColumn } from 'typeorm';
import { AMOUNT_COLUMN } from '@hotel/platform';

/** The vendor's booking statuses the simulator uses: PRECONFIRMED is accepted, not yet confirmed. */
export type VendorBookingStatus = 'PRECONFIRMED' | 'CONFIRMED' | 'CANCELLED';

/** A booking made with a simulated vendor (vendor_simulator.bookings); its rooms are BookingRoomEntity. */
@Entity({ schema: 'vendor_simulator', name: 'bookings' })
export class BookingEntity {
  /** The vendor's reference, `<office>-<number>` (101-1000001). */
  @PrimaryColumn({ type: 'text' })
  reference: string;

  @Column({ type: 'text' })
  vendor: string;

  /** As the vendor answers it: in upper case. */
  @Column({ name: 'client_reference', type: 'text' })
  clientReference: string;

  /** What makes two bookings with one client reference the same booking (see bookingFingerprint). */
  @Column({ name: 'rooms_fingerprint', type: 'text' })
  roomsFingerprint: string;

  @Column({ type: 'text' })
  status: VendorBookingStatus;

  @Column({ name: 'hotel_code', type: 'integer' })
  hotelCode: number;

  @Column({ name: 'country_code', type: 'text' })
  countryCode: string;

  @Column({ name: 'destination_code', type: 'text' })
  destinationCode: string;

  /** YYYY-MM-DD. */
  @Column({ name: 'check_in', type: 'date' })
  checkIn: string;

  @Column({ name: 'check_out', type: 'date' })
  checkOut: string;

  @Column({ name: 'holder_name', type: 'text' })
  holderName: string;

  @Column({ name: 'holder_surname', type: 'text' })
  holderSurname: string;

  @Column({ type: 'text', nullable: true })
  remark: string | null;

  @Column({ type: 'text' })
  currency: string;

  @Column({ name: 'payment_type', type: 'text' })
  paymentType: 'AT_WEB' | 'AT_HOTEL';

  @Column({ name: 'total_net', type: 'numeric', precision: 14, scale: 2, transformer: AMOUNT_COLUMN })
  totalNet: string;

  /** What cancelling cost; set once cancelled. */
  @Column({ name: 'cancellation_amount', type: 'numeric', precision: 14, scale: 2, nullable: true, transformer: AMOUNT_COLUMN })
  cancellationAmount: string | null;

  @Column({ name: 'creation_user', type: 'text' })
  creationUser: string;

  /** By the simulator's clock, as every time here. */
  @Column({ name: 'created_at', type: 'timestamptz' })
  createdAt: Date;

  @Column({ name: 'modified_at', type: 'timestamptz' })
  modifiedAt: Date;

  /** A PRECONFIRMED booking is confirmed from then on. */
  @Column({ name: 'confirm_after', type: 'timestamptz', nullable: true })
  confirmAfter: Date | null;

  @Column({ name: 'cancelled_at', type: 'timestamptz', nullable: true })
  cancelledAt: Date | null;
}
