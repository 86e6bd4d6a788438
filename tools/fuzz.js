#!/usr/bin/env node
// @ts-check
// `npm run fuzz [-- --runs N --seed S]`: the property-based fuzzing of every route
// (apps/gateway/test/fuzz.e2e-spec.ts) with more runs per route, or another seed,
// than the default run `npm test` makes (300 runs per route, seed 20261124).
const path = require('node:path');
const { spawnSync } = require('node:child_process');
const { parseArgs } = require('node:util');
const { ROOT, NX_ENV, ensureDependencies } = require('./lib/workspace');

const { values: options } = parseArgs({
  options: {
    runs: { type: 'string', default: '1000' },
    seed: { type: 'string', default: String(Date.now() % 2 ** 31) },
  },
});
if (!/^\d+$/.test(options.runs) || !/^-?\d+$/.test(options.seed)) {
  process.stderr.write('usage: npm run fuzz -- [--runs N] [--seed S]\n');
  process.exit(2);
}
ensureDependencies();
process.stderr.write(`[fuzz] ${options.runs} runs per route, seed ${options.seed}\n`);
const jest = spawnSync(
  process.execPath,
  [path.join(ROOT, 'node_modules/jest/bin/jest.js'), '--runTestsByPath', 'apps/gateway/test/fuzz.e2e-spec.ts'],
  { cwd: ROOT, stdio: 'inherit', env: { ...process.env, ...NX_ENV, FUZZ_RUNS: options.runs, FUZZ_SEED: options.seed } },
);
process.exit(jest.status ?? 1);
