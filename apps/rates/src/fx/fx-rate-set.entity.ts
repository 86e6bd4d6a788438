import { Column, Entity, PrimaryColumn } from 'typeorm';

/** One day's ECB reference rates as the platform took them in (table rates.fx_rate_sets); the rates are FxRateEntity rows. */
@Entity({ schema: 'rates', name: 'fx_rate_sets' })
export class FxRateSetEntity {
  /** The ECB's reference date (YYYY-MM-DD): one set per date. */
  @PrimaryColumn({ name: 'reference_date', type: 'date' })
  referenceDate: string;

  /** `snapshot`, `file:<name>` or the URL it was fetched from. */
  @Column({ type: 'text' })
  source: string;

  @Column({ name: 'imported_at', type: 'timestamptz', default: () => 'now()' })
  importedAt: Date;
}
