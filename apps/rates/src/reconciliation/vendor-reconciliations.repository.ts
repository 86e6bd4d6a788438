import { Injectable } from '@nestjs/common';
import { InjectDataSource } from '@nestjs/typeorm';
import { Brackets, DataSource } from 'typeorm';
import { parseDay } from '@hotel/contracts';
import { getPage } from '@hotel/platform';
import { SupplierBookingEntity } from '../supplier/supplier-booking.entity';
import { PlatformRecord } from './vendor-differences';
import { VendorReconciliationEntity } from './vendor-reconciliation.entity';

const DAY_MS = 86_400_000;

/** A run's result as it is kept (the id and time are the table's). */
export type NewVendorReconciliation = Omit<VendorReconciliationEntity, 'id' | 'ranAt'>;

/**
 * The reconciliation's data: the platform's supplier bookings with a vendor (read only:
 * `rates.supplier_bookings` belongs to the booking flow) and the runs' results
 * (`rates.vendor_reconciliations`).
 */
@Injectable()
export class VendorReconciliationsRepository {
  constructor(@InjectDataSource() private readonly dataSource: DataSource) {}

  /** The vendor's bookings the platform recorded from `from` to `to` (UTC days, both included), sandbox ones left out: pending, confirmed or cancelled. */
  async platformBookings(vendor: string, from: string, to: string): Promise<PlatformRecord[]> {
    return this.records(vendor)
      .andWhere(`b.status IN ('pending', 'confirmed', 'cancelled')`)
      .andWhere('b.createdAt >= :start AND b.createdAt < :end', { start: parseDay(from), end: new Date(parseDay(to)!.getTime() + DAY_MS) })
      .orderBy('b.bookingId')
      .getMany();
  }

  /** The vendor's records (any day, any status, sandbox ones left out) with one of these references or booking ids. */
  async recordsOf(vendor: string, references: string[], bookingIds: number[]): Promise<PlatformRecord[]> {
    if (references.length === 0 && bookingIds.length === 0) return [];
    return this.records(vendor)
      .andWhere(
        new Brackets((either) =>
          either.where('b.reference = ANY(CAST(:references AS text[]))', { references }).orWhere('b.bookingId = ANY(CAST(:bookingIds AS int[]))', { bookingIds }),
        ),
      )
      .getMany();
  }

  /** Keeps a run's result; its id and time. */
  async insert(run: NewVendorReconciliation): Promise<Pick<VendorReconciliationEntity, 'id' | 'ranAt'>> {
    const inserted = await this.dataSource.getRepository(VendorReconciliationEntity).createQueryBuilder().insert().values(run).returning(['id', 'ran_at']).execute();
    const [row] = inserted.raw as { id: number; ran_at: Date }[];
    return { id: row.id, ranAt: row.ran_at };
  }

  /** Of these vendors, the ones with a run over exactly this day. */
  async reconciledOn(vendors: readonly string[], day: string): Promise<string[]> {
    const rows = await this.dataSource
      .getRepository(VendorReconciliationEntity)
      .createQueryBuilder('r')
      .select('DISTINCT r.vendor', 'vendor')
      .where('r.vendor = ANY(CAST(:vendors AS text[]))', { vendors })
      .andWhere('r.periodStart = :day AND r.periodEnd = :day', { day })
      .getRawMany<{ vendor: string }>();
    return rows.map((row) => row.vendor);
  }

  /**
   * The newest run of each vendor and period overlapping `from`..`to`, latest periods first
   * (then by vendor), at most `limit`; and how many there are.
   */
  async latestOverlapping(from: string, to: string, limit: number): Promise<{ runs: VendorReconciliationEntity[]; total: number }> {
    const query = this.dataSource
      .getRepository(VendorReconciliationEntity)
      .createQueryBuilder('r')
      .where('r.periodStart <= :to AND r.periodEnd >= :from', { from, to })
      .andWhere((outer) => {
        const newer = outer
          .subQuery()
          .select('1')
          .from(VendorReconciliationEntity, 'n')
          .where('n.vendor = r.vendor AND n.periodStart = r.periodStart AND n.periodEnd = r.periodEnd AND n.id > r.id')
          .getQuery();
        return `NOT EXISTS ${newer}`;
      });
    const total = await query.getCount();
    const runs = total === 0 ? [] : await getPage(query.orderBy('r.periodEnd', 'DESC').addOrderBy('r.periodStart', 'DESC').addOrderBy('r.vendor', 'ASC'), limit, 0);
    return { runs, total };
  }

  /** The non-sandbox records of one vendor, with what reconciliation reads of them. */
  private records(vendor: string) {
    return this.dataSource
      .getRepository(SupplierBookingEntity)
      .createQueryBuilder('b')
      .select(['b.bookingId', 'b.reference', 'b.status', 'b.createdAt'])
      .where('b.vendor = :vendor AND NOT b.sandbox', { vendor });
  }
}
