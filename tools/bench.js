#!/usr/bin/env node
// `npm run bench [-- --duration S --connections N --only TEXT]`: starts the whole
// platform (npm start on a private NATS server and a scratch database), measures
// named scenarios with autocannon on loopback, and prints requests per second,
// p50/p99 latency and each scenario's throughput as a ratio of the one-NATS-hop
// baseline measured in the same run, so figures compare across noisy machines.
const { fork, spawn } = require('node:child_process');
const fs = require('node:fs');
const os = require('node:os');
const path = require('node:path');
const { parseArgs } = require('node:util');
const { ROOT, log, ensureDependencies, build, freePort, findOnPath, portAnswers } = require('./lib/workspace');

const { values: options } = parseArgs({
  options: {
    duration: { type: 'string', default: process.env.BENCH_DURATION_S || '10' },
    connections: { type: 'string', default: process.env.BENCH_CONNECTIONS || '50' },
    only: { type: 'string' },
  },
});
const DURATION_S = Number(options.duration);
const CONNECTIONS = Number(options.connections);

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

function stopChild(child, signal = 'SIGTERM') {
  return new Promise((resolve) => {
    if (child.exitCode !== null || child.signalCode !== null) return resolve();
    child.once('exit', () => resolve());
    child.kill(signal);
  });
}

async function startNats() {
  const binary = findOnPath('nats-server', ['/usr/sbin', '/usr/local/sbin']);
  if (!binary) throw new Error('nats-server is needed for the benchmark (apt-get install nats-server)');
  const port = await freePort();
  const child = spawn(binary, ['-a', '127.0.0.1', '-p', String(port)], { stdio: 'ignore' });
  cleanups.push(() => stopChild(child));
  for (let i = 0; i < 100 && !(await portAnswers(port)); i++) await new Promise((r) => setTimeout(r, 50));
  return `nats://127.0.0.1:${port}`;
}

async function scratchDatabase() {
  const serverUrl = process.env.BENCH_DATABASE_URL || 'postgres://postgres@127.0.0.1:5432/postgres';
  const { Client } = require('pg');
  const name = 'hotel_bench';
  const admin = new Client({ connectionString: serverUrl });
  await admin.connect();
  await admin.query(`DROP DATABASE IF EXISTS ${name} WITH (FORCE)`);
  await admin.query(`CREATE DATABASE ${name}`);
  await admin.end();
  const url = new URL(serverUrl);
  url.pathname = `/${name}`;
  return url.toString();
}

function startPlatform(env) {
  const child = spawn(process.execPath, [path.join(ROOT, 'tools/start.js')], {
    cwd: ROOT,
    env: { ...process.env, ...env },
    stdio: ['ignore', 'pipe', 'pipe'],
  });
  cleanups.push(() => stopChild(child, 'SIGINT'));
  let output = '';
  return new Promise((resolve, reject) => {
    const onData = (chunk) => {
      output += chunk;
      if (output.includes('Hotel booking platform is ready.')) resolve(child);
    };
    child.stdout.on('data', onData);
    child.stderr.on('data', onData);
    child.once('exit', (code) => reject(new Error(`the platform did not start (exit ${code}):\n${output}`)));
  });
}

function startBaseline(args) {
  const child = fork(path.join(__dirname, 'bench/baseline.js'), args, { stdio: ['ignore', 'inherit', 'inherit', 'ipc'] });
  cleanups.push(() => stopChild(child));
  return new Promise((resolve, reject) => {
    child.once('message', () => resolve(child));
    child.once('exit', (code) => reject(new Error(`baseline ${args[0]} exited with ${code}`)));
  });
}

function daysAhead(days) {
  return new Date(Date.now() + days * 86_400_000).toISOString().slice(0, 10);
}

async function api(base, method, pathName, headers, body) {
  const https = require('node:https');
  return new Promise((resolve, reject) => {
    const request = https.request(
      new URL(pathName, base),
      { method, rejectUnauthorized: false, headers: { ...headers, ...(body && { 'content-type': 'application/json' }) } },
      (response) => {
        let text = '';
        response.on('data', (chunk) => (text += chunk));
        response.on('end', () => resolve({ status: response.statusCode, body: JSON.parse(text) }));
      },
    );
    request.on('error', reject);
    if (body) request.write(JSON.stringify(body));
    request.end();
  });
}

function measure(scenario) {
  const autocannon = require('autocannon');
  return new Promise((resolve, reject) => {
    autocannon(
      {
        url: scenario.url,
        method: scenario.method ?? 'GET',
        headers: scenario.headers,
        body: scenario.body,
        connections: scenario.connections ?? CONNECTIONS,
        duration: DURATION_S,
        ...(scenario.overallRate && { overallRate: scenario.overallRate }),
        ...(scenario.requests && { requests: scenario.requests }),
      },
      (error, result) => (error ? reject(error) : resolve(result)),
    );
  });
}

