import { Column, CreateDateColumn, Entity, PrimaryColumn } from 'typeorm';
import { AMOUNT_COLUMN, DECIMAL_COLUMN } from '@hotel/platform';
import { OfferKeyWire, PaymentMethod, PrebookData } from '@hotel/contracts';

/**
 * A validated rate with the price it was confirmed at (table rates.prebooks), which
 * book relies on until it expires; money as exact decimal strings.
 */
@Entity({ schema: 'rates', name: 'prebooks' })
export class PrebookEntity {
  @PrimaryColumn({ type: 'uuid' })
  id: string;

  @Column({ name: 'client_id', type: 'integer' })
  clientId: number;

  @Column({ name: 'user_id', type: 'integer', nullable: true })
  userId: number | null;

  @Column({ type: 'boolean' })
  sandbox: boolean;

  /** The V1 search session the rate came from (null for a V2 rate id). */
  @Column({ name: 'session_id', type: 'uuid', nullable: true })
  sessionId: string | null;

  @Column({ name: 'hotel_id', type: 'integer' })
  hotelId: number;

  @Column({ name: 'rate_id', type: 'text' })
  rateId: string;

  @Column({ name: 'payment_method', type: 'text' })
  paymentMethod: PaymentMethod;

  @Column({ type: 'jsonb' })
  offer: OfferKeyWire;

  /** The prebook's answer as the client received it. */
  @Column({ type: 'jsonb' })
  response: PrebookData;

  @Column({ name: 'price_chargeable', type: 'numeric', precision: 15, scale: 3, transformer: AMOUNT_COLUMN })
  priceChargeable: string;

  @Column({ name: 'promo_code', type: 'text', nullable: true })
  promoCode: string | null;

  @Column({ type: 'numeric', precision: 15, scale: 3, default: 0, transformer: AMOUNT_COLUMN })
  discount: string;

  /** How the price came to be in the client's currency (BookingFx); null on prebooks made before currencies were priced. */
  @Column({ name: 'vendor_currency', type: 'char', length: 3, nullable: true })
  vendorCurrency: string | null;

  @Column({ name: 'vendor_price', type: 'numeric', precision: 15, scale: 3, nullable: true, transformer: AMOUNT_COLUMN })
  vendorPrice: string | null;

  @Column({ name: 'fx_rate', type: 'numeric', nullable: true, transformer: DECIMAL_COLUMN })
  fxRate: string | null;

  @Column({ name: 'fx_rate_date', type: 'date', nullable: true })
  fxRateDate: string | null;

  @Column({ name: 'fx_margin_percent', type: 'numeric', precision: 5, scale: 2, nullable: true, transformer: DECIMAL_COLUMN })
  fxMarginPercent: string | null;

  @Column({ name: 'expires_at', type: 'timestamptz' })
  expiresAt: Date;

  @Column({ name: 'booking_id', type: 'integer', nullable: true })
  bookingId: number | null;

  /** True while the booking made from this prebook is under way (is_booking_processing). */
  @Column({ name: 'booking_processing', type: 'boolean', default: false })
  bookingProcessing: boolean;

  @CreateDateColumn({ name: 'created_at', type: 'timestamptz' })
  createdAt: Date;
}
