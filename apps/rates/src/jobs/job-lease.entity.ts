import { Column, Entity, PrimaryColumn } from 'typeorm';

/** Who runs a timed job of the rates service now (table rates.job_leases): the replicas take the row in turn, so one runs it. */
@Entity({ schema: 'rates', name: 'job_leases' })
export class JobLeaseEntity {
  @PrimaryColumn({ type: 'text' })
  job: string;

  @Column({ name: 'taken_until', type: 'timestamptz' })
  takenUntil: Date;

  /** The replica that took it last (for the logs and whoever investigates). */
  @Column({ type: 'text' })
  holder: string;
}
