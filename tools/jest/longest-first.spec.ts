import { existsSync, readFileSync } from 'node:fs';
import { join, resolve } from 'node:path';
import type { Test } from '@jest/test-result';

const ROOT = resolve(__dirname, '../..');
// eslint-disable-next-line @typescript-eslint/no-require-imports -- plain JavaScript of the workspace's commands, not built
const LongestFirst = require('./longest-first') as new (options: { globalConfig?: { maxWorkers?: number } }) => { sort(tests: Test[]): Test[] };

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

  it('runs a new file first, then the recorded ones longest first, the longest system test (the chaos runs) where the files after it last as long as it', () => {
    const known = Object.entries(recorded).sort(([, a], [, b]) => b - a).map(([file]) => file);
    const systems = known.filter((file) => file.endsWith('.e2e-spec.ts'));
    const others = known.filter((file) => !file.endsWith('.e2e-spec.ts'));
    const [chaos, longSystem, shortSystem] = [systems[0], systems[1], systems[systems.length - 1]];
    const [longUnit, shortUnit] = [others[0], others[others.length - 1]];
    expect(chaos).toBe('tools/chaos.e2e-spec.ts');
    const files = [shortUnit, shortSystem, longSystem, 'apps/new/unrecorded.spec.ts', chaos, longUnit];
    const order = new LongestFirst({}).sort(files.map(testOf));
    const longestFirst = [longSystem, longUnit, shortSystem, shortUnit].sort((a, b) => recorded[b] - recorded[a]);
    // The four together last less than the chaos runs: all of them run beside it.
    expect(recorded[longSystem] + recorded[longUnit] + recorded[shortSystem] + recorded[shortUnit]).toBeLessThan(recorded[chaos]);
    expect(order.map((test) => test.path)).toEqual(['apps/new/unrecorded.spec.ts', chaos, ...longestFirst].map((file) => join(ROOT, file)));
    // With every recorded file: those after the chaos runs add up to their duration, the first of them (the longest) tipping it.
    const all = new LongestFirst({}).sort(known.map(testOf)).map((test) => test.path);
    const after = all.slice(all.indexOf(join(ROOT, chaos)) + 1).map((path) => recorded[path.slice(ROOT.length + 1)]);
    const total = after.reduce((sum, seconds) => sum + seconds, 0);
    expect(total).toBeGreaterThanOrEqual(recorded[chaos]);
    expect(total - after[0]).toBeLessThan(recorded[chaos]);
  });

  it('with three workers, starts the chaos runs when the files after them add up to twice their duration (the two other workers)', () => {
    const known = Object.keys(recorded);
    const chaos = 'tools/chaos.e2e-spec.ts';
    const afterChaos = (maxWorkers: number) => {
      const all = new LongestFirst({ globalConfig: { maxWorkers } }).sort(known.map(testOf)).map((test) => test.path);
      return all.slice(all.indexOf(join(ROOT, chaos)) + 1).map((path) => recorded[path.slice(ROOT.length + 1)]);
    };
    const after = afterChaos(3);
    const total = after.reduce((sum, seconds) => sum + seconds, 0);
    expect(total).toBeGreaterThanOrEqual(2 * recorded[chaos]);
    expect(total - after[0]).toBeLessThan(2 * recorded[chaos]);
    expect(after.length).toBeGreaterThan(afterChaos(2).length);
  });
});
