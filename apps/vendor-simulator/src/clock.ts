/** The simulator's time: signatures, price steps, booking dates and pending confirmations all read it (tests move it). */
export interface SimulatorClock {
  /** Milliseconds since the Unix epoch. */
  now(): number;
}

export const SIMULATOR_CLOCK = Symbol('SIMULATOR_CLOCK');

export const SYSTEM_CLOCK: SimulatorClock = { now: () => Date.now() };
