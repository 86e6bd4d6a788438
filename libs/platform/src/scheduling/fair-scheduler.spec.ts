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
    // The flood has had its turn (f1): each other key's comes before its next.
    // First come first served would have run f1 f2 f3 f4 o1 t1.
    expect(started).toEqual(['f1', 'o1', 't1', 'f2', 'f3', 'f4']);
  });

  it('gives a key whose tasks cost 2 half the turns of one whose tasks cost 1', async () => {
    const scheduler = new FairScheduler(1);
    const started: string[] = [];
    const first = gatedTask(started, 'first');
    const firstResult = scheduler.run('first', first.task, { cost: 2 });
    const heavy = Array.from({ length: 4 }, (_, i) => gatedTask(started, `h${i}`));
    const light = Array.from({ length: 8 }, (_, i) => gatedTask(started, `l${i}`));
    const results = [...heavy.map(({ task }) => scheduler.run('heavy', task, { cost: 2 })), ...light.map(({ task }) => scheduler.run('light', task))];
    expect(scheduler.load).toEqual({ running: 1, waiting: 12 });
    // Each waiting task ends as soon as it begins: they go one after another in their turns.
    for (const gate of [...heavy, ...light]) gate.release();
    first.release();
    await Promise.all([firstResult, ...results]);
    // While both wait, two light tasks for each heavy one.
    expect(started).toEqual(['first', 'h0', 'l0', 'l1', 'h1', 'l2', 'l3', 'h2', 'l4', 'l5', 'h3', 'l6', 'l7']);
    expect(scheduler.load).toEqual({ running: 0, waiting: 0 });
  });

  it("counts a key's turns across kinds of work, each kind with its own places: one kind full never holds up another", async () => {
    const scheduler = new FairScheduler({ pages: 1, rates: 2 });
    const started: string[] = [];
    // The flood has two rates requests running and one waiting, and a page running and one waiting.
    const rates = ['r1', 'r2', 'r3'].map((name) => gatedTask(started, name));
    const rateResults = rates.map(({ task }) => scheduler.run('flood', task, { work: 'rates' }));
    const pages = ['p1', 'p2'].map((name) => gatedTask(started, name));
    const pageResults = pages.map(({ task }) => scheduler.run('flood', task, { work: 'pages' }));
    await turn();
    expect(started).toEqual(['r1', 'r2', 'p1']);
    // Another client's page waits for the one page place only, and goes before the flood's
    // second page, which came first: the flood has had its turns, of rates and of pages.
    const other = gatedTask(started, 'o1');
    const otherResult = scheduler.run('other', other.task, { work: 'pages' });
    pages[0].release();
    await turn();
    expect(started).toEqual(['r1', 'r2', 'p1', 'o1']);
    other.release();
    await turn();
    expect(started).toEqual(['r1', 'r2', 'p1', 'o1', 'p2']);
    for (const gate of [...rates, ...pages]) gate.release();
    await Promise.all([...rateResults, ...pageResults, otherResult]);
    expect(started).toEqual(['r1', 'r2', 'p1', 'o1', 'p2', 'r3']);
    await expect(scheduler.acquire('x', { work: 'exports' })).rejects.toThrow(/no places for exports/);
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
    const impatient = scheduler.run('b', async () => 'never', { maxWaitMs: 5 });
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

  it('refuses a number of places that is not a positive integer', () => {
    expect(() => new FairScheduler(0)).toThrow(RangeError);
    expect(() => new FairScheduler(1.5)).toThrow(RangeError);
    expect(() => new FairScheduler({ pages: 2, rates: 0 })).toThrow(RangeError);
  });
});
