import { Injectable } from '@nestjs/common';
import { FailPoints as ServiceFailPoints, SimulatedCrash } from '@hotel/platform';

export { SimulatedCrash };

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

/** The booking service's fail points: a saga or the events relay stops at the armed one as if killed. */
@Injectable()
export class FailPoints extends ServiceFailPoints<FailPoint> {}
