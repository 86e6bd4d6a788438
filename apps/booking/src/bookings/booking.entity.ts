import { Column, Entity, PrimaryColumn } from 'typeorm';
import { AMOUNT_COLUMN, DECIMAL_COLUMN } from '@hotel/platform';
import { BookingRoom, BookingStatus, HotelDetails, HotelRate, OfferKeyWire, PaymentMethod, TestScenario } from '@hotel/contracts';
import type { PaymentProcessorName } from '../payments/payment-processor';

/**
 * A booking's saga, step by step. Booking: created → (charging →) funds_held →
 * (supplier_pending →) supplier_booked → promo_redeemed → done, or on a failure
 * compensating → failed. Cancellation of a done booking: cancelling (penalty
 * fixed) → refunding → cancelled. done, failed and cancelled are final.
 */
export type SagaStep =
  | 'created'
  | 'charging'
  | 'funds_held'
  | 'supplier_pending'
  | 'supplier_booked'
  | 'promo_redeemed'
  | 'done'
  | 'compensating'
  | 'failed'
  | 'cancelling'
  | 'refunding'
  | 'cancelled';

export const FINAL_STEPS: readonly SagaStep[] = ['done', 'failed', 'cancelled'];
export const CANCELLATION_STEPS: readonly SagaStep[] = ['cancelling', 'refunding', 'cancelled'];

/**
 * A booking and the state of its saga (table booking.bookings). Money as exact
 * decimal strings, dates as YYYY-MM-DD. The lease and expiry columns are the
 * repository's bookkeeping and are never loaded (`select: false`).
 */
@Entity({ schema: 'booking', name: 'bookings' })
export class BookingEntity {
  /** From the serial's sequence (booking.bookings_id_seq): the repository takes it before the insert. */
  @PrimaryColumn({ type: 'integer' })
  id: number;

  @Column({ name: 'client_id', type: 'integer' })
  clientId: number;

  @Column({ name: 'user_id', type: 'integer', nullable: true })
  userId: number | null;

  @Column({ type: 'boolean' })
  sandbox: boolean;

  @Column({ type: 'text' })
  status: BookingStatus;

  @Column({ type: 'text' })
  step: SagaStep;

  /** Until when one worker owns the saga; another may take it over after. */
  @Column({ name: 'lease_until', type: 'timestamptz', select: false })
  leaseUntil?: Date;

  /** The worker (WorkerLiveness.instance) that holds the lease; null when nobody does (a scheduled supplier check). */
  @Column({ name: 'lease_holder', type: 'text', nullable: true, select: false })
  leaseHolder?: string | null;

  /** Times a pending vendor booking has been asked about (the next check waits by it: supplier-checks.ts). */
  @Column({ name: 'supplier_checks', type: 'integer', default: 0, select: false })
  supplierChecks?: number;

  @Column({ name: 'prebook_id', type: 'uuid' })
  prebookId: string;

  @Column({ type: 'jsonb' })
  offer: OfferKeyWire;

  @Column({ name: 'payment_method', type: 'text' })
  paymentMethod: PaymentMethod;

  @Column({ name: 'hotel_id', type: 'integer' })
  hotelId: number;

  @Column({ name: 'hotel_name', type: 'text' })
  hotelName: string;

  @Column({ name: 'check_in', type: 'date' })
  checkIn: string;

  @Column({ name: 'check_out', type: 'date' })
  checkOut: string;

  @Column({ name: 'first_name', type: 'text' })
  firstName: string;

  @Column({ name: 'last_name', type: 'text' })
  lastName: string;

  @Column({ type: 'text' })
  email: string;

  @Column({ type: 'text' })
  phone: string;

  @Column({ name: 'price_chargeable', type: 'numeric', precision: 15, scale: 3, transformer: AMOUNT_COLUMN })
  priceChargeable: string;

  @Column({ name: 'price_currency', type: 'char', length: 3 })
  priceCurrency: string;

  /** How the price came to be in the client's currency (BookingFx), fixed at prebook. */
  @Column({ name: 'vendor_currency', type: 'char', length: 3 })
  vendorCurrency: string;

  @Column({ name: 'vendor_price', type: 'numeric', precision: 15, scale: 3, transformer: AMOUNT_COLUMN })
  vendorPrice: string;

  @Column({ name: 'fx_rate', type: 'numeric', transformer: DECIMAL_COLUMN })
  fxRate: string;

  @Column({ name: 'fx_rate_date', type: 'date', nullable: true })
  fxRateDate: string | null;

