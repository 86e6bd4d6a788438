import { Column, CreateDateColumn, Entity, PrimaryColumn } from 'typeorm';
import { AMOUNT_COLUMN } from '@hotel/platform';
import { HoldView } from '@hotel/contracts';

/**
 * An account booking's reserved price (table accounting.holds), one per client and
 * booking; money as exact decimal strings. Placed and captured by the PL/pgSQL
 * functions accounting.place_hold and accounting.capture_hold; released by
 * LedgerRepository.releaseHold.
 */
@Entity({ schema: 'accounting', name: 'holds' })
export class HoldEntity {
  @PrimaryColumn({ name: 'client_id', type: 'integer' })
  clientId: number;

  @PrimaryColumn({ name: 'booking_id', type: 'integer' })
  bookingId: number;

  @Column({ name: 'user_id', type: 'integer', nullable: true })
  userId: number | null;

  @Column({ type: 'numeric', precision: 15, scale: 3, transformer: AMOUNT_COLUMN })
  amount: string;

  @Column({ type: 'text' })
  status: HoldView['status'];

  /** The booking's debit entry, once captured. */
  @Column({ name: 'entry_id', type: 'integer', nullable: true })
  entryId: number | null;

  @CreateDateColumn({ name: 'created_at', type: 'timestamptz' })
  createdAt: Date;

  @Column({ name: 'updated_at', type: 'timestamptz', default: () => 'now()' })
  updatedAt: Date;
}
