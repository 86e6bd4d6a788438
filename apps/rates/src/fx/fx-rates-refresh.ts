import { Inject, Injectable, Logger, OnApplicationBootstrap, OnModuleDestroy } from '@nestjs/common';
import { BACKGROUND_JOBS, BackgroundJobs, DrainLoop, SERVICE_ENV, SERVICE_INSTANCE } from '@hotel/platform';
import { RatesEnv } from '../rates.env';
import { fetchSmallText } from './ecb-fetch';
import { JobLeasesRepository } from '../jobs/job-leases.repository';
import { FxRatesService } from './fx-rates.service';

/** The lease's job name in rates.job_leases: one fetch per interval, not one per replica. */
export const FX_REFRESH_JOB = 'fx-rates-refresh';

/** The ECB's daily euro reference rates (published on TARGET working days around 16:00 CET). */
export const ECB_DAILY_URL = 'https://www.ecb.europa.eu/stats/eurofxref/eurofxref-daily.xml';
/** The daily file is about 2 kB; the import contract takes at most this much. */
export const FX_FETCH_MAX_BYTES = 1_000_000;

export type FxRefreshOutcome =
  | { outcome: 'imported' | 'unchanged'; date: string; inForce: string }
  | { outcome: 'failed'; error: string }
  /** Another replica holds the lease: it fetches this interval. */
  | { outcome: 'skipped' };

/**
 * The daily refresh: fetches FX_RATES_URL (the ECB's daily file; by default in
 * production, only when set elsewhere, so development and tests never reach the
 * internet) at start and every FX_REFRESH_INTERVAL_MIN, and imports a reference
 * date not seen yet. Replicas take turns through a lease row (one fetch per interval,
 * not one per replica); the import is idempotent anyway. A failure logs a warning
 * and waits for the next tick.
 */
@Injectable()
export class FxRatesRefresh implements OnApplicationBootstrap, OnModuleDestroy {
  private readonly logger = new Logger('FxRatesRefresh');
  /** Where the rates are fetched from; undefined: no refresh. */
  readonly url: string | undefined;
  private readonly loop?: DrainLoop;
  private readonly production: boolean;

  constructor(
    private readonly fx: FxRatesService,
    private readonly leases: JobLeasesRepository,
    @Inject(SERVICE_ENV) private readonly env: RatesEnv,
    @Inject(SERVICE_INSTANCE) private readonly instance: string,
    @Inject(BACKGROUND_JOBS) background: BackgroundJobs,
  ) {
    this.production = env.NODE_ENV === 'production';
    this.url = env.FX_RATES_URL ?? (this.production ? ECB_DAILY_URL : undefined);
    if (this.url) this.loop = new DrainLoop(background, 'fx-rates-refresh', env.FX_REFRESH_INTERVAL_MIN * 60_000, () => this.tick());
  }

  onApplicationBootstrap(): void {
    if (!this.loop) return;
    this.logger.log({ msg: `fx rates are fetched from ${this.url} at start and every ${this.env.FX_REFRESH_INTERVAL_MIN} minutes`, url: this.url });
    this.loop.start();
  }

  async onModuleDestroy(): Promise<void> {
    await this.loop?.stop();
  }

  /** One tick of the timer: fetches unless another replica has this interval's lease. */
  async tick(): Promise<FxRefreshOutcome> {
    try {
      // 90% of the interval: the replica that fetched last may take it again at its next tick.
      const leaseSeconds = Math.floor(this.env.FX_REFRESH_INTERVAL_MIN * 54);
      if (!(await this.leases.take(FX_REFRESH_JOB, this.instance, leaseSeconds))) return { outcome: 'skipped' };
    } catch (error) {
      return this.failed(error);
    }
    return this.refresh();
  }

  /** Fetches the file and imports it: a new reference date is taken in (and announced), a known one changes nothing. */
  async refresh(): Promise<FxRefreshOutcome> {
    if (!this.url) return { outcome: 'failed', error: 'no FX_RATES_URL' };
    try {
      const xml = await fetchSmallText(this.url, { timeoutMs: this.env.FX_FETCH_TIMEOUT_MS, maxBytes: FX_FETCH_MAX_BYTES, httpsOnly: this.production });
      const reply = await this.fx.import(xml, this.url);
      if (!reply.imported) this.logger.debug({ msg: `fx rates of ${reply.set.date} from ${this.url} are in already`, date: reply.set.date });
      return { outcome: reply.imported ? 'imported' : 'unchanged', date: reply.set.date, inForce: reply.inForce.date };
    } catch (error) {
      return this.failed(error);
    }
  }

  private failed(error: unknown): FxRefreshOutcome {
    const message = error instanceof Error ? error.message : String(error);
    this.logger.warn({ msg: `fx rates could not be refreshed from ${this.url}: ${message}; tried again in ${this.env.FX_REFRESH_INTERVAL_MIN} minutes`, url: this.url });
    return { outcome: 'failed', error: message };
  }
}
