import { Inject, Injectable, Logger, OnModuleDestroy, OnModuleInit } from '@nestjs/common';
import { InjectDataSource } from '@nestjs/typeorm';
import { randomUUID } from 'node:crypto';
import { DataSource } from 'typeorm';
import { SERVICE_ENV } from '@hotel/platform';
import { BookingEnv } from '../booking.env';

/**
 * This replica's sign of life, shorter than a saga's lease: it records itself in
 * booking.workers every WORKER_HEARTBEAT_MS, alive for three beats, and removes itself when
 * it stops. A saga whose lease holder is no longer alive there (a process killed, a
 * replica stopped) may be taken over at once, by the recovery loop or by the client's
 * repeat of the request (which alone can charge a card: card details are never kept),
 * instead of waiting for the lease to run out. Taking over is safe whenever: every
 * step advances only from the step its worker saw, and every external effect (a charge,
 * a supplier booking) is keyed so that doing it again does it once.
 */
@Injectable()
export class WorkerLiveness implements OnModuleInit, OnModuleDestroy {
  /** This process's name in booking.workers and in the leases it holds. */
  readonly instance = randomUUID();
  private readonly logger = new Logger('WorkerLiveness');
  private timer?: NodeJS.Timeout;

  constructor(
    @InjectDataSource() private readonly dataSource: DataSource,
    @Inject(SERVICE_ENV) private readonly env: BookingEnv,
  ) {}

  /** Alive before the first request: a lease it takes is never taken for a dead one's. */
  async onModuleInit(): Promise<void> {
    await this.beat();
    this.timer = setInterval(() => void this.beat().catch((error) => this.logger.warn({ msg: 'heartbeat not recorded', error: String(error) })), this.env.WORKER_HEARTBEAT_MS);
    this.timer.unref();
  }

  async onModuleDestroy(): Promise<void> {
    clearInterval(this.timer);
    // Gone now: its sagas may be taken over at once.
    await this.dataSource.query('DELETE FROM booking.workers WHERE instance = $1', [this.instance]).catch(() => undefined);
  }

  private async beat(): Promise<void> {
    const aliveMs = this.env.WORKER_HEARTBEAT_MS * 3;
    // Raw: an upsert with an interval from a number, on a table with no entity (nothing else reads it but the lease conditions).
    await this.dataSource.query(
      `INSERT INTO booking.workers (instance, alive_until) VALUES ($1, now() + make_interval(secs => $2::double precision / 1000))
       ON CONFLICT (instance) DO UPDATE SET alive_until = EXCLUDED.alive_until`,
      [this.instance, aliveMs],
    );
    // Processes long gone (killed: they removed nothing) leave their rows: swept now and then.
    if (Math.random() < 0.01) await this.dataSource.query(`DELETE FROM booking.workers WHERE alive_until < now() - interval '1 hour'`);
  }
}

/** SQL: the lease of the booking aliased `alias` is held by a worker that is not alive (its sagas may be taken over). */
export function leaseHolderGone(alias = ''): string {
  return `(${alias}lease_holder IS NOT NULL AND NOT EXISTS (SELECT 1 FROM booking.workers w WHERE w.instance = ${alias}lease_holder AND w.alive_until > now()))`;
}
