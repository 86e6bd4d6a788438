#!/usr/bin/env node
// @ts-check
// `npm run --silent admin -- <command>`: the operators' command line (apps/admin).
// Builds it first when needed, quietly, so stdout stays one JSON object.
const fs = require('node:fs');
const path = require('node:path');
const { ROOT, ensureDependencies, run } = require('./lib/workspace');

const entry = path.join(ROOT, 'dist/apps/admin/src/main.js');
if (!fs.existsSync(entry)) {
  ensureDependencies();
  run(process.execPath, [path.join(ROOT, 'tools/build.js'), 'libs/contracts', 'libs/platform', 'apps/admin'], {
    stdio: ['ignore', 'ignore', 'inherit'],
  });
}
require(entry);
