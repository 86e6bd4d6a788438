#!/usr/bin/env node
// @ts-check
// `npm run chaos [-- --rounds N --short --duration-s S ...]`: fault injection. Starts
// the platform from dist/ as separate processes on its own NATS server and a scratch
// database reached through a TCP proxy, drives booking load, and in each round
// breaks one thing (SIGKILL of an app, a NATS restart, a PostgreSQL cut), lets the
// platform repair itself, stops the load, waits for every booking to end and then
// checks money, promo codes, allotments, answers and the booking events (on the stream
// once, delivered to a webhook receiver) against each other. With --cluster it runs the
// production layout (three NATS nodes, two replicas of every app) and takes away a node
// or a replica in each round. Prints a table and every violation; exits 1 if there was
// any. See docs/engineering/chaos.md.
const fs = require('node:fs');
const os = require('node:os');
const path = require('node:path');
const { parseArgs } = require('node:util');
const { ensureDependencies, build } = require('./lib/workspace');
const { waitUntil200 } = require('./lib/https');
const { startPlatform } = require('./chaos/platform');
const { faultKinds } = require('./chaos/faults');
const { Load, Recorder } = require('./chaos/load');
const { eventViolations } = require('./chaos/events');
const { coverage, runSqlChecks, waitForSagas, httpViolations, answerViolations, balanceViolations, logViolations } = require('./chaos/checks');

/** What --short --cluster takes away: the stream's leader, a service replica, a gateway. */
const SHORT_CLUSTER_ROUNDS = ['kill nats leader', 'kill booking@2', 'kill gateway@2'];

const USAGE = `usage: node tools/chaos.js [--cluster] [--rounds N] [--short] [--duration-s S] [--loops N] [--only TEXT,...] [--margin-s M] [--seed N] [--keep]

  --cluster       the production layout (three NATS nodes, two replicas of every app, two gateways
                  behind a balancer); each round takes away a NATS node or one replica of an app
  --rounds N      passes over every fault kind (default 1), after a baseline round without a fault
  --short         one pass with short load phases (2 s), for CI; with --cluster, only the rounds
                  ${SHORT_CLUSTER_ROUNDS.join(', ')}
  --duration-s S  seconds of load before each fault and again after the platform is ready (default 8)
  --loops N       concurrent booking loops, spread over the 3 clients (default 12)
  --only TEXT,..  only the faults whose name contains one of these (e.g. booking,nats)
  --margin-s M    seconds allowed on top of SAGA_LEASE_S + RECOVERY_INTERVAL_MS for every booking to end (default 5)
  --seed N        the load's random choices (default: random, printed)
  --keep          keep the database and the work directory (logs) at the end`;

function options() {
  let parsed;
  try {
    parsed = parseArgs({
      options: {
        cluster: { type: 'boolean', default: false },
        rounds: { type: 'string', default: '1' },
        short: { type: 'boolean', default: false },
        'duration-s': { type: 'string' },
        loops: { type: 'string', default: '12' },
        only: { type: 'string' },
        'margin-s': { type: 'string', default: '5' },
        seed: { type: 'string' },
        keep: { type: 'boolean', default: false },
        help: { type: 'boolean', default: false },
      },
    }).values;
  } catch (error) {
    process.stderr.write(`${error.message}\n${USAGE}\n`);
    process.exit(2);
  }
  if (parsed.help) {
    process.stdout.write(`${USAGE}\n`);
    process.exit(0);
  }
  /**
   * @param {string} flag
   * @param {string} value
   * @param {number} min
   */
  const number = (flag, value, min) => {
    const n = Number(value);
    if (!Number.isFinite(n) || n < min) {
      process.stderr.write(`--${flag} must be a number ≥ ${min}\n${USAGE}\n`);
      process.exit(2);
    }
    return n;
  };
  return {
    rounds: parsed.short ? 1 : number('rounds', parsed.rounds, 1),
    durationS: number('duration-s', parsed['duration-s'] ?? (parsed.short ? '2' : '8'), 0),
    loops: number('loops', parsed.loops, 1),
    only: parsed.only ? parsed.only.split(',').map((text) => text.trim()).filter(Boolean) : parsed.short && parsed.cluster ? SHORT_CLUSTER_ROUNDS : null,
    cluster: parsed.cluster,
    marginS: number('margin-s', parsed['margin-s'], 0),
    seed: parsed.seed !== undefined ? number('seed', parsed.seed, 0) : Math.floor(Math.random() * 1e6),
    keep: parsed.keep,
    short: parsed.short,
  };
}

