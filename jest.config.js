/**
 * Three tiers, as Jest projects sharing one transform (select with `--selectProjects`,
 * or `npm test -- --tier unit|service|system`):
 * - unit: `*.spec.ts` beside the code, pure logic, seconds;
 * - service: `*.service-spec.ts`, one service with its real repositories and migrations
 *   on a fresh PostgreSQL database and a fake ServiceClient (`startServiceHarness`);
 * - system: `*.e2e-spec.ts`, every service and the gateway on a private NATS server.
 */
const swc = {
  jsc: {
    parser: { syntax: 'typescript', decorators: true },
    transform: { legacyDecorator: true, decoratorMetadata: true },
    target: 'es2022',
    keepClassNames: true,
  },
  module: { type: 'commonjs' },
};

const shared = {
  testEnvironment: 'node',
  rootDir: __dirname,
  roots: ['<rootDir>/apps', '<rootDir>/libs', '<rootDir>/tools'],
  transform: { '^.+\\.ts$': ['@swc/jest', swc] },
  moduleNameMapper: {
    '^@hotel/(contracts|platform|testing|inventory|sdk|hotelbeds)$': '<rootDir>/libs/$1/src/index.ts',
    // An in-process stand-in for a vendor, for tests only: no app's code imports it.
    '^@hotel/inventory/simulated$': '<rootDir>/libs/inventory/src/simulated-supplier.ts',
  },
  setupFiles: ['reflect-metadata'],
};

module.exports = {
  rootDir: __dirname,
  projects: [
    { ...shared, displayName: 'unit', testMatch: ['**/*.spec.ts'] },
    { ...shared, displayName: 'service', testMatch: ['**/*.service-spec.ts'] },
    { ...shared, displayName: 'system', testMatch: ['**/*.e2e-spec.ts'] },
  ],
  // Global options (Jest reads them from here, not from a project).
  testTimeout: 60_000,
  // Three files at a time on two cores: a system test waits on NATS, PostgreSQL and its
  // timers much of its time, so with two workers the cores were idle about a third of the
  // run (32 %, sampled every 10 s); with three, an eighth, and the run took 561 s instead
  // of 697 (docs/engineering/testing.md).
  maxWorkers: 3,
  // The longest files first (recorded durations, for a fresh clone without Jest's cache).
  testSequencer: '<rootDir>/tools/jest/longest-first.js',
};
