import { Column, Entity, PrimaryColumn } from 'typeorm';
import { SelfCreditPolicy } from '@hotel/contracts';

/**
 * The self-credit policy a new account starts with, by when its client was created
 * (table accounting.self_credit_defaults): a client created at or after `since` gets
 * `selfCredits` (the newest such row wins); one created before every row, `immediate`.
 * Written by migrations only, so that an account opened late (accounts open on first
 * use) still gets the policy of its client's day.
 */
@Entity({ schema: 'accounting', name: 'self_credit_defaults' })
export class SelfCreditDefaultEntity {
  @PrimaryColumn({ name: 'self_credits', type: 'text' })
  selfCredits: SelfCreditPolicy;

  @Column({ type: 'timestamptz' })
  since: Date;
}
