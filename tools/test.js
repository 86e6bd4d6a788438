#!/usr/bin/env node
// `npm test`: installs dependencies if missing, type-checks the workspace, builds
// (the start test runs the built apps), then runs every Jest test once.
const path = require('node:path');
const { ROOT, log, ensureDependencies, build, run } = require('./lib/workspace');

ensureDependencies();
log('type-checking...');
run(process.execPath, [path.join(ROOT, 'node_modules/typescript/bin/tsc'), '-p', 'tsconfig.json', '--noEmit']);
build({ quiet: true });
log('running tests...');
run(process.execPath, [path.join(ROOT, 'node_modules/jest/bin/jest.js'), ...process.argv.slice(2)], {
  env: { NX_DAEMON: 'false' },
});
