import { Column, Entity, PrimaryGeneratedColumn } from 'typeorm';
import type { VendorDifference, VendorReconciliationTrigger } from '@hotel/contracts';

/** One reconciliation run with one remote vendor over a period (table rates.vendor_reconciliations). */
@Entity({ schema: 'rates', name: 'vendor_reconciliations' })
export class VendorReconciliationEntity {
  @PrimaryGeneratedColumn()
  id: number;

  @Column({ type: 'text' })
  vendor: string;

  /** YYYY-MM-DD, UTC, both ends included. */
  @Column({ name: 'period_start', type: 'date' })
  periodStart: string;

  @Column({ name: 'period_end', type: 'date' })
  periodEnd: string;

  @Column({ name: 'ran_at', type: 'timestamptz', default: () => 'now()' })
  ranAt: Date;

  @Column({ type: 'text' })
  trigger: VendorReconciliationTrigger;

  @Column({ name: 'platform_bookings', type: 'integer' })
  platformBookings: number;

  @Column({ name: 'vendor_bookings', type: 'integer' })
  vendorBookings: number;

  @Column({ name: 'missing_at_vendor', type: 'integer' })
  missingAtVendor: number;

  @Column({ name: 'unknown_to_platform', type: 'integer' })
  unknownToPlatform: number;

  @Column({ name: 'status_mismatch', type: 'integer' })
  statusMismatch: number;

  /** The first differences found (the counts count every one). */
  @Column({ type: 'jsonb' })
  differences: VendorDifference[];
}
