import { Column } from 'typeorm';
import { AMOUNT_COLUMN } from '@hotel/platform';

/**
 * What an entry says, as the backend API posts it: the columns a ledger entry and a
 * credit request (an entry waiting for the finance team) share. Money as exact
 * decimal strings.
 */
export abstract class EntryColumns {
  @Column({ type: 'numeric', precision: 15, scale: 3, transformer: AMOUNT_COLUMN })
  debit: string;

  @Column({ type: 'numeric', precision: 15, scale: 3, transformer: AMOUNT_COLUMN })
  credit: string;

  @Column({ type: 'text' })
  name: string;

  @Column({ name: 'booking_id', type: 'integer', nullable: true })
  bookingId: number | null;

  @Column({ name: 'cc_payment_id', type: 'text', nullable: true })
  ccPaymentId: string | null;

  @Column({ name: 'user_id', type: 'integer', nullable: true })
  userId: number | null;

  @Column({ name: 'bank_payment_id', type: 'integer', nullable: true })
  bankPaymentId: number | null;
}
