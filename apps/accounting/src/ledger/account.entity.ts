import { Column, CreateDateColumn, Entity, PrimaryColumn } from 'typeorm';
import { AMOUNT_COLUMN } from '@hotel/platform';
import { SelfCreditPolicy } from '@hotel/contracts';

/**
 * A client's account (table accounting.accounts): its credit terms and running
 * totals, so the balance and a funds check cost one row. Money as exact decimal
 * strings. Every change to the client's money locks this row first.
 */
@Entity({ schema: 'accounting', name: 'accounts' })
export class AccountEntity {
  @PrimaryColumn({ name: 'client_id', type: 'integer' })
  clientId: number;

  @Column({ type: 'char', length: 3 })
  currency: string;

  @Column({ name: 'credit_limit', type: 'numeric', precision: 15, scale: 3, transformer: AMOUNT_COLUMN })
  creditLimit: string;

  @Column({ name: 'total_debit', type: 'numeric', default: 0, transformer: AMOUNT_COLUMN })
  totalDebit: string;

  @Column({ name: 'total_credit', type: 'numeric', default: 0, transformer: AMOUNT_COLUMN })
  totalCredit: string;

  /** What the active holds reserve. */
  @Column({ name: 'total_held', type: 'numeric', default: 0, transformer: AMOUNT_COLUMN })
  totalHeld: string;

  /**
   * Whether a credit the client's own backend token posts waits for the finance team
   * (pending) or is booked at once; set when the account opens (see SelfCreditDefaultEntity).
   */
  @Column({ name: 'self_credits', type: 'text', default: 'pending' })
  selfCredits: SelfCreditPolicy;

  @Column({ name: 'entry_count', type: 'integer', default: 0 })
  entryCount: number;

  @CreateDateColumn({ name: 'created_at', type: 'timestamptz' })
  createdAt: Date;

  @Column({ name: 'updated_at', type: 'timestamptz', default: () => 'now()' })
  updatedAt: Date;
}