  @Column({ name: 'fx_margin_percent', type: 'numeric', precision: 5, scale: 2, transformer: DECIMAL_COLUMN })
  fxMarginPercent: string;

  @Column({ type: 'jsonb' })
  rate: HotelRate;

  @Column({ type: 'jsonb' })
  hotel: HotelDetails;

  @Column({ type: 'jsonb' })
  rooms: BookingRoom[];

  @Column({ type: 'text' })
  language: string;

  @Column({ name: 'loyalty_number', type: 'text', nullable: true })
  loyaltyNumber: string | null;

  @Column({ name: 'special_request', type: 'text', nullable: true })
  specialRequest: string | null;

  @Column({ type: 'text' })
  remarks: string;

  @Column({ name: 'client_reference', type: 'text', nullable: true })
  clientReference: string | null;

  @Column({ name: 'idempotency_key', type: 'text', nullable: true })
  idempotencyKey: string | null;

  /** An idempotency key is kept for a while (IDEMPOTENCY_HOURS); afterwards it is free again. */
  @Column({ name: 'idempotency_expires_at', type: 'timestamptz', nullable: true, select: false })
  idempotencyExpiresAt?: Date | null;

  /** A hash of the request, so a repeat of a key with another body is told apart. */
  @Column({ name: 'request_fingerprint', type: 'text' })
  requestFingerprint: string;

  @Column({ name: 'promo_code', type: 'text', nullable: true })
  promoCode: string | null;

  @Column({ name: 'promo_discount', type: 'numeric', precision: 15, scale: 3, transformer: AMOUNT_COLUMN })
  promoDiscount: string;

  @Column({ name: 'test_scenario', type: 'text', nullable: true })
  testScenario: TestScenario | null;

  @Column({ name: 'cc_payment_id', type: 'text', nullable: true })
  ccPaymentId: string | null;

  /** The card payment's idempotency key, recorded before the card is charged. */
  @Column({ name: 'payment_key', type: 'text', nullable: true })
  paymentKey: string | null;

  /** The card processor that holds the payment, recorded with its key: its refunds go there. */
  @Column({ name: 'payment_processor', type: 'text', nullable: true })
  paymentProcessor: PaymentProcessorName | null;

  @Column({ name: 'supplier_reference', type: 'text', nullable: true })
  supplierReference: string | null;

  @Column({ name: 'booking_reference', type: 'text', array: true })
  bookingReference: string[];

  @Column({ name: 'failure_code', type: 'text', nullable: true })
  failureCode: string | null;

  @Column({ name: 'failure_reason', type: 'text', nullable: true })
  failureReason: string | null;

  @Column({ name: 'cancellation_reference', type: 'text', nullable: true })
  cancellationReference: string | null;

  @Column({ name: 'cancellation_penalty', type: 'numeric', precision: 15, scale: 3, nullable: true, transformer: AMOUNT_COLUMN })
  cancellationPenalty: string | null;

  @Column({ name: 'cancelled_at', type: 'timestamptz', nullable: true })
  cancelledAt: Date | null;

  /** Bookings made before prebooks were single-use, which may share one (excluded from that rule). */
  @Column({ name: 'legacy_prebook_reuse', type: 'boolean', select: false })
  legacyPrebookReuse?: boolean;

  /** How many events the booking has (one per status change): the sequence of its latest (the outbox's bookkeeping). */
  @Column({ name: 'event_sequence', type: 'integer', select: false })
  eventSequence?: number;

  /** The booking API's Booking, serialized with slots for its link and updated_at (see stored-views.ts); null until first rendered. */
  @Column({ name: 'api_view', type: 'text', nullable: true, select: false })
  apiView?: string | null;

  /** The backend API's BackendBooking, serialized (see stored-views.ts); null until first rendered. */
  @Column({ name: 'backend_view', type: 'text', nullable: true, select: false })
  backendView?: string | null;

  /**
   * The `updated_at` the stored representations are those of: equal to it while they are
   * current. A move that changes nothing they show keeps them current; a change made
   * without them (a replica of an earlier version, a manual fix) leaves them behind, and
   * the next read renders them again.
   */
  @Column({ name: 'views_at', type: 'timestamptz', nullable: true, select: false })
  viewsAt?: Date | null;

  @Column({ name: 'created_at', type: 'timestamptz' })
  createdAt: Date;

  @Column({ name: 'updated_at', type: 'timestamptz' })
  updatedAt: Date;
}
