#!/usr/bin/env node
// @ts-check
// `npm run bench [-- --duration S --connections N --only TEXT …]`: starts the whole
// platform (npm start on a private NATS server and a scratch database), measures
// named scenarios on loopback (autocannon, or an open-loop generator for fixed
// rates), and prints requests per second,
// p50/p99 latency and each scenario's throughput as a ratio of the one-NATS-hop
// baseline measured in the same run, so figures compare across noisy machines.
// `--compare REF` runs the same scenarios on the platform of another commit, then on this
// checkout's, one after the other on this machine, and prints the two side by side.
const { fork, spawn, spawnSync } = require('node:child_process');
const fs = require('node:fs');
const os = require('node:os');
const path = require('node:path');
const { parseArgs } = require('node:util');
const { openLoop } = require('./bench/open-loop');
const { fairness, VICTIM_RATE } = require('./bench/fairness');
const { startOtlpSink } = require('./bench/otlp-sink');
const { metricsRecordingCost } = require('./bench/metrics-cost');
const { sharedLimitsCost } = require('./bench/shared-limits-cost');
const { ROOT, NX_ENV, log, ensureDependencies, build, freePort, findOnPath, portAnswers } = require('./lib/workspace');
const { vendorRoundTripCost } = require('./bench/vendor-round-trip');
const { readSimulatorCredentials } = require('./lib/vendor-simulator');
const { describeProfile } = require('./bench/cpu-profiles');

const USAGE = `usage: npm run bench [-- --duration S] [--connections N] [--warmup S] [--cooldown S] [--settle S] [--flow-workers N] [--only TEXT] [--tracing] [--compare REF] [--json FILE]

  --duration S       seconds each scenario is measured (default 10, or BENCH_DURATION_S)
  --connections N    connections of the closed-loop scenarios (default 50, or BENCH_CONNECTIONS)
  --warmup S         seconds of load before measuring each scenario (default 3)
  --cooldown S       pause between scenarios (default 10)
  --settle S         pause after start and setup before the first scenario (default 30)
  --flow-workers N   concurrent bookers of the full-flow scenario (default 8)
  --v2-flow-workers N  concurrent bookers of the V2 full-flow scenario (default 16)
  --flow-duration S  seconds the V2 full flow is measured (default 60)
  --only TEXT        only the scenarios whose name contains TEXT, or one of TEXT|TEXT... (the baselines always run)
  --hold             set up (the scenarios' data included) and keep the platform running instead of
                     measuring: prints the gateway's address and keys for a profiler or a load
                     generator of your own; Ctrl-C stops it
  --tracing          the cost of tracing: the traceable scenarios with tracing off, then again
                     after a restart with tracing on (OTLP to a sink in this process that counts spans)
  --compare REF      the same run on the platform of commit REF (a git worktree, built), then on this
                     checkout's, one after the other; prints each scenario's figures side by side with
                     their ratio (this / REF). The load, the scenarios and their setup are this checkout's.
  --json FILE        also writes the scenarios' figures to FILE (and skips the measurements of this
                     checkout's parts that follow the table: metrics, shared limits, vendor round trip)
  --platform-root DIR  run the platform of the checkout at DIR (built) instead of this one's (--compare uses it)
  --profile DIR      a CPU profile of every app over each measured window (SIGUSR2 to each app at its
                     start and end), written to DIR/<scenario>/<app>-<pid>-<n>.cpuprofile, and a summary of
                     each (self time by package and by function) printed after the table`;

let parsed;
try {
  parsed = parseArgs({
    options: {
      help: { type: 'boolean', default: false },
    duration: { type: 'string', default: process.env.BENCH_DURATION_S || '10' },
    connections: { type: 'string', default: process.env.BENCH_CONNECTIONS || '50' },
    warmup: { type: 'string', default: process.env.BENCH_WARMUP_S || '3' },
    cooldown: { type: 'string', default: process.env.BENCH_COOLDOWN_S || '10' },
    settle: { type: 'string', default: process.env.BENCH_SETTLE_S || '30' },
    // Concurrent bookers in the full-flow scenario.
    'flow-workers': { type: 'string', default: process.env.BENCH_FLOW_WORKERS || '8' },
    // The V2 full flow: concurrent bookers, and how long it is measured (a minute: its p99 needs thousands of bookings).
    'v2-flow-workers': { type: 'string', default: process.env.BENCH_V2_FLOW_WORKERS || '16' },
    'flow-duration': { type: 'string', default: process.env.BENCH_FLOW_DURATION_S || '60' },
    only: { type: 'string' },
    tracing: { type: 'boolean', default: false },
    hold: { type: 'boolean', default: false },
    compare: { type: 'string' },
    json: { type: 'string' },
    'platform-root': { type: 'string' },
    profile: { type: 'string' },
    },
  });
} catch (error) {
  process.stderr.write(`${error.message}\n${USAGE}\n`);
  process.exit(2);
}
if (parsed.values.help) {
  process.stdout.write(`${USAGE}\n`);
  process.exit(0);
}
const options = parsed.values;
for (const name of /** @type {const} */ (['duration', 'connections', 'warmup', 'cooldown', 'settle', 'flow-workers', 'v2-flow-workers', 'flow-duration'])) {
  if (!/^\d+(\.\d+)?$/.test(options[name])) {
    process.stderr.write(`--${name} must be a number, not ${options[name]}\n${USAGE}\n`);
    process.exit(2);
  }
}
const DURATION_S = Number(options.duration);
const WARMUP_S = Number(options.warmup);
const COOLDOWN_S = Number(options.cooldown);
const SETTLE_S = Number(options.settle);
const CONNECTIONS = Number(options.connections);
const FLOW_WORKERS = Number(options['flow-workers']);
const V2_FLOW_WORKERS = Number(options['v2-flow-workers']);
const FLOW_DURATION_S = Number(options['flow-duration']);
/** Where the measured platform's code is: this checkout, or another one (--platform-root). */
const PLATFORM_ROOT = path.resolve(options['platform-root'] ?? ROOT);
if (options.profile && (options.compare || options['platform-root'])) {
  // Another commit's apps may not handle SIGUSR2, whose default action ends the process.
  process.stderr.write(`--profile profiles this checkout's platform only: not with --compare or --platform-root\n${USAGE}\n`);
  process.exit(2);
}
/** Where --profile writes the apps' CPU profiles, one folder per scenario. */
const PROFILE_DIR = options.profile ? path.resolve(options.profile) : undefined;
/** @type {{ scenario: string, file: string, app: string, cpuMsPerOp?: number }[]} */
const profiles = [];

/** @typedef {import('node:child_process').ChildProcess} ChildProcess */
/** @typedef {import('./bench/open-loop').LoadResult} LoadResult */
/**
 * A scenario's figures: autocannon's (or the same of the open-loop generator, a flow or a
 * fairness run), and what the benchmark adds to them.
 * @typedef {LoadResult & { durationS?: number, firstByte?: { p50: number, p99: number }, flood?: import('./bench/fairness').Flood | null, cpuMsPerRequest?: number, infraCpuMsPerRequest?: number, simulatorCpuMsPerRequest?: number, perAppCpuMs?: Record<string, number>, perAppCpuMsPerS?: Record<string, number> }} Result
 */
/**
 * One measured scenario: `runWithWarmup` or `run` measures it; else autocannon at `url`
 * (open-loop at `rate` when given), with `requests` taken in turn when given.
 * @typedef {object} Scenario
 * @property {string} name
 * @property {string} [url]
 * @property {string} [method]
 * @property {Record<string, string>} [headers]
 * @property {string} [body]
 * @property {number} [connections]
 * @property {number} [rate]
 * @property {import('autocannon').Request[]} [requests]
 * @property {boolean} [isReference] the one-NATS-hop baseline the others are a ratio of
 * @property {boolean} [traceable] measured again with tracing on (--tracing)
 * @property {boolean} [notModified] answered 304 by design: those are not counted as errors
 * @property {(durationS: number) => Promise<Result>} [run]
 * @property {(durationS: number, warmupS: number) => Promise<Result>} [runWithWarmup]
 */