/** @type {import('./chaos/platform').ChaosConfig} */
const CONFIG = {
  leaseS: 3,
  recoveryIntervalMs: 1000,
  rpcTimeoutMs: 3000,
  restartDelayMs: 3000,
  natsDownMs: 2000,
  clusterNatsDownMs: 8000,
  postgresCutMs: 4000,
  vendorFaultMs: 5000,
  // Four account currencies: no decimals (JPY), two (USD, EUR), three (KWD); every
  // money invariant is checked per client, so per currency.
  clients: [
    { name: 'Chaos Large', creditLimit: 10_000_000, currency: 'USD' },
    { name: 'Chaos Yen', creditLimit: 40_000_000, currency: 'JPY' },
    { name: 'Chaos Dinar', creditLimit: 90_000, currency: 'KWD' },
    // Low enough that some account bookings fail with INSUFFICIENT_FUNDS.
    { name: 'Chaos Tight', creditLimit: 3000, currency: 'EUR' },
  ],
  /** Exchange rates of today (EUR per unit as the ECB writes them), imported at start: the shipped snapshot has no KWD. */
  fxRates: { USD: '1.0975', JPY: '117.92', GBP: '0.88878', KWD: '0.3378' },
  promos: [
    { code: 'CHAOSFREE', args: ['--percent', '100'] },
    { code: 'CHAOS25', args: ['--amount', '25'] },
    { code: 'CHAOSFEW', args: ['--percent', '10', '--max-uses', '3'] },
  ],
};

/** @typedef {import('./chaos/platform').Platform} Platform */
/** @typedef {import('./chaos/checks').Violation} Violation */
/** @typedef {import('./chaos/checks').Waited & { since: number }} Waited */
/** @typedef {ReturnType<typeof options>} Options */
/** @typedef {{ platform: Platform, load: Load, opts: Options, boundMs: number }} Context */
/** @typedef {{ name: string, describe?: string, inject: ((platform: Platform) => Promise<void>) | null }} Round */

/** How long, once every saga has ended, the events may take to be published and delivered (a killed relay or dispatcher hands over after its lease). */
const EVENTS_WAIT_MS = 30_000;

/**
 * In the cluster layout, how long after a node or a replica is lost a request may still meet
 * 503 or no answer. A node's JetStream leaderships (the rate limits' bucket, which fails
 * closed) move once a follower's election timer runs out, 4 to 9 s after the last heartbeat
 * by nats-server's defaults, then a vote; a replica's requests in flight end at the RPC timeout.
 */
const CLUSTER_UNAVAILABLE_MS = 12_000;

/** @param {string} message */
const log = (message) => process.stderr.write(`[chaos] ${message}\n`);
/** @param {number} ms */
const sleep = (ms) => new Promise((resolve) => setTimeout(resolve, ms));
/** @param {number} ms */
const seconds = (ms) => (ms / 1000).toFixed(1);

/** What to undo at the end, in reverse order. @type {(() => unknown)[]} */
const cleanups = [];
/** @type {Promise<void> | null} */
let cleaning = null;
let interrupted = false;
function cleanup() {
  cleaning ??= (async () => {
    for (const step of cleanups.reverse()) {
      try {
        await step();
      } catch (error) {
        log(`cleanup: ${error.message}`);
      }
    }
  })();
  return cleaning;
}

