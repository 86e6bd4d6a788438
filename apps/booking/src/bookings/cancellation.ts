import { CancellationPolicyData, toMilli } from '@hotel/contracts';

/**
 * The penalty for cancelling now: the penalty of the latest
 * period that has started; nothing before the first; never more than was paid.
 * A non-refundable rate's single period starts when it was sold, so it costs
 * the whole price.
 */
export function cancellationPenaltyMilli(periods: CancellationPolicyData[], paidMilli: number, now = new Date()): number {
  let penalty = 0;
  let latestStart = Number.NEGATIVE_INFINITY;
  for (const period of periods) {
    const start = Date.parse(period.from_datetime);
    if (start <= now.getTime() && start >= latestStart) {
      latestStart = start;
      penalty = toMilli(period.price_cancellation_penalty);
    }
  }
  return Math.min(penalty, paidMilli);
}
