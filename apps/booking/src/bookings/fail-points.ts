import { Injectable } from '@nestjs/common';

/**
 * Where a booking or cancellation can be cut off: after a step's effect, before it
 * is recorded (and, for a card, after its key is recorded, before the charge; for a
 * cancellation, after `cancelling` is recorded, before the supplier hears of it);
 * and where the relay of booking events can: before or after it publishes.
 */
export const FAIL_POINTS = [
  'after-hold',
  'before-charge',
  'after-charge',
  'after-supplier-book',
  'after-promo-redeem',
  'after-collect',
  'after-compensate',
  'before-supplier-cancel',
  'after-supplier-cancel',
  'after-refund',
  // The booking events' relay: a status change (and its event) committed, its event not published yet;
  // the event published, not yet marked sent (published again after the restart: the stream drops the repeat).
  'after-status-commit',
  'after-event-publish',
] as const;
export type FailPoint = (typeof FAIL_POINTS)[number];

/** What a worker that "died" at a fail point throws: nothing more of the saga runs, its lease stays. */
export class SimulatedCrash extends Error {
  constructor(readonly point: FailPoint) {
    super(`simulated crash at ${point}`);
    this.name = 'SimulatedCrash';
  }
}

/**
 * Fail points for crash tests: a test arms one (through Nest DI, never through
 * configuration) and the next saga to pass it stops there as if its process had
 * been killed, leaving recovery to finish the work. Unarmed, a pass is a set lookup.
 */
@Injectable()
export class FailPoints {
  private readonly armed = new Set<FailPoint>();

  arm(point: FailPoint): void {
    this.armed.add(point);
  }

  /** Still waiting for a saga to reach it. */
  isArmed(point: FailPoint): boolean {
    return this.armed.has(point);
  }

  pass(point: FailPoint): void {
    if (this.armed.delete(point)) throw new SimulatedCrash(point);
  }
}
