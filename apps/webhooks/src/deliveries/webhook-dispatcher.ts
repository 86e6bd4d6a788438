import { Inject, Injectable, Logger, OnApplicationBootstrap, OnModuleDestroy } from '@nestjs/common';
import { Counter } from 'prom-client';
import { APP_METRICS, AppMetrics, BACKGROUND_JOBS, BackgroundJobs, DrainLoop, deleteInBatches, SERVICE_ENV, SimulatedCrash } from '@hotel/platform';
import { SecretBox } from '../endpoints/secret-box';
import { WebhooksEnv } from '../webhooks.env';
import { WebhooksFailPoints } from '../webhooks-fail-points';
import { RetrySchedule } from './retry-schedule';
import { signatureHeader } from './signature';
import { ClaimedDelivery, WebhookDeliveriesRepository } from './webhook-deliveries.repository';
import { EndpointSecrets, WebhookEndpointsRepository } from '../endpoints/webhook-endpoints.repository';
import { WebhookPoster } from './webhook-post';

/**
 * Attempts the due deliveries: on a timer and right after new ones are written, on
 * every replica. Each pass takes up to WEBHOOK_CONCURRENCY due deliveries under a
 * lease (another replica skips them; one that outlives a dead replica's lease is
 * taken again), posts them signed, and records each outcome with the next attempt's
 * time from the retry schedule, until nothing is due.
 */
@Injectable()
export class WebhookDispatcher implements OnApplicationBootstrap, OnModuleDestroy {
  private readonly logger = new Logger('WebhookDispatcher');
  private readonly loop: DrainLoop;
  /** Keeps the delivery log to WEBHOOK_LOG_RETENTION_DAYS: at start and hourly. */
  private readonly pruning: DrainLoop;
  private readonly schedule: RetrySchedule;
  /** A dead replica's deliveries are taken again after this: well past an attempt's timeout. */
  private readonly leaseMs: number;
  /** How long a booking's later event waits for an earlier one not seen yet. */
  private readonly gapWaitMs: number;
  /** The attempts under way on this replica. */
  private readonly inFlight = new Set<Promise<void>>();
  /** Attempts by outcome: `delivered` (2xx) or `failed` (anything else; retried or not). */
  private readonly attempts: Counter<'outcome'>;

  constructor(
    @Inject(SERVICE_ENV) private readonly env: WebhooksEnv,
    @Inject(BACKGROUND_JOBS) background: BackgroundJobs,
    private readonly deliveries: WebhookDeliveriesRepository,
    private readonly endpoints: WebhookEndpointsRepository,
    private readonly secrets: SecretBox,
    private readonly poster: WebhookPoster,
    private readonly failPoints: WebhooksFailPoints,
    @Inject(APP_METRICS) metrics: AppMetrics,
  ) {
    this.attempts = metrics.counter('hotel_webhook_deliveries_total', 'Webhook delivery attempts, by outcome (delivered: 2xx; failed: anything else)', ['outcome']);
    this.schedule = new RetrySchedule(env.WEBHOOK_RETRY_SCHEDULE_S);
    this.leaseMs = 2 * env.WEBHOOK_TIMEOUT_MS + 10_000;
    // An earlier event held by a replica that died comes again after WEBHOOK_ACK_WAIT_S: wait for it well past that.
    this.gapWaitMs = Math.max(60_000, 3 * env.WEBHOOK_ACK_WAIT_S * 1000);
    this.loop = new DrainLoop(background, 'webhook-dispatcher', env.WEBHOOK_DISPATCH_INTERVAL_MS, () => this.drain());
    this.pruning = new DrainLoop(background, 'webhook-log-pruning', 3_600_000, () => this.prune());
  }

  onApplicationBootstrap() {
    this.loop.start();
    this.pruning.start();
  }

  async onModuleDestroy() {
    await Promise.all([this.loop.stop(), this.pruning.stop()]);
    // Attempts under way end (each bounded by WEBHOOK_TIMEOUT_MS) and are recorded before the connections close.
    await Promise.all(this.inFlight);
    this.poster.close();
  }

  /** Deletes the finished deliveries older than the retention, a batch at a time; how many. */
  async prune(): Promise<number> {
    try {
      await deleteInBatches(() => this.deliveries.pruneSeen(this.env.WEBHOOK_LOG_RETENTION_DAYS, 1000), () => this.pruning.isStopped);
      return await deleteInBatches(() => this.deliveries.pruneFinished(this.env.WEBHOOK_LOG_RETENTION_DAYS, 1000), () => this.pruning.isStopped);
    } catch (error) {
      this.logger.warn({ msg: 'the delivery log could not be pruned; tried again in an hour', error: error instanceof Error ? error.message : String(error) });
      return 0;
    }
  }

