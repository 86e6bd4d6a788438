import { Inject, Injectable, Logger, OnApplicationBootstrap, OnModuleDestroy } from '@nestjs/common';
import { readFileSync } from 'node:fs';
import { join } from 'node:path';
import { EVENTS, FxRateSet, ImportFxRatesReply, fxRatesAgeDays } from '@hotel/contracts';
import { APP_METRICS, AppMetrics, BACKGROUND_JOBS, BackgroundJobs, DomainError, SERVICE_CLIENT, ServiceClient } from '@hotel/platform';
import { EcbFormatError, parseEcbDaily } from './ecb-daily.parser';
import { FxRatesRepository } from './fx-rates.repository';

/** How many reference dates `sets()` answers: a price shown weeks ago is recomputed at its own day's rates. */
export const FX_SETS_KEPT = 40;
/** The fallback to the update event: a replica that missed one is on old rates this long at most. */
export const FX_RELOAD_INTERVAL_MS = 5 * 60_000;
/**
 * The ECB's euro reference rates of 26 May 2020, its daily file as published (see
 * ecb-eurofxref-snapshot.md beside it): what a database without rates starts from.
 */
export const FX_SNAPSHOT_FILE = join(__dirname, 'ecb-eurofxref-snapshot.xml');
export const FX_SNAPSHOT_SOURCE = 'snapshot';


/** "1.0600" and "1.06" are one rate: compared as decimal strings without trailing zeros, never as floats. */
function canonicalRate(rate: string): string {
  return rate.includes('.') ? rate.replace(/\.?0+$/, '') : rate;
}

/** How two sets of one date differ ("USD 1.0975 stored, 1.1 in the file"), at most a few. */
function differences(stored: Record<string, string>, given: Record<string, string>): string[] {
  const found: string[] = [];
  for (const currency of new Set([...Object.keys(stored), ...Object.keys(given)])) {
    const [was, now] = [stored[currency], given[currency]];
    if (was !== undefined && now !== undefined && canonicalRate(was) === canonicalRate(now)) continue;
    found.push(`${currency} ${was ?? 'absent'} stored, ${now ?? 'absent'} in the file`);
  }
  return found;
}

function frozen(sets: FxRateSet[]): readonly FxRateSet[] {
  for (const set of sets) Object.freeze(Object.freeze(set).rates);
  return Object.freeze(sets);
}

/**
 * The one owner of exchange rates: imports the ECB's daily files (idempotent by
 * reference date), and answers the sets in force from memory. Every replica keeps the
 * 40 newest sets, loaded at start, again when any replica announces a new set
 * (EVENTS.RATES_FX_RATES_UPDATED, every replica subscribes), after a reconnection to
 * the bus, and every 5 minutes in case an event was missed. A database without any set
 * takes in the shipped snapshot at start.
 */
@Injectable()
export class FxRatesService implements OnApplicationBootstrap, OnModuleDestroy {
  private readonly logger = new Logger('FxRatesService');
  private cached: readonly FxRateSet[] = [];
  private loaded = false;
  /** Reloads may overlap (an event during the timer's): only a later one's answer replaces an earlier one's. */
  private requested = 0;
  private applied = 0;
  private timer?: NodeJS.Timeout;

  constructor(
    private readonly repository: FxRatesRepository,
    @Inject(SERVICE_CLIENT) private readonly services: ServiceClient,
    @Inject(BACKGROUND_JOBS) private readonly background: BackgroundJobs,
    @Inject(APP_METRICS) metrics: AppMetrics,
  ) {
    metrics.gauge('hotel_fx_rates_age_days', 'Days since the reference date of the exchange rates in force, TARGET holidays left out (1 to 3 is usual; -1: none)', (gauge) => {
      const date = this.cached[0]?.date;
      gauge.set(date ? fxRatesAgeDays(date) : -1);
    });
  }

