#!/usr/bin/env node
// @ts-check
// `npm test [-- --tier unit|service|system ...] [jest arguments]`: installs dependencies
// if missing, type-checks the workspace (its TypeScript, and the JavaScript of tools/ and
// of the finance console, through their JSDoc types), builds (the start test runs the built apps) and
// lints (ESLint, no warning allowed) when the system tier runs, then runs the selected
// tiers' Jest projects once (every tier by default) and ends with one
// "N passed, N failed" line. `--tier` may be given more than once; every other argument
// goes to Jest as is. `--affected[=REF]` runs only the tests a change since REF can break
// (default: where the branch left origin/main, or what is not committed; tools/lib/affected.js
// says how they are chosen), lints only the changed files and builds only when a chosen test
// runs the built platform or is a system test. `--record-durations` writes each test file's
// duration of this run into tools/jest/test-durations.json, the order a fresh clone runs them in.
const fs = require('node:fs');
const os = require('node:os');
const path = require('node:path');
const { spawn, spawnSync } = require('node:child_process');
const { ROOT, NX_ENV, log, ensureDependencies, build, run } = require('./lib/workspace');
const { affectedSince, defaultBase } = require('./lib/affected');

/** The Jest projects of jest.config.js. */
const TIERS = ['unit', 'service', 'system'];
/**
 * What `tsc` checks, one program each: the apps, libs and tools' TypeScript; the tools'
 * JavaScript (JSDoc types, Node); the finance console's browser script (JSDoc types, DOM).
 */
const TSCONFIGS = ['tsconfig.json', 'tsconfig.tools.json', 'tsconfig.console.json'];

/**
 * `--tier X` / `--tier=X` (repeatable) out of the arguments; the rest is Jest's.
 * @param {string[]} argv
 */
function parseArguments(argv) {
  /** @type {string[]} */
  const tiers = [];
  /** @type {string[]} */
  const jestArgs = [];
  /** @type {string | null} */
  let affected = null;
  let recordDurations = false;
  for (let i = 0; i < argv.length; i++) {
    const arg = argv[i];
    let tier;
    if (arg === '--record-durations') {
      recordDurations = true;
      continue;
    }
    if (arg === '--affected' || arg.startsWith('--affected=')) {
      affected = arg.includes('=') ? arg.slice('--affected='.length) : defaultBase();
      continue;
    }
    if (arg === '--tier') tier = argv[++i];
    else if (arg.startsWith('--tier=')) tier = arg.slice('--tier='.length);
    else {
      jestArgs.push(arg);
      continue;
    }
    if (tier === undefined || !TIERS.includes(tier)) {
      log(`--tier takes one of ${TIERS.join(', ')}${tier === undefined ? '' : ` (not "${tier}")`}`);
      process.exit(2);
    }
    if (!tiers.includes(tier)) tiers.push(tier);
  }
  return { tiers: tiers.length ? tiers : TIERS, jestArgs, affected, recordDurations };
}

const { tiers, jestArgs, affected, recordDurations } = parseArguments(process.argv.slice(2));
const everyTier = tiers.length === TIERS.length;

ensureDependencies();
/**
 * With --affected: the chosen test files and the changed files to lint; null: the tiers' every test, and lint everything.
 * @type {{ tests: string[], needsBuild: boolean, lint: string[] } | null}
 */
let selection = null;
if (affected !== null) {
  log(`finding the tests a change since ${affected} can break...`);
  const found = affectedSince(affected);
  log(`${found.changed.length} files changed; ${found.everything ? `every test runs (${found.reason})` : `${found.tests.length} test files affected`}`);
  for (const test of found.everything ? [] : found.tests) log(`  ${test}`);
  if (!found.everything && found.tests.length === 0) {
    log('nothing to run');
    process.exit(0);
  }
  selection = found.everything ? null : { tests: found.tests, needsBuild: found.needsBuild, lint: found.changed.filter((file) => /\.(ts|js|mjs|cjs)$/.test(file) && fs.existsSync(path.join(ROOT, file))) };
}
// The type-check runs beside the build and the lint (its three programs at once): on two
// cores the four take about 26 s together instead of 41 s one after the other.
log('type-checking...');
const typeChecks = TSCONFIGS.map(
  (tsconfig) =>
    new Promise((resolveCheck) => {
      const child = spawn(process.execPath, [path.join(ROOT, 'node_modules/typescript/bin/tsc'), '-p', tsconfig, '--noEmit'], { cwd: ROOT, stdio: 'inherit' });
      child.once('error', (error) => resolveCheck(`${tsconfig}: ${error.message}`));
      child.once('exit', (code) => resolveCheck(code === 0 ? null : `tsc -p ${tsconfig} failed with exit code ${code}`));
    }),
);
// The build is for the system tier (the start test runs the built apps), and the lint
// reads the Nx project graph the build computed: both run when the system tier does
// (as in a whole run), neither for the unit or service tier alone; with --affected, when a
// chosen test is a system test or runs the build, and the lint reads only the changed files.
const needsBuild = selection ? selection.needsBuild : tiers.includes('system');
if (needsBuild) build({ quiet: true });
if (selection ? selection.lint.length > 0 : tiers.includes('system')) {
  log('linting...');
  run(process.execPath, [path.join(ROOT, 'node_modules/eslint/bin/eslint.js'), ...(selection ? selection.lint : ['.']), '--max-warnings', '0'], { env: NX_ENV });
}

/** Once the type-check has passed: Jest, then its one-line summary. */
async function testAfterTypeCheck() {
  const typeErrors = (await Promise.all(typeChecks)).filter(Boolean);
  if (typeErrors.length) {
    for (const error of typeErrors) log(String(error));
    process.exit(2);
  }
  log(`running tests (${selection ? `${selection.tests.length} affected files` : everyTier ? 'every tier' : `tier ${tiers.join(', ')}`})...`);
  const report = path.join(fs.mkdtempSync(path.join(os.tmpdir(), 'hotel-jest-')), 'report.json');
  // --selectProjects comes last: it takes every value after it, which would swallow a test path.
  const projects = everyTier ? [] : ['--selectProjects', ...tiers];
  const paths = selection ? ['--runTestsByPath', ...selection.tests] : [];
  const jest = spawnSync(
    process.execPath,
    [path.join(ROOT, 'node_modules/jest/bin/jest.js'), '--json', `--outputFile=${report}`, ...jestArgs, ...paths, ...projects],
    { cwd: ROOT, stdio: 'inherit', env: { ...process.env, ...NX_ENV } },
  );
  let summary = null;
  try {
    summary = JSON.parse(fs.readFileSync(report, 'utf8'));
  } catch {
    // Jest did not get as far as writing its report; its exit code says why.
  }
  if (summary) {
    const skipped = summary.numPendingTests + summary.numTodoTests;
    process.stdout.write(
      `\ntests: ${summary.numPassedTests} passed, ${summary.numFailedTests} failed${skipped ? `, ${skipped} skipped` : ''}\n`,
    );
    if (recordDurations) {
      const { recordDurations: record, DURATIONS_FILE } = require('./jest/longest-first');
      log(`recorded the durations of ${record(summary)} test files in ${path.relative(ROOT, DURATIONS_FILE)}`);
    }
  }
  process.exit(jest.status ?? 1);
}

testAfterTypeCheck().catch((error) => {
  log(String(error));
  process.exit(1);
});
