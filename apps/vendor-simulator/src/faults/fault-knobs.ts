import { OPERATIONS, type HotelbedsOperation } from '@hotel/hotelbeds';
import { SeededRandom, VENDOR_CODES, hash32, type VendorCode } from '../inventory/simulated-inventory';

/**
 * What can go wrong with one vendor's answers, on purpose. Shares are fractions of the
 * requests the knobs apply to, spread evenly and deterministically: a share of 0.25
 * hits the 1st, 5th, 9th… request, 1 hits every one, 0 none (see `ShareCounter`).
 */
export interface FaultKnobs {
  /** Added to every answer, on top of the vendor's own latency. */
  latencyMs: number;
  /** Up to this much more, drawn from a seeded stream (the same sequence after every setting). */
  jitterMs: number;
  /** Answered 500 with the vendor's SYSTEM_ERROR, before anything is done. */
  serverErrorShare: number;
  /** Answered as throttled, before anything is done, with Retry-After. */
  throttleShare: number;
  /** 403 "Developer Over Qps" (the vendor's documented throttle, from its gateway) or a plain 429. */
  throttleStatus: 403 | 429;
  retryAfterSeconds: number;
  /** Done, then answered 200 with a body that is not JSON. */
  malformedShare: number;
  /** Done, then answered `trickleChunkBytes` every `trickleIntervalMs`. */
  trickleShare: number;
  trickleChunkBytes: number;
  trickleIntervalMs: number;
  /** Done (a booking made, a cancellation carried out), then the connection dropped before the answer. */
  loseAnswerShare: number;
  /** The operations (the client's names) the knobs apply to; all when null. */
  operations: HotelbedsOperation[] | null;
}

export const NO_FAULTS: Readonly<FaultKnobs> = Object.freeze({
  latencyMs: 0,
  jitterMs: 0,
  serverErrorShare: 0,
  throttleShare: 0,
  throttleStatus: 403,
  retryAfterSeconds: 1,
  malformedShare: 0,
  trickleShare: 0,
  trickleChunkBytes: 16,
  trickleIntervalMs: 250,
  loseAnswerShare: 0,
  operations: null,
});

export type FaultSettings = Partial<Record<VendorCode, FaultKnobs>>;

export class FaultSettingsError extends Error {
  constructor(readonly problems: string[]) {
    super(problems.join('; '));
  }
}

const OPERATION_NAMES = Object.keys(OPERATIONS) as HotelbedsOperation[];
const SHARES = ['serverErrorShare', 'throttleShare', 'malformedShare', 'trickleShare', 'loseAnswerShare'] as const;
const DURATIONS: Record<'latencyMs' | 'jitterMs' | 'trickleIntervalMs' | 'retryAfterSeconds' | 'trickleChunkBytes', [number, number]> = {
  latencyMs: [0, 120_000],
  jitterMs: [0, 60_000],
  trickleIntervalMs: [1, 60_000],
  retryAfterSeconds: [0, 3600],
  trickleChunkBytes: [1, 65_536],
};

/**
 * Reads fault settings: `{"atlas": {"serverErrorShare": 0.5, "operations": ["availability"]}, …}`.
 * Each vendor named gets exactly these knobs (the others at none); vendors not named are
 * left out of the result. Every problem is named, none is guessed around.
 */
export function parseFaultSettings(value: unknown): FaultSettings {
  const problems: string[] = [];
  if (typeof value !== 'object' || value === null || Array.isArray(value)) throw new FaultSettingsError(['expected an object of vendors']);
  const settings: FaultSettings = {};
  for (const [vendor, given] of Object.entries(value)) {
    if (!(VENDOR_CODES as readonly string[]).includes(vendor)) {
      problems.push(`${vendor}: not a vendor (${VENDOR_CODES.join(', ')})`);
      continue;
    }
    if (typeof given !== 'object' || given === null || Array.isArray(given)) {
      problems.push(`${vendor}: expected an object of knobs`);
      continue;
    }
    const knobs: FaultKnobs = { ...NO_FAULTS };
    for (const [name, setting] of Object.entries(given as Record<string, unknown>)) {
      const where = `${vendor}.${name}`;
      if ((SHARES as readonly string[]).includes(name)) {
        if (typeof setting !== 'number' || !(setting >= 0 && setting <= 1)) problems.push(`${where}: a share from 0 to 1`);
        else knobs[name as (typeof SHARES)[number]] = setting;
      } else if (name in DURATIONS) {
        const [min, max] = DURATIONS[name as keyof typeof DURATIONS];
        if (!Number.isInteger(setting) || (setting as number) < min || (setting as number) > max) problems.push(`${where}: a whole number from ${min} to ${max}`);
        else knobs[name as keyof typeof DURATIONS] = setting as number;
      } else if (name === 'throttleStatus') {
        if (setting !== 403 && setting !== 429) problems.push(`${where}: 403 or 429`);
        else knobs.throttleStatus = setting;
      } else if (name === 'operations') {
        if (setting === null) knobs.operations = null;
        else if (!Array.isArray(setting) || setting.some((operation) => !OPERATION_NAMES.includes(operation as HotelbedsOperation))) {
          problems.push(`${where}: a list of ${OPERATION_NAMES.join(', ')}`);
        } else knobs.operations = [...new Set(setting as HotelbedsOperation[])];
      } else {
        problems.push(`${where}: no such knob`);
      }
    }
    settings[vendor as VendorCode] = knobs;
  }
  if (problems.length > 0) throw new FaultSettingsError(problems);
  return settings;
}

