import { Inject, Injectable, Logger, OnApplicationBootstrap, OnModuleDestroy } from '@nestjs/common';
import { BOOKING_EVENT_SUBJECTS, HEADERS, STREAMS } from '@hotel/contracts';
import { BACKGROUND_JOBS, BackgroundJobs, DrainLoop, deleteInBatches, SERVICE_CLIENT, SERVICE_ENV, ServiceClient, StreamConfig } from '@hotel/platform';
import { BookingEnv } from '../booking.env';
import { FailPoints, SimulatedCrash } from '../bookings/fail-points';
import { BookingEventsOutbox } from './booking-events-outbox';

/** The BOOKING_EVENTS stream as a booking replica creates it at start when it is missing. */
/** The BOOKING_EVENTS stream the relay creates when missing, with `replicas` copies (BOOKING_EVENTS_REPLICAS). */
export function bookingEventsStream(replicas: number): StreamConfig {
  return {
    name: STREAMS.BOOKING_EVENTS.name,
    subjects: [STREAMS.BOOKING_EVENTS.subjects],
    // A relay that died after publishing publishes again within seconds: its repeat is dropped.
    duplicateWindowMs: 10 * 60_000,
    maxAgeMs: 30 * 86_400_000,
    replicas,
  };
}

/** Events one transaction of the relay publishes at most. */
const BATCH = 100;
/** How long the stream has to acknowledge a message. */
const PUBLISH_TIMEOUT_MS = 5000;
/** JetStream unreachable for this long (not a start's first pass before NATS is connected) is worth a warning... */
const WARN_AFTER_MS = 5000;
/** ...and then one this often, not one every pass. */
const WARN_EVERY_MS = 60_000;

/**
 * The publishing half of the outbox: publishes the booking events not yet sent to
 * the BOOKING_EVENTS stream, with the event id as the message id, and marks them
 * sent; at least once (a relay that dies between the two publishes again, and the
 * stream drops the repeat). It runs right after each status change and on a short
 * timer on every replica; each pass takes, under FOR UPDATE SKIP LOCKED, only the
 * earliest unsent event of each booking, so replicas share the work and the events
 * of one booking reach the stream in their order. JetStream unreachable: bookings go
 * on, their events wait in the outbox, a warning is logged and the relay retries.
 */
@Injectable()
export class BookingEventsRelay implements OnApplicationBootstrap, OnModuleDestroy {
  private readonly logger = new Logger('BookingEventsRelay');
  private readonly loop: DrainLoop;
  /** Keeps the outbox to EVENTS_OUTBOX_RETENTION_DAYS of sent events: at start and hourly. */
  private readonly pruning: DrainLoop;
  private streamReady = false;
  private failingSince?: number;
  private lastWarning = 0;

  constructor(
    @Inject(SERVICE_CLIENT) private readonly services: ServiceClient,
    @Inject(SERVICE_ENV) private readonly env: BookingEnv,
    @Inject(BACKGROUND_JOBS) background: BackgroundJobs,
    private readonly failPoints: FailPoints,
    private readonly outbox: BookingEventsOutbox,
  ) {
    this.loop = new DrainLoop(background, 'booking-events-relay', env.EVENTS_RELAY_INTERVAL_MS, () => this.drain());
    this.pruning = new DrainLoop(background, 'booking-events-pruning', 3_600_000, () => this.prune());
    outbox.onCommitted(() => this.nudge());
  }

  onApplicationBootstrap() {
    this.loop.start();
    this.pruning.start();
  }

  async onModuleDestroy() {
    await Promise.all([this.loop.stop(), this.pruning.stop()]);
  }

  /** Deletes the sent events older than the retention, a batch at a time; how many. */
  async prune(): Promise<number> {
    try {
      return await deleteInBatches(() => this.outbox.pruneSent(this.env.EVENTS_OUTBOX_RETENTION_DAYS, 1000), () => this.pruning.isStopped);
    } catch (error) {
      this.logger.warn({ msg: 'the events outbox could not be pruned; tried again in an hour', error: error instanceof Error ? error.message : String(error) });
      return 0;
    }
  }

  /** Runs a pass now, or right after the one under way. */
  nudge(): void {
    this.loop.nudge();
  }

  /** One pass: publishes until nothing is left (or JetStream fails); how many events it published. */
  async drain(): Promise<number> {
    let published = 0;
    try {
      if (!this.services.isConnected()) throw new Error('not connected to NATS');
      if (!this.streamReady) {
        if ((await this.services.ensureStream(bookingEventsStream(this.env.BOOKING_EVENTS_REPLICAS))) === 'differs') {
          this.logger.warn({ msg: 'the BOOKING_EVENTS stream exists with other settings than this release expects; publishing to it as it is', stream: STREAMS.BOOKING_EVENTS.name });
        }
        this.streamReady = true;
      }
      // Until a batch says nothing more was there to take: an event committed since it was
      // taken nudged the loop, which runs again after this pass (no empty transaction to end each pass).
      for (let more = true; more && !this.loop.isStopped; ) {
        const batch = await this.publishBatch();
        more = batch.more;
        published += batch.sent;
        if (batch.failure) throw batch.failure;
      }
      if (this.failingSince !== undefined) {
        this.logger.log({ msg: 'booking events are published again', unreachableForMs: Date.now() - this.failingSince });
        this.failingSince = undefined;
      }
    } catch (error) {
      if (error instanceof SimulatedCrash) {
        // A "dead" relay publishes nothing more; what it held stays unsent for the next replica.
        void this.loop.stop();
        return published;
      }
      // The stream may have been deleted meanwhile: made again on the next pass.
      this.streamReady = false;
      this.failingSince ??= Date.now();
      if (Date.now() - this.failingSince >= WARN_AFTER_MS && Date.now() - this.lastWarning >= WARN_EVERY_MS) {
        this.lastWarning = Date.now();
        this.logger.warn({
          msg: 'cannot publish booking events for now; they wait in the outbox and are retried',
          failingForMs: Date.now() - this.failingSince,
          error: error instanceof Error ? error.message : String(error),
        });
      }
    }
    return published;
  }

  /**
   * One transaction: takes up to BATCH events, each the earliest unsent one of its
   * booking (an event whose booking has an earlier one unsent waits for it, even if
   * another replica holds that one), publishes them and marks those the stream
   * acknowledged; those it did not are left for a later pass (and the failure
   * comes back to end this one).
   */
  private publishBatch(): Promise<{ sent: number; more: boolean; failure?: unknown }> {
    return this.outbox.publishUnsent(BATCH, async (events) => {
      this.failPoints.pass('after-status-commit');
      const encoder = new TextEncoder();
      const acks = await Promise.allSettled(
        events.map((event) =>
          this.services.publishToStream(BOOKING_EVENT_SUBJECTS[event.type], encoder.encode(event.payload), {
            msgId: event.id,
            headers: { [HEADERS.CLIENT_ID]: String(event.clientId) },
            timeoutMs: PUBLISH_TIMEOUT_MS,
          }),
        ),
      );
      this.failPoints.pass('after-event-publish');
      const failure = acks.find((ack): ack is PromiseRejectedResult => ack.status === 'rejected');
      return { published: events.filter((_, index) => acks[index].status === 'fulfilled').map((event) => event.id), failure: failure?.reason as unknown };
    });
  }
}
