import { currentDeadline } from '../logging/request-context';
import { DomainError } from '../errors/domain-error';

/**
 * Runs expensive tasks at most `concurrency` at a time and takes the waiting ones in
 * turn per key (round robin), not first come first served. Keyed by client, a client's
 * backlog then delays another client's task by about one task per slot, where first come
 * first served would queue it behind the whole backlog. A waiting task gives up, unrun,
 * after its maximum wait or at its request's deadline. The queue is transient and this
 * process's own: each replica orders only the requests it was given.
 */
export class FairScheduler {
  /** Waiting starts per key, in the order keys take their turns (a Map keeps insertion order). */
  private readonly waiting = new Map<string, Array<() => void>>();
  private running = 0;

  constructor(private readonly concurrency: number) {
    if (!Number.isInteger(concurrency) || concurrency < 1) throw new RangeError(`concurrency must be a positive integer, not ${concurrency}`);
  }

  /** Tasks running and waiting now. */
  get load(): { running: number; waiting: number } {
    let waiting = 0;
    for (const starts of this.waiting.values()) waiting += starts.length;
    return { running: this.running, waiting };
  }

  /** Runs the task in its key's turn (see {@link acquire} for `maxWaitMs`); its slot is freed when it settles. */
  async run<T>(key: string, task: () => Promise<T>, maxWaitMs?: number): Promise<T> {
    const release = await this.acquire(key, maxWaitMs);
    try {
      return await task();
    } finally {
      release();
    }
  }

  /**
   * Waits for a slot in the key's turn and answers the function that frees it (calling
   * it again does nothing): for work whose end is not one promise, such as an HTTP answer.
   * Gives up with SERVICE_UNAVAILABLE (503, Retry-After 1) once it has waited `maxWaitMs`
   * or its request's deadline has passed: with the slots held by requests to a service
   * that does not answer, a waiting request would otherwise wait for all of them in turn.
   */
  async acquire(key: string, maxWaitMs?: number): Promise<() => void> {
    if (this.running < this.concurrency && this.waiting.size === 0) this.running++;
    else {
      const deadline = currentDeadline();
      const waitMs = Math.min(maxWaitMs ?? Infinity, deadline === undefined ? Infinity : deadline - Date.now());
      await new Promise<void>((resolve, reject) => {
        let timer: NodeJS.Timeout | undefined;
        const start = () => {
          clearTimeout(timer);
          resolve();
        };
        this.enqueue(key, start);
        if (waitMs !== Infinity) {
          timer = setTimeout(() => {
            this.dequeue(key, start);
            reject(new DomainError('SERVICE_UNAVAILABLE', 'busy: no place for this request in time; retry shortly', undefined, 1));
          }, Math.max(0, waitMs));
        }
      });
    }
    let released = false;
    return () => {
      if (released) return;
      released = true;
      this.startNext();
    };
  }

  private enqueue(key: string, start: () => void): void {
    const starts = this.waiting.get(key);
    if (starts) starts.push(start);
    else this.waiting.set(key, [start]);
  }

  private dequeue(key: string, start: () => void): void {
    const starts = this.waiting.get(key);
    if (!starts) return;
    const at = starts.indexOf(start);
    if (at >= 0) starts.splice(at, 1);
    if (!starts.length) this.waiting.delete(key);
  }

  /** Hands the slot just freed to the first waiting key's oldest task; that key goes to the back of the round. */
  private startNext(): void {
    const first = this.waiting.entries().next();
    if (first.done) {
      this.running--;
      return;
    }
    const [key, starts] = first.value;
    const start = starts.shift()!;
    this.waiting.delete(key);
    if (starts.length) this.waiting.set(key, starts);
    start();
  }
}
