import { Column, Entity, PrimaryColumn } from 'typeorm';

/** The one row (table rates.fx_refresh_lease) the replicas take in turn before fetching the ECB's file: one fetch per interval, not one per replica. */
@Entity({ schema: 'rates', name: 'fx_refresh_lease' })
export class FxRefreshLeaseEntity {
  @PrimaryColumn({ type: 'smallint' })
  id: number;

  @Column({ name: 'taken_until', type: 'timestamptz', nullable: true })
  takenUntil: Date | null;

  /** The replica that took it last (for the logs and whoever investigates). */
  @Column({ type: 'text', nullable: true })
  holder: string | null;
}
