import { existsSync, readFileSync } from 'node:fs';
import { join, resolve } from 'node:path';
import type { Test } from '@jest/test-result';

const ROOT = resolve(__dirname, '../..');
// eslint-disable-next-line @typescript-eslint/no-require-imports -- plain JavaScript of the workspace's commands, not built
const LongestFirst = require('./longest-first') as new (options: unknown) => { sort(tests: Test[]): Test[] };

/** A test file as Jest hands it to the sequencer, with Jest's cache off (so only the recorded durations count). */
const testOf = (file: string) => ({ path: join(ROOT, file), context: { config: { cache: false }, hasteFS: { getSize: () => 0 } } }) as unknown as Test;

describe('the test order (tools/jest/longest-first.js)', () => {
  const recorded = JSON.parse(readFileSync(join(__dirname, 'test-durations.json'), 'utf8')) as Record<string, number>;

  it('has a duration for the slow test files, each an existing test file', () => {
    const files = Object.keys(recorded);
    expect(files.length).toBeGreaterThan(100);
    expect(files.filter((file) => !existsSync(join(ROOT, file)) || !/\.(spec|service-spec|e2e-spec)\.ts$/.test(file))).toEqual([]);
    expect(recorded['tools/chaos.e2e-spec.ts']).toBeGreaterThan(60);
  });

  it('runs a new file first, then the recorded ones longest first', () => {
    const known = Object.entries(recorded).sort(([, a], [, b]) => b - a).map(([file]) => file);
    const [longest, middle] = [known[0], known[Math.floor(known.length / 2)]];
    const shortest = known[known.length - 1];
    const order = new LongestFirst({}).sort([testOf(shortest), testOf(middle), testOf('apps/new/unrecorded.spec.ts'), testOf(longest)]);
    expect(order.map((test) => test.path)).toEqual([join(ROOT, 'apps/new/unrecorded.spec.ts'), join(ROOT, longest), join(ROOT, middle), join(ROOT, shortest)]);
  });
});