/**
 * "503 SERVICE_UNAVAILABLE ×12" per status and code of the answers that were not 2xx.
 * @param {import('./chaos/load').HttpRecord[]} records
 */
function errorSummary(records) {
  /** @type {Map<string, number>} */
  const counts = new Map();
  for (const record of records) {
    if (record.status > 0 && record.status < 400) continue;
    const key = record.status === 0 ? `no answer ${record.code}` : `${record.status} ${record.code}`;
    counts.set(key, (counts.get(key) ?? 0) + 1);
  }
  return [...counts.entries()].sort(([a], [b]) => a.localeCompare(b)).map(([key, count]) => `${key} ×${count}`);
}

/**
 * When, counted from the fault, the first and the last request met the platform unavailable
 * (503, or no answer): "1.2-6.4", or "-" when none did.
 * @param {import('./chaos/load').HttpRecord[]} records
 * @param {number} from
 */
function unavailableSpan(records, from) {
  const failed = records.filter((record) => (record.status === 503 || record.status === 0) && record.endedAt >= from);
  if (failed.length === 0) return { text: '-', lastMs: 0 };
  const first = Math.min(...failed.map((record) => record.endedAt)) - from;
  const last = Math.max(...failed.map((record) => record.endedAt)) - from;
  return { text: `${seconds(first)}-${seconds(last)}`, lastMs: last };
}

/**
 * A violation naming the bookings still under way when the bound had passed, and how they stand now.
 * @param {import('pg').Client} sql
 * @param {string} name
 * @param {string} rule
 * @param {Waited} waited
 * @param {number} boundMs
 * @returns {Promise<Violation[]>}
 */
async function lateBookings(sql, name, rule, waited, boundMs) {
  if (waited.endedAt !== null && waited.endedAt - waited.since <= boundMs) return [];
  const pending = waited.pendingAtBound ?? [];
  const { rows: now } = await sql.query(`SELECT id, status, step FROM booking.bookings WHERE id = ANY($1)`, [pending.map((row) => row.id)]);
  const nowOf = new Map(now.map((row) => [row.id, `${row.status}/${row.step}`]));
  return [
    {
      name,
      rule,
      rows: pending.map((row) => ({
        id: row.id,
        client_id: row.client_id,
        payment_method: row.payment_method,
        promo_code: row.promo_code,
        at_bound: `${row.status}/${row.step}`,
        [waited.endedAt === null ? 'never_ended' : 'ended_later']: nowOf.get(row.id),
        created_s_before: seconds(waited.since - row.created_at.getTime()),
      })),
    },
  ];
}

/**
 * @param {Context} context
 * @param {Round} round
 * @param {number} index
 * @param {number} total
 */
