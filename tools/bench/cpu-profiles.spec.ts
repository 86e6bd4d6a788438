type Frame = { functionName: string; url: string; lineNumber: number };
type Part = { name: string; ms: number; share: number };
// eslint-disable-next-line @typescript-eslint/no-require-imports -- plain JavaScript of the workspace's commands, not built
const { originOf, summarizeProfile } = require('./cpu-profiles') as {
  originOf(frame: Frame): string;
  summarizeProfile(profile: unknown): { gcShare: number; packages: Part[]; functions: Part[] };
};

describe('the summary of a CPU profile', () => {
  const frame = (functionName: string, url = '', lineNumber = 0) => ({ functionName, url, lineNumber });
  it('names where each frame comes from: a package, our code, Node, V8', () => {
    expect(originOf(frame('query', 'file:///w/node_modules/pg/lib/client.js'))).toBe('pg');
    expect(originOf(frame('x', 'file:///w/node_modules/@nestjs/core/a.js'))).toBe('@nestjs/core');
    expect(originOf(frame('x', 'file:///w/node_modules/a/node_modules/@scope/b/c.js'))).toBe('@scope/b');
    expect(originOf(frame('insert', 'file:///w/dist/apps/booking/src/bookings/bookings.repository.js'))).toBe('app: booking');
    expect(originOf(frame('send', 'file:///w/dist/libs/platform/src/nats/service-client.js'))).toBe('@hotel/platform');
    expect(originOf(frame('emit', 'node:events'))).toBe('node core');
    expect(originOf(frame('(garbage collector)'))).toBe('(garbage collector)');
    expect(originOf(frame('writev'))).toBe('V8 built-ins');
  });

  it('gives self time by package and by function as shares of the time not idle', () => {
    const summary = summarizeProfile({
      nodes: [
        { id: 1, callFrame: frame('(root)'), children: [2, 3, 4, 5] },
        { id: 2, callFrame: frame('(idle)') },
        { id: 3, callFrame: frame('query', 'file:///w/node_modules/pg/lib/client.js', 9) },
        { id: 4, callFrame: frame('(garbage collector)') },
        { id: 5, callFrame: frame('insert', 'file:///w/dist/apps/booking/src/b.js', 0) },
      ],
      // 6 ms idle, then 3 ms in pg, 1 ms collecting garbage, 4 ms in the app
      samples: [2, 3, 3, 4, 5, 5],
      timeDeltas: [6000, 1000, 2000, 1000, 3000, 1000],
      startTime: 0,
      endTime: 14_000,
    });
    expect(summary.gcShare).toBeCloseTo(1 / 8);
    expect(summary.packages.map(({ name, share }) => [name, share])).toEqual([
      ['app: booking', 0.5],
      ['pg', 0.375],
      ['(garbage collector)', 0.125],
    ]);
    expect(summary.functions[0]).toMatchObject({ name: 'insert apps/booking/src/b.js:1', ms: 4 });
    expect(summary.functions[1]).toMatchObject({ name: 'query pg/lib/client.js:10', ms: 3 });
  });
});