  async onApplicationBootstrap(): Promise<void> {
    if (await this.repository.isEmpty()) {
      // Every replica starting on an empty database may do this: the import is idempotent.
      const reply = await this.import(readFileSync(FX_SNAPSHOT_FILE, 'utf8'), FX_SNAPSHOT_SOURCE);
      if (reply.imported) this.logger.log({ msg: `no fx rates yet: the shipped snapshot of ${reply.set.date} is in force until newer rates are imported`, date: reply.set.date });
    }
    await this.reload();
    try {
      this.services.onEvent(EVENTS.RATES_FX_RATES_UPDATED, () => this.reloadInBackground('event'));
      this.services.onReconnect(() => this.reloadInBackground('reconnect'));
    } catch (error) {
      this.logger.warn({ msg: 'cannot listen to fx rate updates; relying on the periodic reload', error: error instanceof Error ? error.message : String(error) });
    }
    this.timer = setInterval(() => this.reloadInBackground('timer'), FX_RELOAD_INTERVAL_MS);
    this.timer.unref();
  }

  onModuleDestroy(): void {
    clearInterval(this.timer);
  }

  /**
   * The set in force (the newest reference date) first, then older ones, at most
   * FX_SETS_KEPT, newest first; from memory. The sets are frozen (shared by every caller); the array is the caller's.
   */
  async sets(): Promise<FxRateSet[]> {
    if (!this.loaded) await this.reload();
    return [...this.cached];
  }

  /**
   * Takes in a file in the ECB's daily format. The same reference date again: nothing
   * changes (`imported: false`) when its rates are the same, CONFLICT when they differ
   * (the ECB never revises a day's rates, so such a file is not the ECB's). A new set
   * is announced to every replica and to search.
   */
  async import(xml: string, source: string): Promise<ImportFxRatesReply> {
    let parsed;
    try {
      parsed = parseEcbDaily(xml);
    } catch (error) {
      if (error instanceof EcbFormatError) throw new DomainError('VALIDATION_FAILED', `not the ECB's daily reference rates file: ${error.message}`);
      throw error;
    }
    const { inserted, stored } = await this.repository.insertIfAbsent(parsed, source);
    if (!inserted) {
      const differing = differences(stored.rates, parsed.rates);
      if (differing.length > 0) {
        const shown = differing.slice(0, 3).join('; ') + (differing.length > 3 ? `; and ${differing.length - 3} more` : '');
        throw new DomainError(
          'CONFLICT',
          `the rates of ${parsed.date} are in already (from ${stored.source}, ${stored.importedAt}) and this file's differ (${shown}); a reference date's rates never change, so one of the two is not the ECB's`,
        );
      }
    }
    const sets = await this.reload();
    if (inserted) {
      this.logger.log({ msg: `fx rates of ${stored.date} imported from ${source}, ${Object.keys(stored.rates).length} currencies`, date: stored.date, source, inForce: sets[0].date });
      await this.announce(stored.date);
    }
    return { set: stored, imported: inserted, inForce: sets[0] };
  }

  private async announce(date: string) {
    try {
      await this.services.publishEvent(EVENTS.RATES_FX_RATES_UPDATED, { date });
    } catch (error) {
      // The set is stored; replicas and search pick it up at their next periodic reload.
      this.logger.warn({ msg: 'could not announce new fx rates; other replicas take them up at their next reload', date, error: error instanceof Error ? error.message : String(error) });
    }
  }

  private reloadInBackground(reason: string) {
    void this.background.run('fx-rates-reload', () =>
      this.reload().catch((error: unknown) => {
        this.logger.warn({ msg: 'could not reload the fx rates; keeping those in memory', reason, error: error instanceof Error ? error.message : String(error) });
      }),
    );
  }

  private async reload(): Promise<readonly FxRateSet[]> {
    const request = ++this.requested;
    const sets = await this.repository.newest(FX_SETS_KEPT);
    if (request > this.applied) {
      this.applied = request;
      this.cached = frozen(sets);
      this.loaded = true;
    }
    return this.cached;
  }
}
