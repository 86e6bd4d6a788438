import { Column, CreateDateColumn, Entity, PrimaryGeneratedColumn } from 'typeorm';
import { CreditRequestStatus } from '@hotel/contracts';
import { EntryColumns } from './entry-columns';

/**
 * A credit a client's own backend token posted under the `pending` credit policy
 * (table accounting.credit_requests): it moves no money until the finance team
 * confirms it, which appends its entry once (entry_id), or rejects it.
 */
@Entity({ schema: 'accounting', name: 'credit_requests' })
export class CreditRequestEntity extends EntryColumns {
  @PrimaryGeneratedColumn()
  id: number;

  @Column({ name: 'client_id', type: 'integer' })
  clientId: number;

  @Column({ type: 'text', default: 'pending' })
  status: CreditRequestStatus;

  @Column({ name: 'entry_id', type: 'integer', nullable: true })
  entryId: number | null;

  @CreateDateColumn({ name: 'created_at', type: 'timestamptz' })
  createdAt: Date;

  @Column({ name: 'decided_at', type: 'timestamptz', nullable: true })
  decidedAt: Date | null;
}
