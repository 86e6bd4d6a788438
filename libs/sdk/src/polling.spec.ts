import { pollUntilComplete } from './polling';

/** A clock whose sleep moves time on at once. */
function fakeClock() {
  let now = 0;
  const slept: number[] = [];
  return {
    slept,
    now: () => now,
    sleep: async (ms: number) => {
      slept.push(ms);
      now += ms;
    },
  };
}

describe('pollUntilComplete', () => {
  it('asks again every intervalMs until search_completed, and returns that answer', async () => {
    const clock = fakeClock();
    const answers = [{ search_completed: false, n: 2 }, { search_completed: true, n: 3 }];
    const seen: number[] = [];
    const result = await pollUntilComplete({ search_completed: false, n: 1 }, async () => answers.shift()!, { intervalMs: 700, onPoll: (_, polls) => seen.push(polls) }, clock);
    expect(result).toEqual({ search_completed: true, n: 3 });
    expect(clock.slept).toEqual([700, 700]);
    expect(seen).toEqual([1, 2, 3]);
  });

  it('does not poll an answer that is already complete', async () => {
    const clock = fakeClock();
    const next = jest.fn();
    expect(await pollUntilComplete({ search_completed: true }, next, {}, clock)).toEqual({ search_completed: true });
    expect(next).not.toHaveBeenCalled();
  });

  it('returns the last answer when the time is up', async () => {
    const clock = fakeClock();
    let n = 1;
    const result = await pollUntilComplete({ search_completed: false, n }, async () => ({ search_completed: false, n: ++n }), { intervalMs: 500, timeoutMs: 2000 }, clock);
    expect(result).toEqual({ search_completed: false, n: 5 });
    expect(clock.now()).toBe(2000);
  });

  it('stops when its signal aborts', async () => {
    const controller = new AbortController();
    const clock = {
      now: () => 0,
      sleep: (_ms: number, signal?: AbortSignal) => (signal?.aborted ? Promise.reject(signal.reason) : Promise.resolve()),
    };
    const next = jest.fn(async () => {
      controller.abort(new Error('enough'));
      return { search_completed: false };
    });
    await expect(pollUntilComplete({ search_completed: false }, next, { signal: controller.signal }, clock)).rejects.toThrow('enough');
    expect(next).toHaveBeenCalledTimes(1);
  });
});