async function runRound(context, round, index, total) {
  const { platform, load, opts, boundMs } = context;
  const { sql } = platform;
  const label = `round ${index}/${total} (${round.name})`;
  const recorder = new Recorder();
  /** @type {string[]} */
  const exits = [];
  /** @param {{ name: string, code: number | null, signal: string | null, expected: boolean }} event the supervisor's 'exit' */
  const onExit = (event) => {
    if (!event.expected) exits.push(`${event.name} ${event.signal ?? `code ${event.code}`}`);
  };
  platform.supervisor.on('exit', onExit);
  const roundStart = Date.now();
  log(`${label}: load for ${opts.durationS} s`);
  load.start(recorder);
  await sleep(opts.durationS * 1000);

  /** @type {Violation[]} */
  const violations = [];
  /** @type {{ from: number, to: number } | null} */
  let faultWindow = null;
  /** @type {number | null} */
  let readyS = null;
  /** @type {Promise<Waited> | null} */
  let recovery = null;
  const maxWaitMs = boundMs + 30_000;
  if (round.inject) {
    log(`${label}: ${round.describe}`);
    const from = Date.now();
    await round.inject(platform);
    const ready = await waitUntil200(`${platform.gateway}/health/ready`, 90_000);
    const readyAt = Date.now();
    readyS = (readyAt - from) / 1000;
    // Requests under way when the platform was ready again may still meet the fault's effects.
    faultWindow = { from, to: readyAt + CONFIG.rpcTimeoutMs + 2000 };
    if (!ready) violations.push({ name: 'ready_again_after_fault', rule: '/health/ready answers 200 within 90 s of the repair', rows: [{ waited_s: seconds(readyAt - from) }] });
    log(`${label}: ready again ${seconds(readyAt - from)} s after the fault began; load for ${opts.durationS} s more`);
    // Every booking made before or during the fault ends within the bound once the platform is back.
    recovery = waitForSagas(sql, { since: readyAt, boundMs, maxWaitMs, createdBefore: readyAt }).then((waited) => ({ ...waited, since: readyAt }));
    await sleep(opts.durationS * 1000);
  }

  await load.stop();
  const stoppedAt = Date.now();
  log(`${label}: load stopped after ${recorder.records.length} requests; waiting for every booking to end`);
  // Quiet: every saga ended, nothing written for a second, and a request the gateway gave up on has had time to arrive.
  const quiet = { ...(await waitForSagas(sql, { since: stoppedAt, boundMs, maxWaitMs, stillMs: 1000, settleMs: CONFIG.rpcTimeoutMs })), since: stoppedAt };
  const recovered = recovery ? await recovery : null;
  /** @param {Waited | null} waited */
  const span = (waited) => (waited && waited.endedAt !== null ? (waited.endedAt - waited.since) / 1000 : null);
  const bound = `within ${seconds(boundMs)} s (SAGA_LEASE_S + RECOVERY_INTERVAL_MS + margin)`;
  if (recovered) {
    violations.push(...(await lateBookings(sql, 'fault_bookings_end_within_bound', `every booking made before the platform was ready again ends ${bound} of that`, recovered, boundMs)));
  }
  violations.push(...(await lateBookings(sql, 'bookings_end_within_bound', `every booking is confirmed, failed or cancelled ${bound} of the load stopping`, quiet, boundMs)));
  log(`${label}: ${quiet.endedAt === null ? 'bookings still under way' : `every booking ended ${seconds(quiet.endedAt - stoppedAt)} s after the load stopped`}; checking`);
  const sqlChecks = await runSqlChecks(sql);
  violations.push(
    ...sqlChecks.violations,
    ...(await eventViolations(sql, platform.stream, platform.receiver.received, EVENTS_WAIT_MS)),
    ...httpViolations(recorder.records, faultWindow, roundStart),
    ...(await answerViolations(sql, load.answers)),
    ...(await balanceViolations(sql, platform.gateway, platform.clients)),
  );
  // With two of everything, losing one part is not an outage: what it held fails, and only briefly.
  const unavailable = faultWindow ? unavailableSpan(recorder.records, faultWindow.from) : null;
  if (opts.cluster && unavailable && unavailable.lastMs > CLUSTER_UNAVAILABLE_MS) {
    violations.push({ name: 'cluster_unavailable_briefly', rule: `with a NATS node or a replica lost, 503 or no answer only within ${seconds(CLUSTER_UNAVAILABLE_MS)} s of the loss`, rows: [{ unavailable_s: unavailable.text }] });
  }
  platform.supervisor.off('exit', onExit);
  log(`${label}: ${violations.length ? `${violations.length} checks violated` : 'all checks hold'}`);
  return {
    index,
    fault: round.name,
    requests: recorder.records.length,
    booked: recorder.records.filter((record) => (record.op === 'book' || record.op === 'v2_book') && record.status === 201).length,
    errors: errorSummary(recorder.records),
    unavailable: unavailable?.text ?? null,
    readyS,
    recoverS: round.inject ? span(recovered) : undefined,
    settleS: span(quiet),
    exits,
    violations,
    skipped: sqlChecks.skipped,
  };
}

/**
 * A text table; a cell may be a list of lines.
 * @param {string[]} headers
 * @param {(string | string[])[][]} rows
 */
