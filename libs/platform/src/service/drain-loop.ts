import { BackgroundJobs } from '../logging/request-context';

/**
 * A background pass that runs on a timer and whenever nudged, one at a time: a
 * nudge during a pass runs another right after it (so work that arrived meanwhile
 * is not left to the timer). Used by the workers that drain a table (an outbox, due
 * deliveries). `stop()` waits for the pass under way.
 */
export class DrainLoop {
  private timer?: NodeJS.Timeout;
  private running?: Promise<unknown>;
  private again = false;
  private stopped = false;

  constructor(
    private readonly background: BackgroundJobs,
    private readonly job: string,
    private readonly intervalMs: number,
    private readonly pass: () => Promise<unknown>,
  ) {}

  start(): void {
    this.timer = setInterval(() => this.nudge(), this.intervalMs);
    this.timer.unref();
    this.nudge();
  }

  /** Runs a pass now, or right after the one under way. */
  nudge(): void {
    if (this.stopped) return;
    if (this.running) {
      this.again = true;
      return;
    }
    this.running = this.background.run(this.job, () => this.pass());
    void this.running.finally(() => {
      this.running = undefined;
      if (this.again) {
        this.again = false;
        this.nudge();
      }
    });
  }

  /** No more passes; resolves when the one under way has ended. */
  async stop(): Promise<void> {
    this.stopped = true;
    clearInterval(this.timer);
    await this.running;
  }

  get isStopped(): boolean {
    return this.stopped;
  }
}

/** Runs `deleteBatch` until it deletes nothing or `stopped()` says so: how many rows it deleted in all (for pruning jobs). */
export async function deleteInBatches(deleteBatch: () => Promise<number>, stopped: () => boolean): Promise<number> {
  let deleted = 0;
  for (let batch = -1; batch !== 0 && !stopped(); deleted += batch) batch = await deleteBatch();
  return deleted;
}