/**
 * Spreads a share of hits evenly over the requests counted: the first request is hit
 * (when the share is above 0), then one every 1/share. Deterministic, so a test knows
 * which request fails.
 */
class ShareCounter {
  private credit: number;

  constructor(private readonly share: number) {
    this.credit = 1 - share;
  }

  next(): boolean {
    if (this.share <= 0) return false;
    this.credit += this.share;
    // A tolerance for the sums of shares such as 0.1 that binary fractions do not hold exactly.
    if (this.credit < 1 - 1e-9) return false;
    this.credit -= 1;
    return true;
  }
}

/** The faults one request meets, decided as it arrives. */
export interface FaultPlan {
  delayMs: number;
  /** Refused before anything is done. */
  refusal?: { kind: 'throttle'; status: 403 | 429; retryAfterSeconds: number } | { kind: 'serverError' };
  /** What happens to the answer once the work is done. */
  answer?: { kind: 'malformed' } | { kind: 'lose' } | { kind: 'trickle'; chunkBytes: number; intervalMs: number };
}

interface VendorFaultState {
  knobs: FaultKnobs;
  jitter: SeededRandom;
  counters: Record<(typeof SHARES)[number], ShareCounter>;
}

/**
 * The fault knobs of every vendor, as set at start (SIMULATOR_FAULTS) and changed at run
 * time (POST /_simulator/faults). Setting a vendor's knobs starts its counters and its
 * jitter stream afresh.
 */
export class FaultBoard {
  private readonly state = {} as Record<VendorCode, VendorFaultState>;

  constructor(
    initial: FaultSettings = {},
    /** Each vendor's own answer time (VENDOR_LATENCY_MS), before any fault. */
    private readonly vendorLatencyMs: Record<VendorCode, number>,
  ) {
    for (const vendor of VENDOR_CODES) this.state[vendor] = this.fresh(vendor, { ...NO_FAULTS });
    this.set(initial);
  }

  set(settings: FaultSettings): void {
    for (const [vendor, knobs] of Object.entries(settings) as [VendorCode, FaultKnobs][]) this.state[vendor] = this.fresh(vendor, knobs);
  }

  /** Every vendor's knobs, and its own latency. */
  snapshot(): Record<VendorCode, FaultKnobs & { vendorLatencyMs: number }> {
    const out = {} as Record<VendorCode, FaultKnobs & { vendorLatencyMs: number }>;
    for (const vendor of VENDOR_CODES) out[vendor] = { ...this.state[vendor].knobs, vendorLatencyMs: this.vendorLatencyMs[vendor] };
    return out;
  }

  /** The faults of one request of `operation` to `vendor` (counters move only for knobs that apply). */
  plan(vendor: VendorCode, operation: HotelbedsOperation | undefined): FaultPlan {
    const { knobs, jitter, counters } = this.state[vendor];
    const applies = operation !== undefined && (knobs.operations === null || knobs.operations.includes(operation));
    if (!applies) return { delayMs: this.vendorLatencyMs[vendor] };
    const plan: FaultPlan = { delayMs: this.vendorLatencyMs[vendor] + knobs.latencyMs + Math.floor(jitter.next() * (knobs.jitterMs + 1)) };
    if (counters.throttleShare.next()) plan.refusal = { kind: 'throttle', status: knobs.throttleStatus, retryAfterSeconds: knobs.retryAfterSeconds };
    else if (counters.serverErrorShare.next()) plan.refusal = { kind: 'serverError' };
    else if (counters.loseAnswerShare.next()) plan.answer = { kind: 'lose' };
    else if (counters.malformedShare.next()) plan.answer = { kind: 'malformed' };
    else if (counters.trickleShare.next()) plan.answer = { kind: 'trickle', chunkBytes: knobs.trickleChunkBytes, intervalMs: knobs.trickleIntervalMs };
    return plan;
  }

  private fresh(vendor: VendorCode, knobs: FaultKnobs): VendorFaultState {
    const counters = Object.fromEntries(SHARES.map((share) => [share, new ShareCounter(knobs[share])])) as VendorFaultState['counters'];
    return { knobs, jitter: new SeededRandom(hash32(vendor, 'fault-jitter')), counters };
  }
}