async function main() {
  ensureDependencies();
  build({ quiet: true });
  const natsUrl = await startNats();
  const databaseUrl = await scratchDatabase();
  const dataDir = fs.mkdtempSync(path.join(os.tmpdir(), 'hotel-bench-'));
  cleanups.push(() => fs.rmSync(dataDir, { recursive: true, force: true }));
  const gatewayPort = await freePort();
  log('starting the platform...');
  await startPlatform({
    NATS_URL: natsUrl,
    DATABASE_URL: databaseUrl,
    PORT: String(gatewayPort),
    DATA_DIR: dataDir,
    LOG_LEVEL: 'warn',
    RATE_LIMIT_RPS: '1000000',
    RATE_LIMIT_BURST: '1000000',
  });
  const gateway = `https://127.0.0.1:${gatewayPort}`;

  const baselinePort = await freePort();
  await startBaseline(['echo', natsUrl]);
  await startBaseline(['server', natsUrl, String(baselinePort), path.join(dataDir, 'tls/dev-cert.pem'), path.join(dataDir, 'tls/dev-key.pem')]);
  const baseline = `https://127.0.0.1:${baselinePort}`;

  // Arrange: a client and a user to read.
  const admin = require('node:child_process').spawnSync(process.execPath, [path.join(ROOT, 'tools/admin.js'), 'create-client', '--name', 'Bench Travel', '--credit-limit', '999999999'], {
    cwd: ROOT,
    env: { ...process.env, NATS_URL: natsUrl },
    encoding: 'utf8',
  });
  if (admin.status !== 0) throw new Error(`create-client failed: ${admin.stderr}`);
  const keys = JSON.parse(admin.stdout);
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
  const around = await api(gateway, 'POST', '/v2/rates', booking, { ...stay, coordinates: { lat: 48.85341, long: 2.3488 }, radius: 50000, limit: 2000 });
  const nearby = [...new Set(around.body.rates.map((rate) => rate.hotel_id))];
  const hotelIds = (count) => Array.from({ length: count }, (_, i) => nearby[i % nearby.length] + 0);
  log(`${nearby.length} hotels with rates around Paris for the V2 scenarios`);

  // A V1 session and one hotel's rates, for the prebook scenario.
  let session = await api(gateway, 'POST', '/search', booking, { place_id: 'gn:2988507', ...stay });
  for (let i = 0; i < 100 && !session.body.data.search_completed; i++) {
    await new Promise((resolve) => setTimeout(resolve, 200));
    session = await api(gateway, 'GET', `/search/${session.body.data.session_id}`, booking);
  }
  let hotelRates;
  for (let i = 0; i < 100; i++) {
    hotelRates = await api(gateway, 'GET', `/hotel/${session.body.data.results[0].hotel.id}/${session.body.data.session_id}`, booking);
    if (hotelRates.body.data.search_completed) break;
    await new Promise((resolve) => setTimeout(resolve, 200));
  }
  const prebookPath = `/prebook/${hotelRates.body.data.hotel.id}/${session.body.data.session_id}/${hotelRates.body.data.rates[0].id}/account`;

  const scenarios = [
    { name: 'baseline: bare Fastify JSON route', url: `${baseline}/json` },
    { name: 'baseline: one NATS hop to an echo responder', url: `${baseline}/nats`, isReference: true },
    { name: 'baseline: one NATS hop at 1000 req/s', url: `${baseline}/nats`, overallRate: 1000, connections: 20 },
    { name: 'gateway: GET /api/user/{id} (backend token)', url: `${gateway}/api/user/${user.body.data.id}`, headers: backend },
    {
      name: 'places: GET /places/search at 1000 req/s',
      url: `${gateway}/places/search?text_query=par`,
      headers: booking,
      overallRate: 1000,
      connections: 20,
      requests: ['par', 'london', 'sao paulo', 'new y', 'berl', 'tokyo', 'madr', 'lisb'].map((text) => ({ method: 'GET', path: `/places/search?text_query=${encodeURIComponent(text)}` })),
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
      name: 'v2: POST /v2/rates, 2000 hotel_ids',
      url: `${gateway}/v2/rates`,
      method: 'POST',
      headers: { ...booking, 'content-type': 'application/json' },
      body: JSON.stringify({ ...stay, hotel_ids: hotelIds(2000) }),
      // One request at a time: this scenario measures the latency of one big answer.
      connections: 1,
    },
    {
      name: 'prebook: GET /prebook/{hotel}/{session}/{rate}/account',
      url: `${gateway}${prebookPath}`,
      headers: booking,
      connections: 20,
    },
  ].filter((scenario) => !options.only || scenario.name.includes(options.only) || scenario.isReference);

  log(`measuring ${scenarios.length} scenarios, ${DURATION_S} s each, ${CONNECTIONS} connections`);
  const results = [];
  for (const scenario of scenarios) {
    const result = await measure(scenario);
    results.push({ scenario, result });
    log(`${scenario.name}: ${Math.round(result.requests.average)} req/s`);
  }
  const reference = results.find(({ scenario }) => scenario.isReference)?.result.requests.average;
  const rows = results.map(({ scenario, result }) => ({
    scenario: scenario.name,
    'req/s': Math.round(result.requests.average),
    'p50 ms': result.latency.p50,
    'p99 ms': result.latency.p99,
    errors: result.errors + result.timeouts + result.non2xx,
    'x one-hop': reference ? (result.requests.average / reference).toFixed(2) : 'n/a',
  }));
  process.stdout.write(`\nnpm run bench — ${os.cpus().length} cores, ${DURATION_S} s per scenario, ${CONNECTIONS} connections\n`);
  console.table(rows);
}

process.on('SIGINT', () => cleanup().then(() => process.exit(130)));
main()
  .then(cleanup)
  .catch(async (error) => {
    log(`bench failed: ${error.message}`);
    await cleanup();
    process.exit(1);
  });
