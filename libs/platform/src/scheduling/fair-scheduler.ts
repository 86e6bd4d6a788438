import { currentDeadline } from '../logging/request-context';
import { DomainError } from '../errors/domain-error';

/** A task waiting for a place of its class. */
interface Waiting {
  key: string;
  work: string;
  /** Its start tag in virtual time: of the tasks that can go, the one with the lowest goes next. */
  start: number;
  cost: number;
  /** Arrival order, for tasks with the same start tag. */
  order: number;
  begin: () => void;
}

/** Keys remembered past this many: the ones whose turn is not ahead of the others' are forgotten (they are as new). */
const KEYS_REMEMBERED = 1000;
const ONLY_WORK = 'tasks';

/**
 * Runs expensive tasks a few at a time per kind of work (each kind its own number of
 * places) and takes the waiting ones in turn per key, weighted by their cost, across
 * every kind: start-time fair queuing, as Kubernetes API Priority and Fairness orders
 * requests. Each key has a virtual finish time that each of its tasks, of whatever
 * kind, pushes forward by its cost; of the waiting tasks whose kind has a free place,
 * the one with the earliest start goes next. Keyed by client, a client's backlog then
 * delays another client's task by about one task per place, where first come first
 * served would queue it behind the whole backlog; and a client that has had much of one
 * kind (a flood of V2 rates) waits behind one that has had little when both want
 * another (a list page). A waiting task gives up, unrun, after its maximum wait or at
 * its request's deadline. The queue is transient and this process's own: each replica
 * orders only the requests it was given.
 */
export class FairScheduler {
  private readonly places: Map<string, number>;
  private readonly running = new Map<string, number>();
  private readonly waiting: Waiting[] = [];
  /** Each key's virtual finish time: where its next task starts, unless the clock is past it. */
  private readonly finish = new Map<string, number>();
  /** The start tag of the last task begun. */
  private clock = 0;
  private arrivals = 0;

  /** `places`: how many tasks of each kind of work may run at once (a number: one kind). */
  constructor(places: number | Readonly<Record<string, number>>) {
    this.places = new Map(Object.entries(typeof places === 'number' ? { [ONLY_WORK]: places } : places));
    for (const [work, count] of this.places) {
      if (!Number.isInteger(count) || count < 1) throw new RangeError(`the places of ${work} must be a positive integer, not ${count}`);
    }
  }

  /** Tasks running and waiting now, all kinds together. */
  get load(): { running: number; waiting: number } {
    let running = 0;
    for (const count of this.running.values()) running += count;
    return { running, waiting: this.waiting.length };
  }

  /** Runs the task in its key's turn (see {@link acquire}); its place is freed when it settles. */
  async run<T>(key: string, task: () => Promise<T>, options: AcquireOptions = {}): Promise<T> {
    const release = await this.acquire(key, options);
    try {
      return await task();
    } finally {
      release();
    }
  }

  /**
   * Waits for a place of the work's kind in the key's turn and answers the function that
   * frees it (calling it again does nothing): for work whose end is not one promise, such
   * as an HTTP answer. Gives up with SERVICE_UNAVAILABLE (503, Retry-After 1) once it has
   * waited `maxWaitMs` or its request's deadline has passed: with the places held by
   * requests to a service that does not answer, a waiting request would otherwise wait
   * for all of them in turn.
   */
  async acquire(key: string, options: AcquireOptions = {}): Promise<() => void> {
    const work = options.work ?? ONLY_WORK;
    if (!this.places.has(work)) throw new Error(`no places for ${work}`);
    const cost = options.cost ?? 1;
    const start = Math.max(this.clock, this.finish.get(key) ?? 0);
    this.finish.set(key, start + cost);
    if (this.hasRoom(work) && !this.waiting.some((task) => task.work === work)) this.begin(work, start);
    else await this.wait({ key, work, start, cost, order: this.arrivals++, begin: () => undefined }, options.maxWaitMs);
    let released = false;
    return () => {
      if (released) return;
      released = true;
      this.running.set(work, this.running.get(work)! - 1);
      this.startWaiting();
    };
  }

  private hasRoom(work: string): boolean {
    return (this.running.get(work) ?? 0) < this.places.get(work)!;
  }

  private wait(task: Waiting, maxWaitMs: number | undefined): Promise<void> {
    const deadline = currentDeadline();
    const waitMs = Math.min(maxWaitMs ?? Infinity, deadline === undefined ? Infinity : deadline - Date.now());
    return new Promise<void>((resolve, reject) => {
      this.waiting.push(task);
      if (waitMs === Infinity) {
        task.begin = resolve;
        return;
      }
      const timer = setTimeout(() => {
        this.waiting.splice(this.waiting.indexOf(task), 1);
        // A task that never ran gives its key's turn back, if no later task of the key took the next one.
        if (this.finish.get(task.key) === task.start + task.cost) this.finish.set(task.key, task.start);
        reject(new DomainError('SERVICE_UNAVAILABLE', 'busy: no place for this request in time; retry shortly', undefined, 1));
      }, Math.max(0, waitMs));
      task.begin = () => {
        clearTimeout(timer);
        resolve();
      };
    });
  }

  private begin(work: string, start: number) {
    this.running.set(work, (this.running.get(work) ?? 0) + 1);
    this.clock = Math.max(this.clock, start);
    if (this.finish.size > KEYS_REMEMBERED) {
      for (const [key, finish] of this.finish) if (finish <= this.clock) this.finish.delete(key);
    }
  }

  /** Begins waiting tasks while a kind with a waiting task has a free place: the lowest start tag first. */
  private startWaiting(): void {
    for (;;) {
      let next = -1;
      for (let i = 0; i < this.waiting.length; i++) {
        const task = this.waiting[i];
        if (!this.hasRoom(task.work)) continue;
        const best = next < 0 ? undefined : this.waiting[next];
        if (!best || task.start < best.start || (task.start === best.start && task.order < best.order)) next = i;
      }
      if (next < 0) return;
      const [task] = this.waiting.splice(next, 1);
      this.begin(task.work, task.start);
      task.begin();
    }
  }
}

export interface AcquireOptions {
  /** The kind of work (one of the constructor's); the only one if it was given a number. */
  work?: string;
  /** How far the task pushes its key's turn (1 unless said): what it costs, relative to the others. */
  cost?: number;
  /** Gives up after this long waiting (and at the request's deadline in any case). */
  maxWaitMs?: number;
}
