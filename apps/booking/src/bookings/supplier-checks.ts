/** Checks at the first cadence before backing off: two minutes at the default 10 s. */
const STEADY_CHECKS = 12;
/** The longest wait between two checks of a pending booking. */
const MAX_WAIT_S = 15 * 60;

/**
 * When to ask a vendor again about a booking it accepted without confirming, after
 * `checks` checks: every `cadenceS` at first (vendors that confirm on request usually
 * do within a few minutes, and a partner is waiting), then twice as long each time,
 * up to 15 minutes.
 */
export function secondsToNextSupplierCheck(checks: number, cadenceS: number): number {
  if (checks < STEADY_CHECKS) return cadenceS;
  return Math.min(MAX_WAIT_S, cadenceS * 2 ** (checks - STEADY_CHECKS + 1));
}
