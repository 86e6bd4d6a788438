#!/usr/bin/env node
// `npm test`: installs dependencies if missing, type-checks the workspace, builds
// (the start test runs the built apps), lints (ESLint, no warning allowed), then runs
// every Jest test once and ends with one "N passed, N failed" line.
const fs = require('node:fs');
const os = require('node:os');
const path = require('node:path');
const { spawnSync } = require('node:child_process');
const { ROOT, NX_ENV, log, ensureDependencies, build, run } = require('./lib/workspace');

ensureDependencies();
log('type-checking...');
run(process.execPath, [path.join(ROOT, 'node_modules/typescript/bin/tsc'), '-p', 'tsconfig.json', '--noEmit']);
build({ quiet: true });
// After the build: the module-boundary rule reads the Nx project graph the build computed.
log('linting...');
run(process.execPath, [path.join(ROOT, 'node_modules/eslint/bin/eslint.js'), '.', '--max-warnings', '0'], { env: NX_ENV });
log('running tests...');
const report = path.join(fs.mkdtempSync(path.join(os.tmpdir(), 'hotel-jest-')), 'report.json');
const jest = spawnSync(
  process.execPath,
  [path.join(ROOT, 'node_modules/jest/bin/jest.js'), '--json', `--outputFile=${report}`, ...process.argv.slice(2)],
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
}
process.exit(jest.status ?? 1);
