import { DomainError } from '../errors/domain-error';
import { requestContext } from '../logging/request-context';
import { FairScheduler } from './fair-scheduler';

/** A task that runs until released, recording when it started. */
function gatedTask(started: string[], name: string) {
  let release!: () => void;
  const done = new Promise<void>((resolve) => (release = resolve));
  return { task: () => (started.push(name), done.then(() => name)), release: () => release() };
}

const turn = () => new Promise((resolve) => setImmediate(resolve));

describe('FairScheduler', () => {
  it('runs no more than its concurrency at once, and starts the waiting ones as slots free', async () => {
    const scheduler = new FairScheduler(2);
    const started: string[] = [];
    const tasks = ['a1', 'a2', 'a3'].map((name) => gatedTask(started, name));
    const results = tasks.map(({ task }) => scheduler.run('a', task));
    await turn();
    expect(started).toEqual(['a1', 'a2']);
    expect(scheduler.load).toEqual({ running: 2, waiting: 1 });
    tasks[1].release();
    await turn();
    expect(started).toEqual(['a1', 'a2', 'a3']);
    tasks[0].release();
    tasks[2].release();
    await expect(Promise.all(results)).resolves.toEqual(['a1', 'a2', 'a3']);
    expect(scheduler.load).toEqual({ running: 0, waiting: 0 });
  });

  it("takes waiting tasks in turn per key: one key's backlog does not hold up another key's task", async () => {
    const scheduler = new FairScheduler(1);
    const started: string[] = [];
    const flood = ['f1', 'f2', 'f3', 'f4'].map((name) => gatedTask(started, name));
    const floodResults = flood.map(({ task }) => scheduler.run('flood', task));
    const other = gatedTask(started, 'o1');
    const otherResult = scheduler.run('other', other.task);
    const third = gatedTask(started, 't1');
    const thirdResult = scheduler.run('third', third.task);
    for (const gate of [flood[0], flood[1], other, third, flood[2], flood[3]]) {
      await turn();
      gate.release();
    }
    await Promise.all([...floodResults, otherResult, thirdResult]);
    // The flood's key came to wait first, so its turn comes first; then each other key's,
    // then the flood's again. First come first served would have run f1 f2 f3 f4 o1 t1.
    expect(started).toEqual(['f1', 'f2', 'o1', 't1', 'f3', 'f4']);
  });

  it('frees the slot when a task fails', async () => {
    const scheduler = new FairScheduler(1);
    await expect(scheduler.run('a', () => Promise.reject(new Error('boom')))).rejects.toThrow('boom');
    await expect(scheduler.run('a', async () => 'next')).resolves.toBe('next');
    expect(scheduler.load).toEqual({ running: 0, waiting: 0 });
  });

  it('gives up on a waiting task at its deadline or maximum wait, as busy (503 with Retry-After), and runs the next one', async () => {
    const scheduler = new FairScheduler(1);
    const started: string[] = [];
    const first = gatedTask(started, 'first');
    const firstResult = scheduler.run('a', first.task);
    const late = requestContext.run({ requestId: 'late', deadline: Date.now() + 5 }, () => scheduler.run('b', async () => 'never'));
    const impatient = scheduler.run('b', async () => 'never', 5);
    const next = scheduler.run('c', async () => 'next');
    const busy = { code: 'SERVICE_UNAVAILABLE', retryAfterSeconds: 1 } satisfies Partial<DomainError>;
    // Given up while the first task still holds the one slot.
    await expect(late).rejects.toMatchObject(busy);
    await expect(impatient).rejects.toMatchObject(busy);
    expect(scheduler.load).toEqual({ running: 1, waiting: 1 });
    first.release();
    await expect(next).resolves.toBe('next');
    await expect(firstResult).resolves.toBe('first');
    expect(scheduler.load).toEqual({ running: 0, waiting: 0 });
  });

  it('acquire answers a release that frees the slot once, however often it is called', async () => {
    const scheduler = new FairScheduler(1);
    const release = await scheduler.acquire('a');
    const next = scheduler.acquire('b');
    release();
    release();
    const releaseNext = await next;
    expect(scheduler.load).toEqual({ running: 1, waiting: 0 });
    releaseNext();
    expect(scheduler.load).toEqual({ running: 0, waiting: 0 });
  });

  it('refuses a concurrency that is not a positive integer', () => {
    expect(() => new FairScheduler(0)).toThrow(RangeError);
    expect(() => new FairScheduler(1.5)).toThrow(RangeError);
  });
});
