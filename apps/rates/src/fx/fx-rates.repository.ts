import { Injectable } from '@nestjs/common';
import { InjectDataSource } from '@nestjs/typeorm';
import { DataSource, EntityManager, In } from 'typeorm';
import { FxRateSet } from '@hotel/contracts';
import { FxRateEntity } from './fx-rate.entity';
import { FxRateSetEntity } from './fx-rate-set.entity';

/** One day's rates to store: the reference date and units per euro by currency. */
export interface NewFxRateSet {
  date: string;
  rates: Record<string, string>;
}

/** The ECB rate sets (`rates.fx_rate_sets` and `rates.fx_rates`) and the refresh lease. Owns its transactions. */
@Injectable()
export class FxRatesRepository {
  constructor(@InjectDataSource() private readonly dataSource: DataSource) {}

  /**
   * Stores the set unless its reference date is there already; either way answers the
   * set stored for that date. One transaction: the set and its rates appear together.
   * Two replicas storing one date at once: the second INSERT waits for the first to
   * commit and then does nothing (ON CONFLICT DO NOTHING), and reads what it stored.
   */
  insertIfAbsent(set: NewFxRateSet, source: string): Promise<{ inserted: boolean; stored: FxRateSet }> {
    return this.dataSource.transaction(async (manager) => {
      const inserted = await manager
        .createQueryBuilder()
        .insert()
        .into(FxRateSetEntity)
        .values({ referenceDate: set.date, source })
        .orIgnore()
        .returning('reference_date')
        .updateEntity(false)
        .execute();
      const isNew = (inserted.raw as unknown[]).length === 1;
      if (isNew) {
        await manager
          .createQueryBuilder()
          .insert()
          .into(FxRateEntity)
          .values(Object.entries(set.rates).map(([currency, rate]) => ({ referenceDate: set.date, currency, rate })))
          .updateEntity(false)
          .execute();
      }
      const [stored] = await this.readSets(manager, [set.date]);
      return { inserted: isNew, stored };
    });
  }

  /** The `limit` newest sets, newest first. */
  async newest(limit: number): Promise<FxRateSet[]> {
    const sets = await this.dataSource.getRepository(FxRateSetEntity).find({ select: { referenceDate: true }, order: { referenceDate: 'DESC' }, take: limit });
    return this.readSets(this.dataSource.manager, sets.map((set) => set.referenceDate));
  }

  async isEmpty(): Promise<boolean> {
    return !(await this.dataSource.getRepository(FxRateSetEntity).exists());
  }

  /** The sets of these dates with their rates (currencies in alphabetical order), in the order given. */
  private async readSets(manager: EntityManager, dates: string[]): Promise<FxRateSet[]> {
    if (dates.length === 0) return [];
    const [sets, rates] = await Promise.all([
      manager.getRepository(FxRateSetEntity).findBy({ referenceDate: In(dates) }),
      manager.getRepository(FxRateEntity).find({ where: { referenceDate: In(dates) }, order: { currency: 'ASC' } }),
    ]);
    const byDate = new Map(sets.map((set) => [set.referenceDate, { date: set.referenceDate, rates: {} as Record<string, string>, source: set.source, importedAt: set.importedAt.toISOString() }]));
    for (const rate of rates) byDate.get(rate.referenceDate)!.rates[rate.currency] = rate.rate;
    return dates.map((date) => byDate.get(date)!);
  }
}
