/** Each delay is moved by up to this share either way, so endpoints that failed together are not retried together. */
const JITTER = 0.1;

/**
 * When a delivery is tried again: the delays between attempts (seconds), from
 * WEBHOOK_RETRY_SCHEDULE_S. After attempt n (from 1) the next waits `delays[n-1]`;
 * after the last delay's attempt there is none (the delivery has failed).
 */
export class RetrySchedule {
  readonly delaysS: readonly number[];

  constructor(schedule: string, private readonly random: () => number = Math.random) {
    this.delaysS = schedule.split(',').map(Number);
  }

  /** Attempts in all: the first and one per delay. */
  get maxAttempts(): number {
    return this.delaysS.length + 1;
  }

  /** The delay (ms, with jitter) before the attempt after `attempts` failed ones, or null when none is left. */
  nextDelayMs(attempts: number): number | null {
    const delay = this.delaysS[attempts - 1];
    if (delay === undefined) return null;
    return Math.round(delay * 1000 * (1 + JITTER * (2 * this.random() - 1)));
  }
}
