import { Column, CreateDateColumn, Entity, PrimaryGeneratedColumn } from 'typeorm';
import { EntryColumns } from './entry-columns';

export type EntryKind = 'manual' | 'booking_debit' | 'booking_refund' | 'card_charge' | 'card_payment';

/**
 * A ledger entry (table accounting.entries); money as exact decimal strings. The
 * ledger is append-only (a trigger refuses UPDATE and DELETE): corrections are new
 * entries. A booking's automatic entries (every kind but 'manual') exist once per
 * client, booking and kind (the unique index entries_once_per_booking).
 */
@Entity({ schema: 'accounting', name: 'entries' })
export class EntryEntity extends EntryColumns {
  @PrimaryGeneratedColumn()
  id: number;

  @Column({ name: 'client_id', type: 'integer' })
  clientId: number;

  @Column({ type: 'text', default: 'manual' })
  kind: EntryKind;

  @CreateDateColumn({ name: 'created_at', type: 'timestamptz' })
  createdAt: Date;

  /** Set once at insertion: entries never change. */
  @Column({ name: 'updated_at', type: 'timestamptz', default: () => 'now()' })
  updatedAt: Date;

  /** Never set (entries are not deleted); a plain column, not a soft-delete one, so reads do not filter on it. */
  @Column({ name: 'deleted_at', type: 'timestamptz', nullable: true })
  deletedAt: Date | null;
}
