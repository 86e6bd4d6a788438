import { Column, Entity, PrimaryColumn } from 'typeorm';

/** One currency's rate in a set (table rates.fx_rates): units per euro, an exact decimal string as the ECB wrote it. */
@Entity({ schema: 'rates', name: 'fx_rates' })
export class FxRateEntity {
  @PrimaryColumn({ name: 'reference_date', type: 'date' })
  referenceDate: string;

  @PrimaryColumn({ type: 'char', length: 3 })
  currency: string;

  /** numeric without a scale: read back exactly as written ("349.60"), never through a float. */
  @Column({ type: 'numeric' })
  rate: string;
}