function renderTable(headers, rows) {
  const cells = rows.map((row) => row.map((cell) => (Array.isArray(cell) ? (cell.length ? cell : ['-']) : [String(cell)])));
  const widths = headers.map((header, column) => Math.max(header.length, ...cells.map((row) => Math.max(...row[column].map((line) => line.length)))));
  /** @param {string[]} values */
  const line = (values) => values.map((value, column) => value.padEnd(widths[column])).join(' | ').trimEnd();
  const out = [line(headers), widths.map((width) => '-'.repeat(width)).join('-|-')];
  for (const row of cells) {
    const height = Math.max(...row.map((cell) => cell.length));
    for (let i = 0; i < height; i++) out.push(line(row.map((cell) => cell[i] ?? '')));
  }
  return out.join('\n');
}

/**
 * The table, then each violation's rows the first time they appear (later rounds say how many are new).
 * @param {Awaited<ReturnType<typeof runRound>>[]} results
 * @param {Context} context
 * @param {string} made what the run made (checks.coverage)
 */
function report(results, context, made) {
  /** @type {Map<string, Set<string>>} */
  const seen = new Map();
  /** @type {string[]} */
  const details = [];
  const rows = results.map((result) => {
    /** @type {string[]} */
    const names = [];
    for (const violation of result.violations) {
      const known = seen.get(violation.name) ?? new Set();
      seen.set(violation.name, known);
      const fresh = violation.rows.filter((row) => !known.has(JSON.stringify(row)));
      for (const row of fresh) known.add(JSON.stringify(row));
      names.push(`${violation.name} (${violation.rows.length}${fresh.length < violation.rows.length ? `, ${fresh.length} new` : ''})`);
      if (fresh.length) {
        details.push(`round ${result.index} (${result.fault}) — ${violation.name}: ${violation.rule}`);
        for (const row of fresh.slice(0, 10)) details.push(`    ${JSON.stringify(row)}`);
        if (fresh.length > 10) details.push(`    … ${fresh.length - 10} more`);
      }
    }
    return [
      String(result.index),
      result.fault,
      String(result.requests),
      String(result.booked),
      result.errors,
      result.unavailable ?? '-',
      result.readyS === null ? '-' : result.readyS.toFixed(1),
      result.recoverS === undefined ? '-' : result.recoverS === null ? 'never' : result.recoverS.toFixed(1),
      result.settleS === null ? 'never' : result.settleS.toFixed(1),
      result.exits,
      names.length ? names : ['none'],
    ];
  });
  const { opts, boundMs } = context;
  const lines = [
    '',
    `npm run chaos${opts.cluster ? ' --cluster' : ''} — ${results.length} rounds, ${opts.loops} load loops over ${CONFIG.clients.length} clients, ${opts.durationS} s load before and after each fault, ` +
      `SAGA_LEASE_S=${CONFIG.leaseS}, RECOVERY_INTERVAL_MS=${CONFIG.recoveryIntervalMs}, bound ${seconds(boundMs)} s, seed ${opts.seed}`,
    '',
    made,
    '',
    renderTable(['#', 'fault', 'requests', 'booked', 'errors (status code ×n)', 'unavailable s', 'ready s', 'recover s', 'settle s', 'exits', 'violations (rows)'], rows),
    '',
  ];
  const skipped = [...new Set(results.flatMap((result) => result.skipped))];
  if (skipped.length) lines.push(`skipped checks: ${skipped.join('; ')}`, '');
  lines.push(details.length ? `violations:\n${details.join('\n')}` : 'violations: none', '');
  return lines.join('\n');
}

