#!/usr/bin/env node
// `npm start`: installs dependencies if missing, builds, finds or starts PostgreSQL
// and NATS, starts the six services and the gateway, waits until the gateway is
// ready and says how to make a first call. Ctrl-C stops everything it started.
const { spawn } = require('node:child_process');
const fs = require('node:fs');
const https = require('node:https');
const path = require('node:path');
const { ROOT, log, ensureDependencies, build } = require('./lib/workspace');

const SERVICES = ['users', 'accounting', 'promo', 'search', 'rates', 'booking'];
const DATA_DIR = path.resolve(ROOT, process.env.DATA_DIR || '.data');
const PORT = Number(process.env.PORT || 8443);
const HOST = process.env.HOST || '127.0.0.1';
const READY_TIMEOUT_MS = Number(process.env.START_READY_TIMEOUT_MS || 120_000);

const children = new Map();
const cleanups = [];
let stopping = false;

function startApp(name, env, logDir) {
  const logFile = fs.createWriteStream(path.join(logDir, `${name}.log`), { flags: 'a' });
  // APP_NODE_FLAGS passes Node flags to every app, e.g. "--cpu-prof --cpu-prof-dir=/tmp/prof" or
  // "--trace-gc" (Node refuses both in NODE_OPTIONS).
  const nodeFlags = (process.env.APP_NODE_FLAGS ?? '').split(' ').filter(Boolean);
  const child = spawn(process.execPath, [...nodeFlags, path.join(ROOT, 'dist/apps', name, 'src/main.js')], {
    cwd: ROOT,
    env: { ...process.env, ...env },
    stdio: ['ignore', 'pipe', 'pipe'],
  });
  const relay = (stream) => {
    let buffered = '';
    stream.on('data', (chunk) => {
      logFile.write(chunk);
      buffered += chunk.toString('utf8');
      const lines = buffered.split('\n');
      buffered = lines.pop();
      for (const line of lines) {
        // The console shows warnings and errors; every line is in the log file.
        let level = 'error';
        try {
          level = JSON.parse(line).level;
        } catch {
          // not a JSON log line (e.g. a crash trace): show it
        }
        if (['warn', 'error', 'fatal'].includes(level)) process.stderr.write(`[${name}] ${line}\n`);
      }
    });
  };
  relay(child.stdout);
  relay(child.stderr);
  child.on('exit', (code, signal) => {
    children.delete(name);
    logFile.end();
    if (!stopping) {
      log(`${name} exited unexpectedly (${signal ?? `code ${code}`}); see ${path.join(logDir, `${name}.log`)}. Stopping.`);
      shutdown(1);
    }
  });
  children.set(name, child);
}

function checkReady(url) {
  return new Promise((resolve) => {
    const request = https.get(url, { rejectUnauthorized: false, timeout: 3000 }, (response) => {
      response.resume();
      resolve(response.statusCode === 200);
    });
    request.on('error', () => resolve(false));
    request.on('timeout', () => {
      request.destroy();
      resolve(false);
    });
  });
}

async function waitUntilReady(url) {
  const deadline = Date.now() + READY_TIMEOUT_MS;
  while (Date.now() < deadline && !stopping) {
    if (await checkReady(url)) return true;
    await new Promise((resolve) => setTimeout(resolve, 300));
  }
  return false;
}

async function shutdown(code) {
  if (stopping) return;
  stopping = true;
  log('stopping...');
  const exits = [...children.values()].map(
    (child) =>
      new Promise((resolve) => {
        const timer = setTimeout(() => child.kill('SIGKILL'), 10_000);
        child.once('exit', () => {
          clearTimeout(timer);
          resolve();
        });
        child.kill('SIGTERM');
      }),
  );
  await Promise.all(exits);
  for (const cleanup of cleanups.reverse()) {
    try {
      await cleanup();
    } catch (error) {
      log(`cleanup failed: ${error.message}`);
    }
  }
  log('stopped.');
  process.exit(code);
}

async function main() {
  ensureDependencies();
  // START_SKIP_BUILD=1: the caller (the test runner, the benchmark) has just built, and other
  // processes may be running the built apps; a rebuild would rewrite files under them.
  if (process.env.START_SKIP_BUILD !== '1') build({ quiet: false });
  fs.mkdirSync(DATA_DIR, { recursive: true });
  const logDir = path.join(DATA_DIR, 'logs');
  fs.mkdirSync(logDir, { recursive: true });

  process.on('SIGINT', () => shutdown(0));
  process.on('SIGTERM', () => shutdown(0));

  const { resolvePostgres } = require('./lib/postgres');
  const { resolveNats } = require('./lib/nats');
  const postgres = await resolvePostgres(DATA_DIR);
  cleanups.push(postgres.stop);
  log(`PostgreSQL: ${postgres.kind}`);
  const nats = await resolveNats(DATA_DIR);
  cleanups.push(nats.stop);
  log(`NATS: ${nats.kind} (${nats.url})`);

  const common = { DATABASE_URL: postgres.url, NATS_URL: nats.url, LOG_LEVEL: process.env.LOG_LEVEL || 'info' };
  for (const service of SERVICES) startApp(service, common, logDir);
  startApp('gateway', { ...common, PORT: String(PORT), HOST, DATA_DIR }, logDir);

  const base = `https://${['0.0.0.0', '127.0.0.1', '::', '::1'].includes(HOST) ? 'localhost' : HOST}:${PORT}`;
  log(`waiting for ${base}/health/ready ...`);
  if (!(await waitUntilReady(`${base}/health/ready`))) {
    log(`the system did not become ready within ${READY_TIMEOUT_MS / 1000} s; logs are in ${logDir}`);
    return shutdown(1);
  }
  const natsHint = nats.url === 'nats://127.0.0.1:4222' ? '' : `NATS_URL=${nats.url} `;
  process.stdout.write(`
Hotel booking platform is ready.

  Booking API   ${base}/
  Backend API   ${base}/api
  Health        ${base}/health/ready
  PostgreSQL    ${postgres.kind}
  NATS          ${nats.url}
  Logs          ${logDir}/<app>.log (JSON lines)

Create a client (prints its API key, sandbox key and backend token once):
  ${natsHint}npm run --silent admin -- create-client --name "Acme Travel" --credit-limit 10000

First call (-k accepts the generated development certificate):
  curl -k -H "Authorization: Bearer <api_key>" ${base}/me

Press Ctrl-C to stop.
`);
}

main().catch((error) => {
  log(`start failed: ${error instanceof Error ? error.message : error}`);
  shutdown(1);
});