  /** Attempts what is due now rather than at the next tick. */
  nudge(): void {
    this.loop.nudge();
  }

  /**
   * One pass: claims due deliveries for the attempt slots free now (WEBHOOK_CONCURRENCY
   * less those in flight) and starts them; each attempt that ends frees its slot and
   * nudges another pass. No attempt waits for another: a slow receiver holds its slot
   * only. How many attempts it started.
   */
  async drain(): Promise<number> {
    let started = 0;
    try {
      for (;;) {
        if (this.failPoints.crashed) throw new SimulatedCrash(this.failPoints.crashed);
        const free = this.env.WEBHOOK_CONCURRENCY - this.inFlight.size;
        if (this.loop.isStopped || free <= 0) break;
        const due = await this.deliveries.claimDue(free, this.leaseMs, this.env.WEBHOOK_MAX_IN_FLIGHT_PER_CLIENT, this.gapWaitMs);
        if (due.length === 0) break;
        const endpoints = await this.endpoints.secrets([...new Set(due.map((delivery) => delivery.endpointId))]);
        for (const delivery of due) this.start(delivery, endpoints.get(delivery.endpointId));
        started += due.length;
      }
    } catch (error) {
      if (error instanceof SimulatedCrash) {
        // A "dead" replica attempts nothing more; its leases run out and another takes the work.
        void this.loop.stop();
        return started;
      }
      this.logger.warn({ msg: 'webhook deliveries could not be claimed; retried at the next pass', error: error instanceof Error ? error.message : String(error) });
    }
    return started;
  }

  private start(delivery: ClaimedDelivery, endpoint: EndpointSecrets | undefined): void {
    const attempt = this.attempt(delivery, endpoint)
      .catch((error: unknown) => {
        if (error instanceof SimulatedCrash) return;
        // The outcome could not be recorded (the database away): the lease runs out and the delivery is attempted again.
        this.logger.warn({ msg: 'a webhook attempt could not be recorded; it is attempted again', deliveryId: delivery.id, error: error instanceof Error ? error.message : String(error) });
      })
      .finally(() => {
        this.inFlight.delete(attempt);
        this.loop.nudge();
      });
    this.inFlight.add(attempt);
  }

  private async attempt(delivery: ClaimedDelivery, endpoint: EndpointSecrets | undefined): Promise<void> {
    if (!endpoint) return; // deleted since it was claimed: its deliveries went with it
    if (this.failPoints.crashed) return; // the process "died" (crash tests): nothing more leaves it
    const timestamp = Math.floor(Date.now() / 1000);
    const secrets = this.openSecrets(endpoint);
    // A secret this replica cannot read is a failed attempt like any other: it counts toward the schedule.
    const outcome = secrets
      ? await this.poster.post(endpoint.url, delivery.payload, {
          'webhook-id': delivery.eventId,
          'webhook-timestamp': String(timestamp),
          'webhook-signature': signatureHeader(secrets, delivery.eventId, timestamp, delivery.payload),
        })
      : { statusCode: null, error: 'the signing secret could not be read (is WEBHOOK_SECRET_KEY the same on every replica?)', durationMs: null };
    this.failPoints.pass('after-attempt');
    const delivered = outcome.statusCode !== null && outcome.statusCode >= 200 && outcome.statusCode < 300;
    this.attempts.inc({ outcome: delivered ? 'delivered' : 'failed' });
    const { recorded, disabled } = await this.deliveries.recordAttempt(delivery, {
      ...outcome,
      delivered,
      retryInMs: delivered ? null : this.schedule.nextDelayMs(delivery.attempts + 1),
      disableAfterS: this.env.WEBHOOK_DISABLE_AFTER_S,
    });
    if (!recorded) this.logger.warn({ msg: 'a webhook attempt outlived its lease; another replica has the delivery, this outcome is dropped', deliveryId: delivery.id });
    if (disabled) this.logger.warn({ msg: 'webhook endpoint disabled: its attempts have failed for too long', endpointId: delivery.endpointId });
  }

  private openSecrets(endpoint: EndpointSecrets): string[] | null {
    try {
      return endpoint.sealedSecrets.map((sealed) => this.secrets.open(sealed));
    } catch {
      return null;
    }
  }
}
