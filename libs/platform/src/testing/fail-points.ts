/** What a worker that "died" at a fail point throws: nothing more of its work runs, what it held stays held. */
export class SimulatedCrash extends Error {
  constructor(readonly point: string) {
    super(`simulated crash at ${point}`);
    this.name = 'SimulatedCrash';
  }
}

/**
 * Fail points for crash tests: a test arms one (through Nest DI, never through
 * configuration) and the next worker to pass it stops there as if its process had
 * been killed, leaving recovery to finish the work. Unarmed, a pass is a set lookup.
 * Each service subclasses it with the list of its own points.
 */
export class FailPoints<P extends string> {
  private readonly armed = new Set<P>();
  /** The point a worker of this process died at: the other workers of a "dead" process stop too. */
  crashed: P | null = null;

  arm(point: P): void {
    this.armed.add(point);
  }

  /** Still waiting for a worker to reach it. */
  isArmed(point: P): boolean {
    return this.armed.has(point);
  }

  pass(point: P): void {
    if (this.armed.delete(point)) {
      this.crashed = point;
      throw new SimulatedCrash(point);
    }
  }
}