async function main() {
  const opts = options();
  /** @param {number} code */
  const interrupt = (code) => () => {
    interrupted = true;
    log('interrupted: cleaning up');
    void cleanup().then(() => process.exit(code));
  };
  process.on('SIGINT', interrupt(130));
  process.on('SIGTERM', interrupt(143));
  ensureDependencies();
  if (process.env.CHAOS_SKIP_BUILD !== '1' && process.env.START_SKIP_BUILD !== '1') build({ quiet: true });

  const workDir = fs.mkdtempSync(path.join(os.tmpdir(), 'hotel-chaos-'));
  // An embedded PostgreSQL runs as the OS user postgres, which must reach the directory.
  fs.chmodSync(workDir, 0o755);
  let keepWorkDir = opts.keep;
  cleanups.push(() => (keepWorkDir ? log(`kept ${workDir}`) : fs.rmSync(workDir, { recursive: true, force: true })));
  const started = Date.now();
  log(`work directory ${workDir}; seed ${opts.seed}`);
  const platform = await startPlatform({ workDir, config: CONFIG, cleanups, log, keepDatabase: opts.keep, cluster: opts.cluster });

  const kinds = faultKinds(CONFIG, { cluster: opts.cluster }).filter((kind) => !opts.only || opts.only.some((text) => kind.name.includes(text)));
  /** @type {Round[]} */
  const rounds = [{ name: 'none (baseline)', inject: null }];
  for (let pass = 0; pass < opts.rounds; pass++) rounds.push(...kinds);
  const load = new Load({
    gateway: platform.gateway,
    clients: platform.clients,
    promoCodes: CONFIG.promos.map((promo) => promo.code),
    loops: opts.loops,
    seed: opts.seed,
    runId: `c${opts.seed}`,
  });
  // A warm-up the checks do not see: a platform just started (eight processes on a small
  // machine, cold caches) may answer its very first searches after the call timeout, which
  // says nothing about faults. Its bookings are real and are checked with everything else.
  // Until a booking has gone all the way through (its path is the coldest), 30 s at most.
  const booked = () => [...load.answers.bookings.values()].some((entry) => entry.answers.some((answer) => answer.status >= 200 && answer.status < 300));
  for (let pass = 0; pass < 10 && (pass === 0 || !booked()); pass++) {
    log('warming up for 3 s (not a round)...');
    load.start(new Recorder());
    await new Promise((resolve) => setTimeout(resolve, 3000));
    await load.stop();
  }
  await new Promise((resolve) => setTimeout(resolve, 2000));
  const context = { platform, load, opts, boundMs: CONFIG.leaseS * 1000 + CONFIG.recoveryIntervalMs + opts.marginS * 1000 };
  const results = [];
  for (const [i, round] of rounds.entries()) results.push(await runRound(context, round, i + 1, rounds.length));

  const logs = logViolations(platform.logDir, platform.clients);
  const violated = results.some((result) => result.violations.length) || logs.violations.length > 0;
  if (violated) keepWorkDir = true;
  const events = `booking events: ${(await platform.stream.messages()).length} on the stream, ${platform.receiver.received.size} delivered to the webhook receiver`;
  process.stdout.write(report(results, context, `${await coverage(platform.sql)}\n${events}`));
  process.stdout.write(
    `log files: ${logs.files} files, ${logs.lines} lines: ` +
      (logs.violations.length
        ? `VIOLATED\n${logs.violations.map((violation) => `  ${violation.name}: ${violation.rule}\n${violation.rows.map((row) => `    ${JSON.stringify(row)}`).join('\n')}`).join('\n')}\n`
        : 'owner-only; no key, token, card token, e-mail or phone\n'),
  );
  process.stdout.write(`${violated ? 'FAILED' : 'PASSED'} in ${seconds(Date.now() - started)} s${violated ? `; app logs in ${platform.logDir}` : ''}\n`);
  if (opts.keep) process.stdout.write(`database kept: ${platform.databaseUrl}\n`);
  return violated ? 1 : 0;
}

main()
  .then(async (code) => {
    if (interrupted) return;
    await cleanup();
    process.exit(code);
  })
  .catch(async (error) => {
    if (interrupted) return; // the signal handler cleans up and exits
    log(`chaos failed: ${error.stack ?? error}`);
    await cleanup();
    process.exit(3);
  });
