// @ts-check
// Jest's test order (jest.config.js `testSequencer`): the longest test files first, so that
// the workers end together instead of one running the slowest file alone at the end.
// Jest orders by the durations it cached on this machine, and without them (a fresh clone,
// as CI runs) by file size, which puts the chaos runs, a short file that takes minutes,
// last. Here a file's duration is Jest's cached one when there is one, else the one
// recorded in test-durations.json (`npm test -- --record-durations` writes it); a file with
// neither, new, goes first, as Jest puts it. A file that failed last time still goes before
// everything, as in Jest's own order. One exception to longest first: the longest system
// test (the chaos runs: the whole platform as 9, then 17 processes, under load) starts
// when the files left after it add up to its own duration on each of the other workers, so
// that it runs beside the shortest files (mostly the unit and service tiers) and every worker
// ends at about the same time. First in line, it ran beside the other system tests and took
// the cores from them: they met their calls' timeouts (503s in CI runs), the fuzz run took
// 210 s instead of 35 and the chaos runs 240 s instead of 150. Last in line, it ran alone
// for three minutes.
const fs = require('node:fs');
const path = require('node:path');
const Sequencer = require('@jest/test-sequencer').default;

const ROOT = path.resolve(__dirname, '../..');
const DURATIONS_FILE = path.join(__dirname, 'test-durations.json');

/** @returns {Record<string, number>} seconds by test file, relative to the workspace */
function recordedDurations() {
  try {
    return JSON.parse(fs.readFileSync(DURATIONS_FILE, 'utf8'));
  } catch {
    return {};
  }
}

/**
 * Jest's cache of this machine's runs, through the sequencer's own methods (public in its
 * JavaScript, private in its typings).
 * @typedef {{ time(test: import('@jest/test-result').Test): number | undefined, hasFailed(test: import('@jest/test-result').Test): boolean }} CachedRuns
 */
/** @param {Sequencer} sequencer @param {import('@jest/test-result').Test} test */
const cachedTime = (sequencer, test) => /** @type {CachedRuns} */ (/** @type {unknown} */ (sequencer)).time(test);
/** @param {Sequencer} sequencer @param {import('@jest/test-result').Test} test */
const cachedFailure = (sequencer, test) => /** @type {CachedRuns} */ (/** @type {unknown} */ (sequencer)).hasFailed(test);

class LongestFirst extends Sequencer {
  /** @param {{ globalConfig?: { maxWorkers?: number } }} options as Jest constructs a sequencer */
  constructor(options) {
    super(/** @type {never} */ (options));
    /** Jest's workers (jest.config.js `maxWorkers`, or --maxWorkers); 2 when not told. */
    this.workers = Math.max(1, options?.globalConfig?.maxWorkers ?? 2);
  }

  /**
   * @param {import('@jest/test-result').Test[]} tests
   * @returns {import('@jest/test-result').Test[]}
   */
  sort(tests) {
    const recorded = recordedDurations();
    /** @param {import('@jest/test-result').Test} test @returns {number} ms, NaN when unknown */
    const durationOf = (test) => cachedTime(this, test) ?? (recorded[path.relative(ROOT, test.path)] ?? NaN) * 1000;
    const keyed = tests.map((test) => ({ test, failed: cachedFailure(this, test), ms: durationOf(test) }));
    keyed.sort((a, b) => {
      if (a.failed !== b.failed) return a.failed ? -1 : 1;
      const knownA = Number.isFinite(a.ms);
      const knownB = Number.isFinite(b.ms);
      if (knownA !== knownB) return knownA ? 1 : -1;
      return knownA ? b.ms - a.ms : a.test.path.localeCompare(b.test.path);
    });
    const ordered = keyed.map(({ test }) => test);
    const system = (/** @type {import('@jest/test-result').Test} */ test) => test.path.endsWith('.e2e-spec.ts');
    const longestSystem = keyed.find(({ test, failed, ms }) => !failed && Number.isFinite(ms) && system(test))?.test;
    if (!longestSystem) return ordered;
    const others = ordered.filter((test) => test !== longestSystem);
    const seconds = (/** @type {import('@jest/test-result').Test} */ test) => {
      const ms = durationOf(test);
      return Number.isFinite(ms) ? ms / 1000 : 0;
    };
    // From the end: as many of the shortest files as keep the other workers busy as long as
    // the chaos runs (never before the files that go first: failed last time, or new).
    const first = new Set(keyed.filter(({ failed, ms }) => failed || !Number.isFinite(ms)).map(({ test }) => test));
    const floor = others.filter((test) => first.has(test)).length;
    const beside = seconds(longestSystem) * Math.max(1, this.workers - 1);
    let at = others.length;
    for (let left = 0; at > floor && left < beside; ) left += seconds(others[--at]);
    return [...others.slice(0, at), longestSystem, ...others.slice(at)];
  }
}

/**
 * The durations file with this run's: every file of Jest's JSON report (`--json`) with its
 * seconds (one decimal), the others kept unless their file is gone.
 * @param {{ testResults: { name: string, startTime: number, endTime: number }[] }} report
 */
function recordDurations(report) {
  /** @type {Record<string, number>} */
  const durations = {};
  for (const [file, seconds] of Object.entries(recordedDurations())) if (fs.existsSync(path.join(ROOT, file))) durations[file] = seconds;
  for (const result of report.testResults) durations[path.relative(ROOT, result.name)] = Math.round((result.endTime - result.startTime) / 100) / 10;
  const sorted = Object.fromEntries(Object.entries(durations).sort(([a], [b]) => a.localeCompare(b)));
  fs.writeFileSync(DURATIONS_FILE, `${JSON.stringify(sorted, null, 2)}\n`);
  return Object.keys(sorted).length;
}

module.exports = LongestFirst;
module.exports.recordDurations = recordDurations;
module.exports.DURATIONS_FILE = DURATIONS_FILE;
