import { Inject, Injectable, Logger, OnApplicationBootstrap, OnModuleDestroy } from '@nestjs/common';
import { VendorReconciliationFailure, VendorReconciliationReport } from '@hotel/contracts';
import { BACKGROUND_JOBS, BackgroundJobs, DrainLoop, SERVICE_ENV, SERVICE_INSTANCE } from '@hotel/platform';
import { JobLeasesRepository } from '../jobs/job-leases.repository';
import { RatesEnv } from '../rates.env';
import { VendorReconciliationService, dayFrom } from './vendor-reconciliation.service';

/** The lease's job name in rates.job_leases. */
export const DAILY_RECONCILIATION_JOB = 'vendor-reconciliation';
/** How often a replica looks whether yesterday is due: a run comes at most this long after the hour. */
const TICK_MS = 10 * 60_000;
/** How long one replica has the day's run in hand; a vendor that failed is asked again after it. */
export const DAILY_RECONCILIATION_LEASE_S = 30 * 60;

export type DailyReconciliationOutcome =
  /** Before VENDOR_RECONCILIATION_HOUR (UTC): yesterday waits. */
  | { outcome: 'not-yet' }
  /** Every remote vendor has its run over yesterday. */
  | { outcome: 'done'; day: string }
  /** Another replica holds the lease: it runs. */
  | { outcome: 'skipped'; day: string }
  | { outcome: 'ran'; day: string; reports: VendorReconciliationReport[]; failures: VendorReconciliationFailure[] }
  | { outcome: 'failed'; error: string };

/** The day a tick at `now` reconciles: yesterday (UTC), once the hour has come; null before it. */
export function dueDay(now: Date, hour: number): string | null {
  if (now.getUTCHours() < hour) return null;
  return dayFrom(now.toISOString().slice(0, 10), -1);
}

/**
 * The daily reconciliation: from VENDOR_RECONCILIATION_HOUR (UTC) on, every remote vendor
 * without a run over yesterday is reconciled. Each replica looks every 10 minutes (and at
 * start, so a replica started after the hour catches up); one takes the lease and runs, the
 * others find it done or held. A vendor that could not be asked is logged and asked again
 * once the lease has run out. Without a remote vendor nothing runs at all.
 */
@Injectable()
export class DailyVendorReconciliation implements OnApplicationBootstrap, OnModuleDestroy {
  private readonly logger = new Logger('VendorReconciliation');
  private readonly loop?: DrainLoop;

  constructor(
    private readonly reconciliation: VendorReconciliationService,
    private readonly leases: JobLeasesRepository,
    @Inject(SERVICE_ENV) private readonly env: RatesEnv,
    @Inject(SERVICE_INSTANCE) private readonly instance: string,
    @Inject(BACKGROUND_JOBS) background: BackgroundJobs,
  ) {
    if (reconciliation.remoteVendors().length > 0) this.loop = new DrainLoop(background, 'vendor-reconciliation', TICK_MS, () => this.tick());
  }

  onApplicationBootstrap(): void {
    if (!this.loop) return;
    const vendors = this.reconciliation.remoteVendors().join(', ');
    this.logger.log({ msg: `vendors ${vendors} are reconciled daily from ${this.env.VENDOR_RECONCILIATION_HOUR}:00 UTC, over the day before` });
    this.loop.start();
  }

  async onModuleDestroy(): Promise<void> {
    await this.loop?.stop();
  }

  /** One look: reconciles yesterday for the remote vendors that lack it, unless it is too early or another replica has it in hand. */
  async tick(now = new Date()): Promise<DailyReconciliationOutcome> {
    const day = dueDay(now, this.env.VENDOR_RECONCILIATION_HOUR);
    if (day === null) return { outcome: 'not-yet' };
    try {
      if ((await this.reconciliation.unreconciledOn(day)).length === 0) return { outcome: 'done', day };
      if (!(await this.leases.take(DAILY_RECONCILIATION_JOB, this.instance, DAILY_RECONCILIATION_LEASE_S))) return { outcome: 'skipped', day };
      // Again under the lease: a replica whose run ended just before may have done some.
      const due = await this.reconciliation.unreconciledOn(day);
      const { reports, failures } = await this.reconciliation.reconcile(due, day, day, 'daily');
      for (const report of reports) this.logReport(report);
      for (const failure of failures) {
        this.logger.warn({ msg: `vendor ${failure.vendor} could not be reconciled for ${day}: ${failure.message}; asked again in ${DAILY_RECONCILIATION_LEASE_S / 60} minutes`, vendor: failure.vendor });
      }
      return { outcome: 'ran', day, reports, failures };
    } catch (error) {
      const message = error instanceof Error ? error.message : String(error);
      this.logger.warn({ msg: `the vendor reconciliation of ${day} failed: ${message}; tried again at a later look` });
      return { outcome: 'failed', error: message };
    }
  }

  /** A run without differences is news (info); one with differences is for an operator to look at (warn). */
  private logReport(report: VendorReconciliationReport): void {
    const found = report.missingAtVendor + report.unknownToPlatform + report.statusMismatch;
    const counts = { vendor: report.vendor, day: report.from, missingAtVendor: report.missingAtVendor, unknownToPlatform: report.unknownToPlatform, statusMismatch: report.statusMismatch };
    if (found === 0) {
      this.logger.log({ msg: `vendor ${report.vendor} reconciled for ${report.from}: ${report.platformBookings} bookings, no difference`, ...counts });
      return;
    }
    this.logger.warn({
      msg: `vendor ${report.vendor} reconciled for ${report.from}: ${found} differences (missing_at_vendor ${report.missingAtVendor}, unknown_to_platform ${report.unknownToPlatform}, status_mismatch ${report.statusMismatch}); see reconciliation ${report.id}`,
      ...counts,
    });
  }
}