/** @typedef {Omit<import('autocannon').Options, 'duration'>} AutocannonScenario */
/** An answer of the platform's API (its JSON as it is). @typedef {Pick<import('./lib/https').Answer, 'status' | 'headers' | 'body'>} ApiAnswer */
/** What admin create-client prints. @typedef {{ client_id: number, api_key: string, sandbox_api_key: string, backend_token: string }} ClientKeys */
/** @typedef {{ check_in: string, check_out: string, rooms: { adults: number, children: number, children_ages: number[] }[] }} Stay */
/**
 * CPU seconds so far (appsCpuSeconds): `infrastructure` marks NATS and the platform's
 * PostgreSQL backends, `vendors` the simulator's own backends (the vendors' cost, not the platform's).
 * @typedef {{ apps: number, simulator: number, byPid: Record<string, { name: string, seconds: number, infrastructure?: boolean, vendors?: boolean }> }} CpuSeconds
 */
/** The platform `npm start` runs, and the vendor simulator its banner names. @typedef {ChildProcess & { simulatorUrl: string | null }} Platform */

/** What to undo at the end, in reverse order. @type {(() => unknown)[]} */
const cleanups = [];
async function cleanup() {
  for (const step of cleanups.reverse()) {
    try {
      await step();
    } catch (error) {
      log(`cleanup: ${error.message}`);
    }
  }
}

/**
 * @param {ChildProcess} child
 * @param {NodeJS.Signals} [signal]
 * @returns {Promise<void>}
 */
function stopChild(child, signal = 'SIGTERM') {
  return new Promise((resolve) => {
    if (child.exitCode !== null || child.signalCode !== null) return resolve();
    child.once('exit', () => resolve());
    child.kill(signal);
  });
}

/** The benchmark's own NATS server, whose CPU counts as the platform's (infrastructure). @type {number | undefined} */
let natsPid;

async function startNats() {
  const binary = findOnPath('nats-server', ['/usr/sbin', '/usr/local/sbin']);
  if (!binary) throw new Error('nats-server is needed for the benchmark (apt-get install nats-server)');
  const port = await freePort();
  // JetStream: the gateways' shared rate limits live in a KV bucket (and the booking events in a stream).
  const storeDir = fs.mkdtempSync(path.join(os.tmpdir(), 'hotel-bench-nats-'));
  const child = spawn(binary, ['-a', '127.0.0.1', '-p', String(port), '-js', '-sd', storeDir], { stdio: 'ignore' });
  natsPid = child.pid;
  cleanups.push(() => stopChild(child).then(() => fs.rmSync(storeDir, { recursive: true, force: true })));
  for (let i = 0; i < 100 && !(await portAnswers(port)); i++) await new Promise((r) => setTimeout(r, 50));
  return `nats://127.0.0.1:${port}`;
}

async function scratchDatabase() {
  const serverUrl = process.env.BENCH_DATABASE_URL || 'postgres://postgres@127.0.0.1:5432/postgres';
  const { Client } = require('pg');
  // BENCH_DATABASE_NAME: another scratch database, so two benchmarks on one server do not drop each other's.
  const name = process.env.BENCH_DATABASE_NAME || 'hotel_bench';
  if (!/^[a-z_][a-z0-9_]*$/.test(name)) throw new Error(`BENCH_DATABASE_NAME must be a plain lower-case identifier, not ${name}`);
  const admin = new Client({ connectionString: serverUrl });
  await admin.connect();
  await admin.query(`DROP DATABASE IF EXISTS ${name} WITH (FORCE)`);
  await admin.query(`CREATE DATABASE ${name}`);
  await admin.end();
  const url = new URL(serverUrl);
  url.pathname = `/${name}`;
  return url.toString();
}

/**
 * Starts the platform (tools/start.js); resolves with its process once it is ready.
 * @param {Record<string, string>} env
 * @returns {Promise<Platform>}
 */
