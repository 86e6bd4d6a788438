import { Column, Entity } from 'typeorm';
import { AMOUNT_COLUMN } from '@hotel/platform';

/** The sandbox card processor's charges (table booking.sandbox_card_charges), standing in for a processor's records. */
@Entity({ schema: 'booking', name: 'sandbox_card_charges' })
export class SandboxCardChargeEntity {
  @Column({ name: 'payment_key', type: 'text', primary: true })
  paymentKey: string;

  /** Null for a key closed before any charge: it can never charge afterwards. */
  @Column({ name: 'payment_id', type: 'text', nullable: true })
  paymentId: string | null;

  @Column({ type: 'numeric', precision: 15, scale: 3, nullable: true, transformer: AMOUNT_COLUMN })
  amount: string | null;

  @Column({ name: 'created_at', type: 'timestamptz' })
  createdAt: Date;
}

/** The sandbox card processor's refunds (table booking.sandbox_card_refunds). */
@Entity({ schema: 'booking', name: 'sandbox_card_refunds' })
export class SandboxCardRefundEntity {
  @Column({ name: 'refund_key', type: 'text', primary: true })
  refundKey: string;

  @Column({ name: 'payment_id', type: 'text' })
  paymentId: string;

  @Column({ type: 'numeric', precision: 15, scale: 3, transformer: AMOUNT_COLUMN })
  amount: string;

  @Column({ name: 'created_at', type: 'timestamptz' })
  createdAt: Date;
}