function startPlatform(env) {
  const child = spawn(process.execPath, [path.join(PLATFORM_ROOT, 'tools/start.js')], {
    cwd: PLATFORM_ROOT,
    env: { ...process.env, START_SKIP_BUILD: '1', ...env },
    stdio: ['ignore', 'pipe', 'pipe'],
  });
  cleanups.push(() => stopChild(child, 'SIGINT'));
  let output = '';
  return new Promise((resolve, reject) => {
    /** @param {Buffer} chunk */
    const onData = (chunk) => {
      output += chunk;
      if (output.includes('Hotel booking platform is ready.')) {
        // The vendor simulator it runs, as its banner names it.
        resolve(Object.assign(child, { simulatorUrl: /Vendors\s+(http:\/\/\S+?)\/\{/.exec(output)?.[1] ?? null }));
      }
    };
    child.stdout.on('data', onData);
    child.stderr.on('data', onData);
    child.once('exit', (code) => reject(new Error(`the platform did not start (exit ${code}):\n${output}`)));
  });
}

/**
 * Starts tools/bench/baseline.js with `args`; resolves with its process once it is ready.
 * @param {string[]} args
 * @returns {Promise<ChildProcess>}
 */
function startBaseline(args) {
  const child = fork(path.join(__dirname, 'bench/baseline.js'), args, { stdio: ['ignore', 'inherit', 'inherit', 'ipc'] });
  cleanups.push(() => stopChild(child));
  return new Promise((resolve, reject) => {
    child.once('message', () => resolve(child));
    child.once('exit', (code) => reject(new Error(`baseline ${args[0]} exited with ${code}`)));
  });
}

/** @param {number} days */
function daysAhead(days) {
  return new Date(Date.now() + days * 86_400_000).toISOString().slice(0, 10);
}

/** Connections kept open between calls, as a partner's client keeps them: a TLS handshake per call is not what the flows measure. */
const keepAlive = new (require('node:https').Agent)({ keepAlive: true, maxSockets: 64, rejectUnauthorized: false });

/**
 * One call of the platform's API, on the kept-alive connections.
 * @param {string} base
 * @param {string} method
 * @param {string} pathName
 * @param {Record<string, string>} headers
 * @param {object} [body] sent as JSON
 * @returns {Promise<ApiAnswer>}
 */
async function api(base, method, pathName, headers, body) {
  const https = require('node:https');
  return new Promise((resolve, reject) => {
    const request = https.request(
      new URL(pathName, base),
      { method, agent: keepAlive, rejectUnauthorized: false, headers: { ...headers, ...(body && { 'content-type': 'application/json' }) } },
      (response) => {
        let text = '';
        response.on('data', (chunk) => (text += chunk));
        // A response (unlike a request a server receives) always has its status code; a 304 has no body.
        response.on('end', () => resolve({ status: /** @type {number} */ (response.statusCode), headers: response.headers, body: text ? JSON.parse(text) : undefined }));
      },
    );
    request.on('error', reject);
    if (body) request.write(JSON.stringify(body));
    request.end();
  });
}

const LIST_SCENARIO = 'list: GET /book filtered, 100,000 bookings';
// The unfiltered list as a partner pages it, over the same 100,000 bookings: 50 (about 230 KB) and 200 a page.
const LIST_PAGE_SCENARIOS = [
  'list: GET /book, a page of 50, 10 connections',
  'list: GET /book?limit=200, 10 connections',
  // The same page asked again with its ETag (304, no body), and asked compressed.
  'list: GET /book, a page of 50 unchanged (If-None-Match: 304), 10 connections',
  'list: GET /book, a page of 50, Accept-Encoding: br, 10 connections',
];
const FAIRNESS = 'fairness';

const CITIES = [2988507, 2643743, 5128581, 1850147, 2950159, 3117735, 3169070, 3448439, 2267057, 2759794, 3128760, 2761369, 3067696, 2964574, 2147714, 6167865, 4887398, 5368361, 745044, 1609350, 1880252, 292223, 3530597, 3435910, 360630, 1275339, 1835848, 524901, 264371, 756135];

/**
 * Prebooks and books the rate of `prebookPath`: the booking.
 * @param {string} gateway
 * @param {Record<string, string>} headers
 * @param {string} prebookPath
 * @returns {Promise<{ id: number, voucher_url: string | null }>}
 */
async function bookOnce(gateway, headers, prebookPath) {
  await api(gateway, 'GET', prebookPath, headers);
  const response = await api(gateway, 'POST', prebookPath.replace('/prebook/', '/book/'), headers, {
    rooms: [{ lead_first_name: 'Bench', lead_last_name: 'Booker' }],
    email: 'bench@example.com',
    phone: '+1 555 0100',
  });
  if (response.status !== 201) throw new Error(`bench booking failed: ${JSON.stringify(response.body)}`);
  return response.body.data;
}

/**
 * `count` copies of the booking `templateId` for the client, made in the database.
 * @param {string} databaseUrl
 * @param {number} clientId
 * @param {number} templateId
 * @param {number} count
 */
async function seedBookings(databaseUrl, clientId, templateId, count) {
  const { Client } = require('pg');
  const client = new Client({ connectionString: databaseUrl });
  await client.connect();
  log(`seeding ${count} bookings for the list scenario...`);
  await client.query(
    `INSERT INTO booking.bookings (client_id, sandbox, status, step, prebook_id, offer, payment_method, hotel_id, hotel_name, check_in, check_out,
       first_name, last_name, email, phone, price_chargeable, price_currency, vendor_currency, vendor_price, fx_rate, fx_rate_date, fx_margin_percent,
       rate, hotel, rooms, language, remarks, request_fingerprint, booking_reference, created_at, client_reference)
     SELECT $1, false, (ARRAY['confirmed','confirmed','confirmed','cancelled','failed','pending'])[1 + g % 6], 'done', gen_random_uuid(), t.offer,
            (ARRAY['account','credit_card'])[1 + g % 2], t.hotel_id, t.hotel_name || ' ' || (g % 500), current_date + (g % 365), current_date + (g % 365) + 2,
            (ARRAY['Ada','Grace','Alan','Linus','Barbara'])[1 + g % 5], 'Guest' || (g % 10000), t.email, t.phone, (100 + g % 900)::numeric, 'USD',
            'USD', (100 + g % 900)::numeric, 1, NULL, 0,
            t.rate, t.hotel, t.rooms, 'en', t.remarks, md5(g::text), ARRAY['BEN-' || g, 'HB-' || g], now() - make_interval(mins => g), 'BENCH-' || g
       FROM generate_series(1, $3::int) g, (SELECT * FROM booking.bookings WHERE id = $2) t`,
    [clientId, templateId, count],
  );
  // Vacuumed now, so autovacuum does not take a core in the middle of a later scenario.
  await client.query('VACUUM ANALYZE booking.bookings');
  await client.end();
}

const FLOW_GUEST = { rooms: [{ lead_first_name: 'Flow', lead_last_name: 'Tester' }], email: 'flow@example.com', phone: '+1 555 0100' };

/**
 * Workers each run `attempt(n, stay)` over and over for durationS, on many dates: it finds a
 * rate and prebooks it, resolving with the book call to time (a function), or 'none' when
 * there was nothing to book, or 'error'. Bookings per second, the book call's p50/p99 and errors.
 * @param {number} workers
 * @param {number} durationS
 * @param {(n: number, stay: Stay) => Promise<'none' | 'error' | (() => Promise<ApiAnswer>)>} attempt
 * @returns {Promise<Result>}
 */
async function runFlow(workers, durationS, attempt) {
  const deadline = Date.now() + durationS * 1000;
  /** @type {number[]} */
  const bookLatencies = [];
  let errors = 0;
  let bookings = 0;
  /** @param {number} seed */
  async function worker(seed) {
    for (let n = seed + workers; Date.now() < deadline; n += workers) {
      const offset = 5 + ((n * 7) % 355);
      const stay = { check_in: daysAhead(offset), check_out: daysAhead(offset + 1 + (n % 3)), rooms: [{ adults: 2, children: 0, children_ages: [] }] };
      try {
        const book = await attempt(n, stay);
        if (book === 'none') continue;
        if (book === 'error') {
          errors++;
          continue;
        }
        const started = performance.now();
        const booked = await book();
        bookLatencies.push(performance.now() - started);
        if (booked.status === 201) bookings++;
        else errors++;
      } catch {
        errors++;
      }
    }
  }
  await Promise.all(Array.from({ length: workers }, (_, i) => worker(i)));
  bookLatencies.sort((a, b) => a - b);
  /** @param {number} q */
  const at = (q) => Math.round(bookLatencies[Math.min(bookLatencies.length - 1, Math.floor(bookLatencies.length * q))] ?? 0);
  return { requests: { average: bookings / durationS }, latency: { p50: at(0.5), p99: at(0.99) }, errors, timeouts: 0, non2xx: 0, durationS };
}

/**
 * Workers each search, read a hotel's rates, prebook and book (V1).
 * @param {string} gateway
 * @param {Record<string, string>} headers
 * @param {number} workers
 * @param {number} durationS
 */
function fullFlow(gateway, headers, workers, durationS) {
  return runFlow(workers, durationS, async (n, stay) => {
    let search = await api(gateway, 'POST', '/search', headers, { place_id: `gn:${CITIES[n % CITIES.length]}`, ...stay });
    // The vendors answer a session in the background: poll, as a client does, until one has.
    for (let polls = 0; polls < 100 && search.body.data && !search.body.data.results.length && !search.body.data.search_completed; polls++) {
      await new Promise((resolve) => setTimeout(resolve, 20));
      search = await api(gateway, 'GET', `/search/${search.body.data.session_id}`, headers);
    }
    const results = search.body.data?.results ?? [];
    if (!results.length) return 'none';
    const hotel = results[n % results.length].hotel;
    const rates = (await api(gateway, 'GET', `/hotel/${hotel.id}/${search.body.data.session_id}`, headers)).body.data?.rates ?? [];
    if (!rates.length) return 'none';
    const path = `${hotel.id}/${search.body.data.session_id}/${rates[0].id}/account`;
    const prebook = await api(gateway, 'GET', `/prebook/${path}`, headers);
    if (prebook.status !== 200) return 'error';
    return () => api(gateway, 'POST', `/book/${path}`, headers, FLOW_GUEST);
  });
}

/**
 * Workers each ask one hotel's V2 rates, prebook the cheapest and book it.
 * @param {string} gateway
 * @param {Record<string, string>} headers
 * @param {number[]} hotelIds
 * @param {number} workers
 * @param {number} durationS
 */
function fullFlowV2(gateway, headers, hotelIds, workers, durationS) {
  return runFlow(workers, durationS, async (n, stay) => {
    const rates = (await api(gateway, 'POST', '/v2/rates', headers, { ...stay, hotel_ids: [hotelIds[n % hotelIds.length]] })).body.rates ?? [];
    if (!rates.length) return 'none';
    const prebook = await api(gateway, 'POST', '/v2/prebook', headers, { rate_id: rates[0].id, payment_method: 'account' });
    if (prebook.status !== 200) return 'error';
    return () => api(gateway, 'POST', '/v2/book', headers, { ...FLOW_GUEST, prebook_id: prebook.body.data.prebook_id });
  });
}

/**
 * One request at a time for durationS: latency to the whole answer and to its first body byte (p50, p99).
 * @param {string} url
 * @param {string} method
 * @param {Record<string, string>} headers
 * @param {string} body
 * @param {number} durationS
 * @returns {Promise<Result>}
 */
async function firstByteAndWhole(url, method, headers, body, durationS) {
  const https = require('node:https');
  const deadline = Date.now() + durationS * 1000;
  /** @type {number[]} */
  const whole = [];
  /** @type {number[]} */
  const first = [];
  let errors = 0;
  while (Date.now() < deadline) {
    const started = performance.now();
    try {
      await /** @type {Promise<void>} */ (new Promise((resolve, reject) => {
        const request = https.request(url, { method, agent: keepAlive, headers }, (response) => {
          let firstSeen = false;
          response.on('data', () => {
            if (!firstSeen) first.push(performance.now() - started);
            firstSeen = true;
          });
          response.on('end', () => (response.statusCode === 200 ? resolve() : reject(new Error(String(response.statusCode)))));
        });
        request.on('error', reject);
        request.end(body);
      }));
      whole.push(performance.now() - started);
    } catch {
      errors++;
    }
  }
  /**
   * @param {number[]} values
   * @param {number} q
   */
  const at = (values, q) => Math.round(values.sort((a, b) => a - b)[Math.min(values.length - 1, Math.floor(values.length * q))] ?? 0);
  return {
    requests: { average: whole.length / durationS },
    latency: { p50: at(whole, 0.5), p99: at(whole, 0.99) },
    firstByte: { p50: at(first, 0.5), p99: at(first, 0.99) },
    errors,
    timeouts: 0,
    non2xx: 0,
  };
}

/**
 * @param {AutocannonScenario} scenario
 * @param {number} durationS
 * @returns {Promise<import('autocannon').Result>}
 */
function runAutocannon(scenario, durationS) {
  const autocannon = require('autocannon');
  return new Promise((resolve, reject) => {
    autocannon(
      {
        url: scenario.url,
        method: scenario.method ?? 'GET',
        headers: scenario.headers,
        body: scenario.body,
        connections: scenario.connections ?? CONNECTIONS,
        duration: durationS,
        ...(scenario.requests && { requests: scenario.requests }),
      },
      (error, result) => (error ? reject(error) : resolve(result)),
    );
  });
}

/**
 * Each scenario first runs unmeasured for WARMUP_S: connections' TLS handshakes and the
 * first calls of a code path (JIT, lazily built caches) are not what the figures describe.
 * @param {Scenario} scenario
 * @param {() => CpuSeconds} cpu
 * @returns {Promise<Result>}
 */
async function measure(scenario, cpu) {
  if (scenario.runWithWarmup) return scenario.runWithWarmup(DURATION_S, WARMUP_S);
  const run = scenario.run;
  if (run) {
    await run(WARMUP_S);
    return withCpu(cpu, () => run(DURATION_S));
  }
  // Neither runs itself: it has its URL.
  const load = /** @type {Scenario & AutocannonScenario} */ (scenario);
  if (scenario.rate) {
    const rate = scenario.rate;
    // The load generator warms up and measures in one go at one rate: the CPU of both
    // phases, per request of both, is the CPU per request.
    const window = { seconds: WARMUP_S + DURATION_S, operations: rate * (WARMUP_S + DURATION_S) };
    return withCpu(
      cpu,
      () =>
        openLoop({
          url: load.url,
          headers: scenario.headers,
          paths: scenario.requests?.map((request) => request.path) ?? [new URL(load.url).pathname],
          rate,
          warmupS: WARMUP_S,
          durationS: DURATION_S,
          connections: scenario.connections ?? CONNECTIONS,
        }),
      window,
    );
  }
  await runAutocannon(load, WARMUP_S);
  const result = await withCpu(cpu, () => runAutocannon(load, DURATION_S));
  if (scenario.notModified) result.non2xx -= /** @type {import('autocannon').Result} */ (result)['3xx'];
  return result;
}

/**
 * The measured phase, with the CPU time the platform's apps spent per request (ms) when
 * `cpu` reads it: CPU time, unlike throughput, hardly moves with what else the machine runs.
 * `window` is what the CPU is read over when that is not the measured phase alone.
 * @param {(() => CpuSeconds) | undefined} cpu
 * @param {() => Promise<Result>} run
 * @param {{ seconds: number, operations: number }} [window]
 */
async function withCpu(cpu, run, window) {
  const before = cpu?.();
  const profiled = before && PROFILE_DIR ? await startProfiles(before) : undefined;
  const result = await run();
  if (cpu && before !== undefined) {
    const after = cpu();
    const seconds = window?.seconds ?? result.durationS ?? DURATION_S;
    const operations = Math.max(1, window?.operations ?? result.requests.average * seconds);
    result.cpuMsPerRequest = ((after.apps - before.apps) * 1000) / operations;
    // NATS and PostgreSQL: the processes present at both reads (a database connection may come and go).
    let infra = 0;
    for (const [pid, { infrastructure, seconds }] of Object.entries(after.byPid)) {
      if (infrastructure && before.byPid[pid]) infra += seconds - before.byPid[pid].seconds;
    }
    result.infraCpuMsPerRequest = (infra * 1000) / operations;
    // The simulator's process, and its database backends present at both reads.
    let vendorsDatabase = 0;
    for (const [pid, { vendors, seconds }] of Object.entries(after.byPid)) {
      if (vendors && before.byPid[pid]) vendorsDatabase += seconds - before.byPid[pid].seconds;
    }
    result.simulatorCpuMsPerRequest = ((after.simulator - before.simulator + vendorsDatabase) * 1000) / operations;
    // CPU ms per operation of each process, by its dist/apps/<name> (pids present at both reads).
    /** @type {Record<string, number>} */
    const perAppCpuMs = {};
    result.perAppCpuMs = perAppCpuMs;
    for (const [pid, { name, seconds }] of Object.entries(after.byPid)) {
      if (before.byPid[pid]) perAppCpuMs[name] = (perAppCpuMs[name] ?? 0) + ((seconds - before.byPid[pid].seconds) * 1000) / operations;
    }
    // The same per second of the measured window (in a baseline scenario: each app's idle floor).
    result.perAppCpuMsPerS = Object.fromEntries(Object.entries(perAppCpuMs).map(([name, ms]) => [name, (ms * operations) / seconds]));
    if (profiled) await profiled.stop(perAppCpuMs);
  }
  return result;
}

/** The scenario being measured (the folder of its CPU profiles). */
let measuring = '';

/**
 * --profile: SIGUSR2 to every app (the vendor simulator is not the platform's), which starts a
 * CPU profile in each; `stop` signals again, waits for each app's file and files it under
 * the scenario's folder, to be summarized after the table.
 * @param {CpuSeconds} cpu the apps, by pid
 */
async function startProfiles(cpu) {
  const dir = /** @type {string} */ (PROFILE_DIR);
  const raw = path.join(dir, 'raw');
  const apps = Object.entries(cpu.byPid).filter(([, { name, infrastructure, vendors }]) => !infrastructure && !vendors && name !== 'vendor-simulator');
  const signal = () => apps.forEach(([pid]) => process.kill(Number(pid), 'SIGUSR2'));
  signal();
  // The profilers start within milliseconds; the load has not started yet.
  await new Promise((resolve) => setTimeout(resolve, 200));
  return {
    /** @param {Record<string, number>} cpuMsPerOp each app's, from /proc */
    async stop(cpuMsPerOp) {
      signal();
      const folder = path.join(dir, measuring.replace(/[^\w.-]+/g, '-').slice(0, 80));
      fs.mkdirSync(folder, { recursive: true });
      for (const [pid, { name }] of apps) {
        const prefix = `${name}-${pid}-`;
        let found;
        for (let waited = 0; !found && waited < 10_000; waited += 100) {
          found = fs.readdirSync(raw).find((file) => file.startsWith(prefix));
          if (!found) await new Promise((resolve) => setTimeout(resolve, 100));
        }
        if (!found) {
          log(`no CPU profile from ${name} (pid ${pid})`);
          continue;
        }
        const file = path.join(folder, found);
        fs.renameSync(path.join(raw, found), file);
        profiles.push({ scenario: measuring, file, app: name, cpuMsPerOp: cpuMsPerOp[name] });
      }
    },
  };
}

/**
 * A process's CPU seconds (user and system) so far; undefined once it is gone.
 * @param {string} pid
 */
function cpuSecondsOf(pid) {
  let stat;
  try {
    stat = fs.readFileSync(`/proc/${pid}/stat`, 'utf8');
  } catch {
    return undefined;
  }
  // utime and stime, the 14th and 15th fields, counted after the command name's closing parenthesis.
  const fields = stat.slice(stat.lastIndexOf(')') + 2).split(' ');
  return (Number(fields[11]) + Number(fields[12])) / 100;
}

/**
 * CPU seconds used so far by the processes `npm start` runs (the children of its process):
 * the platform's apps, and apart from them the vendor simulator, which stands for vendors
 * outside the platform and is not the platform's cost; and, by pid, the infrastructure the
 * platform runs on: the benchmark's NATS server and every PostgreSQL process on this machine
 * (its server and the apps' connections; another database's work on the same server counts
 * too, so benchmark on a quiet one).
 * @param {ChildProcess} platform
 * @returns {CpuSeconds}
 */
function appsCpuSeconds(platform) {
  const children = fs.readFileSync(`/proc/${platform.pid}/task/${platform.pid}/children`, 'utf8').trim().split(/\s+/).filter(Boolean);
  let apps = 0;
  let simulator = 0;
  /** @type {CpuSeconds['byPid']} */
  const byPid = {};
  for (const pid of children) {
    const seconds = cpuSecondsOf(pid) ?? 0;
    const cmdline = fs.readFileSync(`/proc/${pid}/cmdline`, 'utf8');
    byPid[pid] = { name: /dist\/apps\/([^/]+)/.exec(cmdline)?.[1] ?? cmdline.split('\0')[0], seconds };
    if (cmdline.includes('vendor-simulator')) simulator += seconds;
    else apps += seconds;
  }
  const postgres = fs.readdirSync('/proc').filter((pid) => /^\d+$/.test(pid) && readComm(pid) === 'postgres');
  const natsSeconds = natsPid ? cpuSecondsOf(String(natsPid)) : undefined;
  if (natsSeconds !== undefined) byPid[String(natsPid)] = { name: 'nats-server', seconds: natsSeconds, infrastructure: true };
  // A backend serves one connection all its life, and each app's connections carry its schema as
  // their application_name: PostgreSQL's CPU by the app it worked for.
  const applications = databaseApplications();
  for (const pid of postgres) {
    const seconds = cpuSecondsOf(pid);
    if (seconds === undefined) continue;
    const application = applications.get(pid);
    byPid[pid] =
      application === SIMULATOR_DATABASE_APPLICATION
        ? { name: `postgres (${application})`, seconds, vendors: true }
        : { name: application ? `postgres (${application})` : 'postgres', seconds, infrastructure: true };
  }
  return { apps, simulator, byPid };
}

/** The application_name of the vendor simulator's database connections (its schema). */
const SIMULATOR_DATABASE_APPLICATION = 'vendor_simulator';
/** The benchmark's scratch database, once made: where databaseApplications asks. */
let benchDatabaseUrl = '';

/**
 * The application_name of each PostgreSQL backend (by pid) connected to the benchmark's
 * database: the schema of the app whose pool holds it. Empty until the database exists.
 * @returns {Map<string, string>}
 */
function databaseApplications() {
  if (!benchDatabaseUrl) return new Map();
  const psql = spawnSync('psql', [benchDatabaseUrl, '-AtF', '\t', '-c', 'SELECT pid, application_name FROM pg_stat_activity WHERE datname = current_database()'], { encoding: 'utf8' });
  if (psql.status !== 0) return new Map();
  return new Map(
    psql.stdout
      .split('\n')
      .filter(Boolean)
      .map((line) => /** @type {[string, string]} */ (line.split('\t'))),
  );
}

/**
 * A process's command name (`postgres` for every process of a PostgreSQL server); '' once it is gone.
 * @param {string} pid
 */
function readComm(pid) {
  try {
    return fs.readFileSync(`/proc/${pid}/comm`, 'utf8').trim();
  } catch {
    return '';
  }
}

/**
 * The resident memory (MiB) of the platform's processes: `npm start`'s supervisor and every app it runs.
 * @param {ChildProcess} platform
 */
function platformRssMiB(platform) {
  const children = fs.readFileSync(`/proc/${platform.pid}/task/${platform.pid}/children`, 'utf8').trim().split(/\s+/).filter(Boolean);
  let kib = 0;
  let processes = 0;
  /** @type {Record<string, number>} MiB by process: the supervisor, and each app by its name */
  const byProcess = {};
  for (const pid of [String(platform.pid), ...children]) {
    try {
      const name = pid === String(platform.pid) ? 'supervisor' : (/dist\/apps\/([^/]+)/.exec(fs.readFileSync(`/proc/${pid}/cmdline`, 'utf8'))?.[1] ?? pid);
      const processKib = Number(/VmRSS:\s+(\d+)/.exec(fs.readFileSync(`/proc/${pid}/status`, 'utf8'))?.[1] ?? 0);
      byProcess[name] = processKib / 1024;
      // The simulator stands for vendors outside the platform: not in the platform's total.
      if (name === 'vendor-simulator') continue;
      kib += processKib;
      processes++;
    } catch {
      // an app restarting: not counted in this sample
    }
  }
  return { processes, mib: kib / 1024, byProcess };
}

/**
 * The platform's RSS (the vendor simulator left out) before the first scenario (idle,
 * settled) and its peak while they run (sampled every 250 ms), with the scenario of the
 * peak; and each process's own peak.
 * @type {{ idle: { processes: number, mib: number, byProcess: Record<string, number> } | null, peak: { mib: number, scenario: string }, peakByProcess: Record<string, number> }}
 */
const memory = { idle: null, peak: { mib: 0, scenario: '' }, peakByProcess: {} };

/**
 * Measures each scenario in turn: its results, in order, with the apps' CPU per request (/proc around the measured window).
 * @param {Scenario[]} scenarios
 * @param {ChildProcess} platform
 */
async function measureEach(scenarios, platform) {
  /** @type {{ scenario: Scenario, result: Result }[]} */
  const results = [];
  memory.idle ??= platformRssMiB(platform);
  let current = '';
  const sampler = setInterval(() => {
    const { mib, byProcess } = platformRssMiB(platform);
    if (mib > memory.peak.mib) memory.peak = { mib, scenario: current };
    for (const [name, processMib] of Object.entries(byProcess)) memory.peakByProcess[name] = Math.max(memory.peakByProcess[name] ?? 0, processMib);
  }, 250);
  cleanups.push(() => clearInterval(sampler));
  for (const [index, scenario] of scenarios.entries()) {
    current = scenario.name;
    measuring = scenario.name;
    // A pause between scenarios: a few seconds after a busy phase ends, V8's memory reducer
    // runs full garbage collections in every process that was busy (the load generator, the
    // baselines, the services), which would land in the next scenario's measurement.
    if (index > 0) await new Promise((resolve) => setTimeout(resolve, COOLDOWN_S * 1000));
    const result = await measure(scenario, () => appsCpuSeconds(platform));
    results.push({ scenario, result });
    log(`${scenario.name}: ${Math.round(result.requests.average)} req/s`);
  }
  clearInterval(sampler);
  return results;
}

/**
 * Distinct place queries (three-letter prefixes times limits), so that none is answered from a cache.
 * @param {number} count
 */
function uncachedPlaceQueries(count) {
  const letters = 'abcdefghijklmnoprstuvw';
  /** @type {{ method: string, path: string }[]} */
  const queries = [];
  for (let limit = 1; queries.length < count; limit++)
    for (const a of letters) for (const b of letters) for (const c of letters) queries.push({ method: 'GET', path: `/places/search?text_query=${a}${b}${c}&limit=${limit}` });
  return queries.slice(0, count).sort(() => Math.random() - 0.5);
}

async function main() {
  ensureDependencies();
  build({ quiet: true });
  const natsUrl = await startNats();
  const databaseUrl = await scratchDatabase();
  benchDatabaseUrl = databaseUrl;
  const dataDir = fs.mkdtempSync(path.join(os.tmpdir(), 'hotel-bench-'));
  cleanups.push(() => fs.rmSync(dataDir, { recursive: true, force: true }));
  const gatewayPort = await freePort();
  const metricsPort = await freePort();
  log('starting the platform...');
  const platformEnv = {
    NATS_URL: natsUrl,
    DATABASE_URL: databaseUrl,
    PORT: String(gatewayPort),
    METRICS_PORT: String(metricsPort),
    DATA_DIR: dataDir,
    // warn unless said: BENCH_LOG_LEVEL=info measures the platform as npm start runs it, with a line per request and per booking change.
    LOG_LEVEL: process.env.BENCH_LOG_LEVEL || 'warn',
    // The simulated vendors answer as fast as a vendor's cache would: what is measured is the platform.
    SIMULATOR_LATENCY_MS: 'atlas=10,borealis=20,cobalt=40',
    // Limits no scenario reaches; BENCH_RATE_LIMIT_RPS=10 BENCH_RATE_LIMIT_BURST=1000000000 instead makes
    // every request lease one token from the shared limits (the most they can cost a request).
    RATE_LIMIT_RPS: process.env.BENCH_RATE_LIMIT_RPS || '1000000',
    RATE_LIMIT_BURST: process.env.BENCH_RATE_LIMIT_BURST || '1000000',
    ...(PROFILE_DIR && { CPU_PROFILE_DIR: path.join(PROFILE_DIR, 'raw') }),
  };
  if (PROFILE_DIR) fs.mkdirSync(path.join(PROFILE_DIR, 'raw'), { recursive: true });
  const platform = await startPlatform(platformEnv);
  const gateway = `https://127.0.0.1:${gatewayPort}`;

  const baselinePort = await freePort();
  await startBaseline(['echo', natsUrl]);
  await startBaseline(['server', natsUrl, String(baselinePort), path.join(dataDir, 'tls/dev-cert.pem'), path.join(dataDir, 'tls/dev-key.pem')]);
  const baseline = `https://127.0.0.1:${baselinePort}`;

  // Arrange: a client and a user to read.
  /**
   * @param {string} name
   * @returns {ClientKeys}
   */
  const createClient = (name) => {
    const admin = spawnSync(process.execPath, [path.join(PLATFORM_ROOT, 'tools/admin.js'), 'create-client', '--name', name, '--credit-limit', '999999999'], {
      cwd: PLATFORM_ROOT,
      env: { ...process.env, NATS_URL: natsUrl },
      encoding: 'utf8',
    });
    if (admin.status !== 0) throw new Error(`create-client failed: ${admin.stderr}`);
    return JSON.parse(admin.stdout);
  };
  const keys = createClient('Bench Travel');
  const backend = { authorization: keys.backend_token };
  const user = await api(gateway, 'POST', '/api/user', backend, {
    firstName: 'Bench',
    lastName: 'User',
    email: 'bench@example.com',
    phone: '+1 555 0100',
    clientAccountLimit: 1000,
  });
  if (user.status !== 201) throw new Error(`creating the bench user failed: ${JSON.stringify(user.body)}`);

  const booking = { authorization: `Bearer ${keys.api_key}` };
  const stay = { check_in: daysAhead(45), check_out: daysAhead(47), rooms: [{ adults: 2, children: 0, children_ages: [] }] };
  // Hotels around Paris (from the API itself) for the V2 scenarios with hotel_ids.
  // A platform just started may see every vendor miss V2's deadline (search_completed false,
  // no rate): a partner searches again, and so does the benchmark, a few times.
  /** @type {number[]} */
  let nearby = [];
  for (let attempt = 1; nearby.length === 0 && attempt <= 5; attempt++) {
    const around = await api(gateway, 'POST', '/v2/rates', booking, { ...stay, coordinates: { lat: 48.85341, long: 2.3488 }, radius: 50000, limit: 2000 });
    nearby = [...new Set((around.body.rates ?? []).map(/** @param {{ hotel_id: number }} rate */ (rate) => rate.hotel_id))];
    if (nearby.length === 0) await new Promise((resolve) => setTimeout(resolve, 2000));
  }
  if (nearby.length === 0) throw new Error('no hotel with rates around Paris after 5 searches: the vendors do not answer');
  /** @param {number} count */
  const hotelIds = (count) => Array.from({ length: count }, (_, i) => nearby[i % nearby.length] + 0);
  log(`${nearby.length} hotels with rates around Paris for the V2 scenarios`);

  // A V1 session and one hotel's rates, for the prebook scenario.
  let session = await api(gateway, 'POST', '/search', booking, { place_id: 'gn:2988507', ...stay });
  for (let i = 0; i < 100 && !session.body.data.search_completed; i++) {
    await new Promise((resolve) => setTimeout(resolve, 200));
    session = await api(gateway, 'GET', `/search/${session.body.data.session_id}`, booking);
  }
  /** @type {ApiAnswer | undefined} */
  let answer;
  for (let i = 0; i < 100; i++) {
    answer = await api(gateway, 'GET', `/hotel/${session.body.data.results[0].hotel.id}/${session.body.data.session_id}`, booking);
    if (answer.body.data.search_completed) break;
    await new Promise((resolve) => setTimeout(resolve, 200));
  }
  // (Asked at least once.)
  const hotelRates = /** @type {ApiAnswer} */ (answer);
  const prebookPath = `/prebook/${hotelRates.body.data.hotel.id}/${session.body.data.session_id}/${hotelRates.body.data.rates[0].id}/account`;

  // 100,000 bookings for the list scenario, copied from one real booking (seeding through the API would take an hour).
  /** @param {string} name */
  // Several texts separated by | (a scenario's name may hold a comma).
  const matches = (name) => !options.only || options.only.split('|').some((text) => name.includes(text));
  // --tracing measures only the traceable scenarios (below): none of the others' setup.
  /** @param {string} name */
  const selected = (name) => !options.tracing && matches(name);
  // The fairness scenarios' setup, for any of them (`--only fairness`, or the name of one).
  const fairnessSelected = !options.tracing && (!options.only || options.only.startsWith(FAIRNESS) || FAIRNESS.includes(options.only));
  /** @type {ClientKeys | undefined} */
  let fairClient;
  /** @type {{ id: number, voucher_url: string | null } | undefined} */
  let firstBooking;
  /** @type {string | undefined} the first page's ETag, once the bookings are seeded */
  let listPageTag;
  if ([LIST_SCENARIO, ...LIST_PAGE_SCENARIOS].some(selected) || fairnessSelected) {
    firstBooking = await bookOnce(gateway, booking, prebookPath);
    await seedBookings(databaseUrl, keys.client_id, firstBooking.id, 100_000);
    listPageTag = /** @type {string | undefined} */ ((await api(gateway, 'GET', '/book', booking)).headers.etag);
    if (fairnessSelected) {
      // The fairness scenario's other client, with bookings of its own to list.
      fairClient = createClient('Fair Travel');
      await seedBookings(databaseUrl, fairClient.client_id, firstBooking.id, 1_000);
    }
  }
  const today = daysAhead(0);
  /**
   * @param {number} floodConnections
   * @param {Parameters<typeof fairness>[0]['flood']} [flood]
   */
  const fair = (floodConnections, flood) =>
    fairness({ gateway, floodHeaders: booking, victimHeaders: { authorization: `Bearer ${fairClient?.api_key}` }, floodConnections, runAutocannon, flood });
  // The V2 flood: a city's rates, 200 hotels an answer (about 400 KB), as a reseller refreshing its cache would ask.
  const v2Flood = { path: '/v2/rates', method: 'POST', body: JSON.stringify({ ...stay, place_id: 'gn:2988507', limit: 200 }) };
  // The flood without a key: every route that takes none, in turn, and a failed authentication, from one address.
  const voucher = firstBooking?.voucher_url ? new URL(firstBooking.voucher_url, gateway) : null;
  const anonymousFlood = {
    anonymous: true,
    path: '/health/ready',
    requests: [
      { method: 'GET', path: '/health/ready' },
      { method: 'GET', path: '/openapi.json' },
      { method: 'GET', path: '/docs' },
      { method: 'GET', path: '/finance/' },
      ...(voucher ? [{ method: 'GET', path: `${voucher.pathname}${voucher.search}` }] : []),
      { method: 'GET', path: '/book', headers: { authorization: 'Bearer not-a-key' } },
    ],
  };

  const scenarios = /** @type {Scenario[]} */ ([
    { name: 'baseline: bare Fastify JSON route', url: `${baseline}/json` },
    // The floor for the places scenario's tail: the same rate and connections on a route that does nothing.
    { name: 'baseline: bare Fastify JSON route at 1000 req/s', url: `${baseline}/json`, rate: 1000, connections: 20 },
    { name: 'baseline: one NATS hop to an echo responder', url: `${baseline}/nats`, isReference: true },
    { name: 'baseline: one NATS hop at 1000 req/s', url: `${baseline}/nats`, rate: 1000, connections: 20 },
    { name: 'gateway: GET /api/user/{id} (backend token)', url: `${gateway}/api/user/${user.body.data.id}`, headers: backend, traceable: true },
    {
      name: 'places: GET /places/search at 1000 req/s',
      url: `${gateway}/places/search?text_query=par`,
      headers: booking,
      rate: 1000,
      connections: 20,
      requests: ['par', 'london', 'sao paulo', 'new y', 'berl', 'tokyo', 'madr', 'lisb'].map((text) => ({ method: 'GET', path: `/places/search?text_query=${encodeURIComponent(text)}` })),
    },
    {
      // Every request a query the gateway has not cached: the search service answers each one.
      name: 'places: GET /places/search at 1000 req/s, no cache hits',
      url: `${gateway}/places/search`,
      headers: booking,
      rate: 1000,
      connections: 20,
      requests: uncachedPlaceQueries((DURATION_S + WARMUP_S) * 1000),
    },
    {
      name: 'v2: POST /v2/rates, 50 hotel_ids',
      url: `${gateway}/v2/rates`,
      method: 'POST',
      headers: { ...booking, 'content-type': 'application/json' },
      body: JSON.stringify({ ...stay, hotel_ids: hotelIds(50) }),
      connections: 8,
    },
    {
      // One request at a time: this scenario measures the latency of one big answer, to its first byte and to its end.
      name: 'v2: POST /v2/rates, 2000 hotel_ids',
      run: (durationS) =>
        firstByteAndWhole(`${gateway}/v2/rates`, 'POST', { ...booking, 'content-type': 'application/json' }, JSON.stringify({ ...stay, hotel_ids: hotelIds(2000) }), durationS),
    },
    {
      name: LIST_SCENARIO,
      url: `${gateway}/book?status=confirmed&limit=50`,
      headers: booking,
      // One request at a time: the target is the latency of a filtered page.
      connections: 1,
      requests: [
        `/book?status=confirmed&check_in=${today}..${daysAhead(30)}&sort_by=check_in&sort_order=asc&limit=50`,
        '/book?last_name=Guest4242',
        '/book?client_reference=BENCH-77777',
        `/book?payment_method=account&status=cancelled&limit=20`,
        '/book?vendor_reference=BEN-12345',
      ].map((requestPath) => ({ method: 'GET', path: requestPath })),
    },
    {
      name: LIST_PAGE_SCENARIOS[0],
      url: `${gateway}/book`,
      headers: booking,
      connections: 10,
    },
    {
      name: LIST_PAGE_SCENARIOS[1],
      url: `${gateway}/book?limit=200`,
      headers: booking,
      connections: 10,
    },
    {
      name: LIST_PAGE_SCENARIOS[2],
      url: `${gateway}/book`,
      // (A platform without list ETags answers the page: the figures then show what a 304 saves.)
      headers: { ...booking, ...(listPageTag && { 'if-none-match': listPageTag }) },
      connections: 10,
      notModified: true,
    },
    {
      name: LIST_PAGE_SCENARIOS[3],
      url: `${gateway}/book`,
      headers: { ...booking, 'accept-encoding': 'br' },
      connections: 10,
    },
    {
      name: 'full flow: search, hotel rates, prebook, book (per booking)',
      run: (durationS) => fullFlow(gateway, booking, FLOW_WORKERS, durationS),
      traceable: true,
    },
    {
      name: `full flow V2: rates, prebook, book (per booking), ${V2_FLOW_WORKERS} workers, ${FLOW_DURATION_S} s`,
      run: (durationS) => fullFlowV2(gateway, booking, nearby, V2_FLOW_WORKERS, durationS === DURATION_S ? FLOW_DURATION_S : durationS),
      traceable: true,
    },
    {
      // A completed V1 search polled again: Paris's hotels, each with its lowest rate, derived from what is stored.
      name: 'search: GET /search/{session_id}, a completed session',
      url: `${gateway}/search/${session.body.data.session_id}`,
      headers: booking,
      connections: 10,
      traceable: true,
    },
    {
      // One hotel of a completed V1 search: its details and every rate, priced from the vendors' (cached) answers.
      name: 'rates: GET /hotel/{hotel_id}/{session_id}, a completed session',
      url: `${gateway}/hotel/${hotelRates.body.data.hotel.id}/${session.body.data.session_id}`,
      headers: booking,
      connections: 10,
      traceable: true,
    },
    {
      name: 'prebook: GET /prebook/{hotel}/{session}/{rate}/account',
      url: `${gateway}${prebookPath}`,
      headers: booking,
      connections: 20,
      traceable: true,
    },
    // What a Prometheus scrape costs the gateway (every histogram series serialized), one
    // scraper at a time as in production; the per-request recording is in every scenario.
    { name: 'metrics: GET the gateway /metrics (one scraper)', url: `http://127.0.0.1:${metricsPort}/metrics`, connections: 1 },
    // Another client's GET /book?limit=50 at a fixed rate, alone and while one client floods the same route.
    { name: `${FAIRNESS}: other client's GET /book?limit=50 at ${VICTIM_RATE} req/s, alone`, runWithWarmup: fair(0) },
    { name: `${FAIRNESS}: the same while one client floods GET /book?limit=50 from 64 connections`, runWithWarmup: fair(64) },
    { name: `${FAIRNESS}: the same while one client floods GET /book?limit=50 from 256 connections`, runWithWarmup: fair(256) },
    { name: `${FAIRNESS}: the same while one client floods POST /v2/rates (a city, 200 hotels) from 64 connections`, runWithWarmup: fair(64, v2Flood) },
    {
      name: `${FAIRNESS}: the same while one address floods the routes without a key (health, docs, console, a voucher, a bad key) from 64 connections`,
      runWithWarmup: fair(64, anonymousFlood),
    },
  ]).filter((scenario) => scenario.isReference || (matches(scenario.name) && (!options.tracing || scenario.traceable)));

  if (options.hold) {
    const appPids = fs.readFileSync(`/proc/${platform.pid}/task/${platform.pid}/children`, 'utf8').trim().split(/\s+/);
    process.stdout.write(
      `${JSON.stringify({ gateway, api_key: keys.api_key, backend_token: keys.backend_token, other_api_key: fairClient?.api_key, database: databaseUrl, appPids, hotelIds: nearby.slice(0, 50), prebookPath })}\n`,
    );
    log('holding the platform; Ctrl-C stops it');
    return new Promise(() => {});
  }
  // The figures describe a running system, not one in its first minute: after start and
  // setup (a 15 MB V2 answer, 100,000 seeded bookings) every process collects garbage for a while.
  log(`letting the platform settle for ${SETTLE_S} s...`);
  await new Promise((resolve) => setTimeout(resolve, SETTLE_S * 1000));
  log(`measuring ${scenarios.length} scenarios, ${DURATION_S} s each, ${CONNECTIONS} connections`);
  const results = await measureEach(scenarios, platform);
  let sink;
  if (options.tracing) {
    // The same platform (database, broker, data directory, ports) started again, every app
    // exporting its spans over OTLP; it settles as the first one did.
    sink = await startOtlpSink();
    cleanups.push(sink.close);
    log(`restarting the platform with tracing on (OTLP to ${sink.url})...`);
    await stopChild(platform, 'SIGINT');
    const traced = await startPlatform({ ...platformEnv, OTEL_EXPORTER_OTLP_ENDPOINT: sink.url });
    await new Promise((resolve) => setTimeout(resolve, SETTLE_S * 1000));
    const again = scenarios.filter((scenario) => scenario.traceable).map((scenario) => ({ ...scenario, name: `${scenario.name} (tracing on)` }));
    results.push(...(await measureEach(again, traced)));
  }
  const reference = results.find(({ scenario }) => scenario.isReference)?.result.requests.average;
  const rows = results.map(({ scenario, result }) => ({
    scenario: scenario.name,
    'req/s': Math.round(result.requests.average),
    'p50 ms': result.latency.p50,
    'p99 ms': result.latency.p99,
    'first byte p50 ms': result.firstByte?.p50 ?? '',
    errors: result.errors + result.timeouts + result.non2xx,
    'x one-hop': reference ? (result.requests.average / reference).toFixed(2) : 'n/a',
    'apps CPU ms/req': result.cpuMsPerRequest?.toFixed(2) ?? '',
    'NATS+PG CPU ms/req': result.infraCpuMsPerRequest?.toFixed(2) ?? '',
    'vendors CPU ms/req': result.simulatorCpuMsPerRequest?.toFixed(2) ?? '',
  }));
  process.stdout.write(`\nnpm run bench — ${os.cpus().length} cores, ${DURATION_S} s per scenario, ${CONNECTIONS} connections${PLATFORM_ROOT === ROOT ? '' : `, the platform of ${PLATFORM_ROOT}`}\n`);
  console.table(rows);
  if (options.json) {
    /** @type {ScenarioFigures[]} */
    const figures = results.map(({ scenario, result }) => ({
      scenario: scenario.name,
      reqPerS: result.requests.average,
      p50Ms: result.latency.p50,
      p99Ms: result.latency.p99,
      errors: result.errors + result.timeouts + result.non2xx,
      appsCpuMsPerOp: result.cpuMsPerRequest ?? null,
      infraCpuMsPerOp: result.infraCpuMsPerRequest ?? null,
      perAppCpuMs: result.perAppCpuMs ?? {},
    }));
    fs.writeFileSync(options.json, JSON.stringify(figures, null, 2));
  }
  // Each process's CPU ms per operation in each scenario's measured window.
  for (const { scenario, result } of results) {
    if (!result.perAppCpuMs) continue;
    const parts = Object.entries(result.perAppCpuMs).sort((a, b) => b[1] - a[1]).map(([name, ms]) => `${name}=${ms.toFixed(3)}`);
    process.stdout.write(`per-app CPU ms/op, ${scenario.name}: ${parts.join(' ')}\n`);
    const perSecond = Object.entries(result.perAppCpuMsPerS ?? {}).sort((a, b) => b[1] - a[1]).map(([name, ms]) => `${name}=${ms.toFixed(1)}`);
    process.stdout.write(`per-app CPU ms/s, ${scenario.name}: ${perSecond.join(' ')}\n`);
  }
  for (const { scenario, file, app, cpuMsPerOp } of profiles) {
    process.stdout.write(`\nCPU profile, ${scenario}\n${describeProfile(file, app, cpuMsPerOp).join('\n')}\n`);
  }
  if (sink) process.stdout.write(`tracing on: the apps exported ${sink.spans()} spans (warm-ups included)\n`);
  // (measureEach read it: the reference scenario always runs.)
  const idle = /** @type {NonNullable<typeof memory.idle>} */ (memory.idle);
  process.stdout.write(
    `memory: the platform's ${idle.processes} processes (supervisor and apps; the vendor simulator left out) use ${idle.mib.toFixed(0)} MiB resident when idle (settled, before the first scenario), ${memory.peak.mib.toFixed(0)} MiB at their peak (during "${memory.peak.scenario}")\n`,
  );
  const perProcess = Object.entries(idle.byProcess)
    .sort((a, b) => b[1] - a[1])
    .map(([name, mib]) => `${name}=${mib.toFixed(0)}/${(memory.peakByProcess[name] ?? mib).toFixed(0)}`);
  process.stdout.write(`memory by process, MiB resident idle/peak: ${perProcess.join(' ')}\n`);
  // What follows measures this checkout's parts (not --platform-root's): a run for --compare leaves it out.
  if (options.json) return;
  const recording = metricsRecordingCost();
  process.stdout.write(
    `metrics: recording costs ${recording.perObservationNs.toFixed(0)} ns per observation, ${(recording.perRequestNs / 1000).toFixed(2)} µs for a request of one NATS hop (its HTTP series, and the hop sent and handled)\n`,
  );
  // The limits the gateway replicas share (a KV bucket on a broker of its own): what they add to a request.
  for (const cost of await sharedLimitsCost()) {
    process.stdout.write(
      `shared limits, ${cost.name}: ${cost.gatewayCpuUsPerRequest.toFixed(0)} µs of gateway CPU, ${cost.brokerCpuUsPerRequest?.toFixed(0) ?? 'n/a'} µs of broker CPU, ${cost.storeCallsPerRequest.toFixed(3)} store calls and ${cost.usPerRequest.toFixed(0)} µs per request\n`,
    );
  }
  // With the credentials npm start made for the simulated vendors (DATA_DIR/secrets).
  const roundTrip = platform.simulatorUrl ? await vendorRoundTripCost(platform.simulatorUrl, {
        atlas: readSimulatorCredentials(path.join(dataDir, 'secrets'), 'atlas'),
        sandbox: readSimulatorCredentials(path.join(dataDir, 'secrets'), 'sandbox'),
      }) : null;
  if (roundTrip) {
    const { availability, checkRate, city } = roundTrip;
    process.stdout.write(
      `vendors: one round trip to a simulated vendor (atlas, answering after SIMULATOR_LATENCY_MS) costs the platform's side ${availability.cpuMs.toFixed(2)} ms of CPU for one hotel's availability (p50 ${availability.p50Ms.toFixed(1)} ms), ` +
        `${checkRate.cpuMs.toFixed(2)} ms for a CheckRate (p50 ${checkRate.p50Ms.toFixed(1)} ms), ${city.cpuMs.toFixed(2)} ms for ${city.hotels} hotels (p50 ${city.p50Ms.toFixed(1)} ms); the simulator's own CPU not counted\n`,
    );
  }
  for (const { scenario, result } of results) {
    if (!result.flood) continue;
    const { admittedPerSecond, refusedPerSecond, otherNon2xx, errors } = result.flood;
    process.stdout.write(`${scenario.name}: the flood got ${admittedPerSecond} req/s answered, ${refusedPerSecond} req/s refused with 429 (in flight), ${otherNon2xx} other non-2xx, ${errors} errors\n`);
  }
}

/**
 * One scenario's figures as --json writes them.
 * @typedef {{ scenario: string, reqPerS: number, p50Ms: number, p99Ms: number, errors: number, appsCpuMsPerOp: number | null, infraCpuMsPerOp?: number | null, perAppCpuMs: Record<string, number> }} ScenarioFigures
 */

/**
 * --compare REF: REF checked out in a git worktree of its own and built, this benchmark run
 * on its platform, then on this checkout's (same arguments, same machine, one after the
 * other), and the two runs' figures side by side.
 * @param {string} ref
 */
async function compare(ref) {
  const dir = fs.mkdtempSync(path.join(os.tmpdir(), 'hotel-bench-ref-'));
  const git = (/** @type {string[]} */ args) => spawnSync('git', args, { cwd: ROOT, encoding: 'utf8' });
  const added = git(['worktree', 'add', '--detach', dir, ref]);
  if (added.status !== 0) throw new Error(`git worktree add ${ref}: ${added.stderr.trim()}`);
  cleanups.push(() => git(['worktree', 'remove', '--force', dir]));
  fs.symlinkSync(path.join(ROOT, 'node_modules'), path.join(dir, 'node_modules'));
  const commit = git(['rev-parse', '--short', ref]).stdout.trim();
  log(`building ${ref} (${commit}) in ${dir}...`);
  const built = spawnSync(process.execPath, [path.join(ROOT, 'node_modules/nx/dist/bin/nx.js'), 'run-many', '-t', 'build', '--outputStyle=static', '--parallel=2'], {
    cwd: dir,
    env: { ...process.env, ...NX_ENV },
    stdio: ['ignore', 'ignore', 'inherit'],
  });
  if (built.status !== 0) throw new Error(`building ${ref} failed`);
  const args = [];
  const argv = process.argv.slice(2);
  for (let i = 0; i < argv.length; i++) {
    if (argv[i] === '--compare' || argv[i] === '--json') i++;
    else if (!argv[i].startsWith('--compare=') && !argv[i].startsWith('--json=')) args.push(argv[i]);
  }
  /** @type {Record<string, ScenarioFigures[]>} */
  const runs = {};
  for (const [label, extra] of /** @type {const} */ ([[`${ref} (${commit})`, ['--platform-root', dir]], ['this checkout', []]])) {
    const file = path.join(dir, `bench-${Object.keys(runs).length}.json`);
    log(`measuring ${label}...`);
    const child = spawnSync(process.execPath, [__filename, ...args, ...extra, '--json', file], { cwd: ROOT, stdio: 'inherit' });
    if (child.status !== 0) throw new Error(`the run on ${label} failed (exit ${child.status})`);
    runs[label] = JSON.parse(fs.readFileSync(file, 'utf8'));
  }
  const [[refLabel, before], [, after]] = Object.entries(runs);
  const ratio = (/** @type {number | null | undefined} */ now, /** @type {number | null | undefined} */ then) => (now != null && then ? (now / then).toFixed(2) : '');
  process.stdout.write(`\nnpm run bench -- --compare: ${refLabel} against this checkout, ratios this / ${ref}\n`);
  console.table(
    after.map((figures) => {
      const was = before.find((candidate) => candidate.scenario === figures.scenario);
      return {
        scenario: figures.scenario,
        [`req/s ${ref}`]: was ? Math.round(was.reqPerS) : '',
        'req/s now': Math.round(figures.reqPerS),
        'req/s ratio': ratio(figures.reqPerS, was?.reqPerS),
        [`p50 ms ${ref}`]: was?.p50Ms ?? '',
        'p50 ms now': figures.p50Ms,
        [`apps CPU ms/op ${ref}`]: was?.appsCpuMsPerOp?.toFixed(2) ?? '',
        'apps CPU ms/op now': figures.appsCpuMsPerOp?.toFixed(2) ?? '',
        'CPU ratio': ratio(figures.appsCpuMsPerOp, was?.appsCpuMsPerOp),
        [`NATS+PG ms/op ${ref}`]: was?.infraCpuMsPerOp?.toFixed(2) ?? '',
        'NATS+PG ms/op now': figures.infraCpuMsPerOp?.toFixed(2) ?? '',
      };
    }),
  );
  for (const figures of after) {
    const was = before.find((candidate) => candidate.scenario === figures.scenario);
    if (!was) continue;
    const apps = [...new Set([...Object.keys(figures.perAppCpuMs), ...Object.keys(was.perAppCpuMs)])].sort();
    const parts = apps.map((app) => `${app}=${(was.perAppCpuMs[app] ?? 0).toFixed(3)}→${(figures.perAppCpuMs[app] ?? 0).toFixed(3)}`);
    process.stdout.write(`per-app CPU ms/op, ${figures.scenario}: ${parts.join(' ')}\n`);
  }
}

process.on('SIGINT', () => cleanup().then(() => process.exit(130)));
(options.compare ? compare(options.compare) : main())
  .then(cleanup)
  .catch(async (error) => {
    log(`bench failed: ${error.message}`);
    await cleanup();
    process.exit(1);
  });
