import { ChildProcess, spawn, spawnSync } from 'node:child_process';
import { chmodSync, existsSync, mkdtempSync, readFileSync, rmSync, statSync } from 'node:fs';
import { connect } from 'nats';
import { tmpdir } from 'node:os';
import { join, resolve } from 'node:path';
import { Client } from 'pg';
import { PlatformEnv, ServiceEnv, developmentSecrets, loadEnv, secretNames, secretWeakness } from '@hotel/platform';
import { GUEST, call, day, freePort, staySequence } from '@hotel/testing';
import { BookingEnv } from '../apps/booking/src/booking.env';
import { GatewayEnv } from '../apps/gateway/src/gateway.env';
import { RatesEnv } from '../apps/rates/src/rates.env';
import { SearchEnv } from '../apps/search/src/search.env';
import { UsersEnv } from '../apps/users/src/users.env';
import { SimulatorEnv } from '../apps/vendor-simulator/src/simulator.env';
import { SecretBox } from '../apps/webhooks/src/endpoints/secret-box';
import { WebhooksEnv } from '../apps/webhooks/src/webhooks.env';

const ROOT = resolve(__dirname, '..');
// Plain JavaScript helpers of the workspace's commands.
// eslint-disable-next-line @typescript-eslint/no-require-imports -- plain JavaScript of the workspace's commands, not built
const { startNatsServer } = require('./lib/nats');

const sleep = (ms: number) => new Promise((resolveSleep) => setTimeout(resolveSleep, ms));

/** Each process npm start runs, with the environment class its main loads. */
const APP_ENVS: Record<string, new () => PlatformEnv | SimulatorEnv> = {
  gateway: GatewayEnv,
  users: UsersEnv,
  accounting: ServiceEnv,
  promo: ServiceEnv,
  search: SearchEnv,
  rates: RatesEnv,
  booking: BookingEnv,
  webhooks: WebhooksEnv,
  'vendor-simulator': SimulatorEnv,
};

/** The environment a running process was started with, as the kernel keeps it. */
function environOf(pid: number): Record<string, string> {
  const entries = readFileSync(`/proc/${pid}/environ`, 'utf8').split('\0').filter(Boolean);
  return Object.fromEntries(entries.map((entry) => [entry.slice(0, entry.indexOf('=')), entry.slice(entry.indexOf('=') + 1)]));
}

async function eventually<T>(what: string, probe: () => Promise<T | undefined> | T | undefined, timeoutMs: number): Promise<T> {
  const deadline = Date.now() + timeoutMs;
  for (;;) {
    const value = await probe();
    if (value !== undefined) return value;
    if (Date.now() > deadline) throw new Error(`timed out waiting for ${what}`);
    await sleep(200);
  }
}

/**
 * `npm start` as a user runs it, on the embedded PostgreSQL (EMBEDDED_PG=1) and its
 * own NATS broker with an identity per app: ready, every app on secrets made for it
 * (none at a development value), the admin command's key authenticates, Ctrl-C stops
 * cleanly, a second start finds the same data, and a service that dies is restarted.
 * NATS_PORT points at a broker without authentication, which npm start must not reuse.
 */
describe('npm start (embedded PostgreSQL)', () => {
  let anonymous: { url: string; port: number; kill(signal?: string): Promise<void> };
  let dataDir: string;
  let port: number;

  beforeAll(async () => {
    dataDir = mkdtempSync(join(tmpdir(), 'hotel-start-'));
    // The embedded server runs as the OS user postgres, which must reach the directory.
    chmodSync(dataDir, 0o755);
    // A broker that takes anonymous connections, on the port npm start is told to use.
    anonymous = await startNatsServer({ port: await freePort(), storeDir: join(dataDir, 'anonymous-nats') });
    port = await freePort();
  });
  /** Every npm start of this file: one a failed test left running is stopped (Ctrl-C) before the data goes. */
  const started: ChildProcess[] = [];
  afterAll(async () => {
    for (const child of started) if (child.exitCode === null && child.signalCode === null) await stop(child);
    await anonymous?.kill();
    rmSync(dataDir, { recursive: true, force: true });
  });

  function start(): { child: ChildProcess; ready: Promise<string>; output: () => string } {
    const child = spawn(process.execPath, [join(ROOT, 'tools/start.js')], {
      cwd: ROOT,
      env: {
        ...process.env,
        START_SKIP_BUILD: '1',
        EMBEDDED_PG: '1',
        EMBEDDED_PG_PORT: '0',
        NATS_URL: '',
        NATS_PORT: String(anonymous.port),
        PORT: String(port),
        DATA_DIR: dataDir,
        LOG_LEVEL: 'warn',
        // The target policy npm start runs with unless told otherwise.
        WEBHOOK_ALLOW_PRIVATE_TARGETS: '',
      },
      stdio: ['ignore', 'pipe', 'pipe'],
    });
    started.push(child);
    let output = '';
    const ready = new Promise<string>((resolveReady, reject) => {
      const onData = (chunk: Buffer) => {
        output += chunk.toString();
        if (output.includes('Hotel booking platform is ready.')) resolveReady(output);
      };
      child.stdout!.on('data', onData);
      child.stderr!.on('data', onData);
      child.once('exit', (code) => reject(new Error(`npm start exited with ${code}:\n${output}`)));
    });
    return { child, ready, output: () => output };
  }

  function stop(child: ChildProcess): Promise<number | null> {
    return new Promise((resolveExit) => {
      child.once('exit', (code) => resolveExit(code));
      child.kill('SIGINT');
    });
  }

  function runCreateClient(name: string) {
    return spawnSync(process.execPath, [join(ROOT, 'tools/admin.js'), 'create-client', '--name', name], {
      cwd: ROOT,
      // The admin command finds the broker and its identity under DATA_DIR.
      env: { ...process.env, NATS_URL: '', NATS_NKEY_SEED: '', NATS_NKEY_SEED_FILE: '', DATA_DIR: dataDir },
      encoding: 'utf8',
    });
  }

  function createClient(name: string) {
    const admin = runCreateClient(name);
    expect({ status: admin.status, stderr: admin.stderr }).toEqual({ status: 0, stderr: '' });
    return JSON.parse(admin.stdout);
  }

  const base = () => `https://127.0.0.1:${port}`;

  /** `npm run example` against the running npm start (its DATA_DIR; `env` over it): exit code and output. */
  function runExample(env: Record<string, string> = {}): Promise<{ code: number | null; stdout: string; stderr: string }> {
    return new Promise((resolveRun) => {
      const child = spawn(process.execPath, [join(ROOT, 'tools/example.js')], {
        cwd: ROOT,
        env: { ...process.env, DATA_DIR: dataDir, PORT: '', HOTEL_API_URL: '', HOTEL_API_KEY: '', NATS_URL: '', NATS_NKEY_SEED: '', NATS_NKEY_SEED_FILE: '', ...env },
      });
      let stdout = '';
      let stderr = '';
      child.stdout.on('data', (chunk) => (stdout += chunk));
      child.stderr.on('data', (chunk) => (stderr += chunk));
      child.once('exit', (code) => resolveRun({ code, stdout, stderr }));
    });
  }
  const pidOf = (app: string) => {
    const file = join(dataDir, 'run', `${app}.pid`);
    return existsSync(file) ? Number(readFileSync(file, 'utf8').trim()) : undefined;
  };

  it('starts, serves a key made by the admin command, stops on Ctrl-C and keeps data', async () => {
    const first = start();
    const output = await first.ready;
    expect(output).toContain('PostgreSQL    embedded');
    expect(output).toContain(`https://localhost:${port}/`);
    // The banner names every address a newcomer needs: docs, the finance console, metrics.
    for (const page of ['/docs', '/openapi.json', '/finance/']) expect(output).toContain(`https://localhost:${port}${page}`);
    expect(output).toMatch(/gateway http:\/\/127\.0\.0\.1:\d+\/metrics/);

    // Its own broker, not the anonymous one on NATS_PORT; the URL kept for the admin command.
    expect(output).toContain(`127.0.0.1:${anonymous.port} is taken`);
    const natsUrl = readFileSync(join(dataDir, 'nats.url'), 'utf8').trim();
    expect(natsUrl).toMatch(/^nats:\/\/127\.0\.0\.1:\d+$/);
    expect(natsUrl).not.toBe(anonymous.url);
    // It refuses a connection without an identity.
    await expect(connect({ servers: natsUrl, maxReconnectAttempts: 0 })).rejects.toMatchObject({ code: 'AUTHORIZATION_VIOLATION' });
    // Secrets were made once, readable by their owner only.
    for (const file of ['nats.url', 'secrets/voucher-secret', 'secrets/rate-id-secret', 'secrets/nats/admin.nk', 'secrets/nats/gateway.nk', 'secrets/nats/nats.conf']) {
      expect({ file, mode: statSync(join(dataDir, file)).mode & 0o777 }).toEqual({ file, mode: 0o600 });
    }
    expect(statSync(join(dataDir, 'logs', 'gateway.log')).mode & 0o777).toBe(0o600);
    const voucherSecret = readFileSync(join(dataDir, 'secrets/voucher-secret'), 'utf8');

    // No process runs with a development secret: each app's environment, read from the kernel
    // and loaded by its own environment class as its main loads it, holds only secrets made for
    // this installation, each strong enough for production.
    for (const [app, EnvClass] of Object.entries(APP_ENVS)) {
      const pid = pidOf(app);
      expect({ app, running: pid !== undefined }).toEqual({ app, running: true });
      const env = loadEnv(EnvClass, environOf(pid!));
      expect({ app, development: developmentSecrets(env) }).toEqual({ app, development: [] });
      for (const name of secretNames(env)) {
        const value = (env as unknown as Record<string, string | undefined>)[name];
        if (value !== undefined) expect({ app, name, weakness: secretWeakness(value) }).toEqual({ app, name, weakness: null });
      }
    }
    // And none warned that it does (every app warns at start of a development secret).
    expect(first.output()).not.toMatch(/development secrets/);
    // The webhooks service seals the endpoints' signing secrets with the key init-secrets made:
    // the development key (public, in the source) opens nothing.
    const webhooksEnv = environOf(pidOf('webhooks')!);
    expect(webhooksEnv.WEBHOOK_SECRET_KEY_FILE).toBe(join(dataDir, 'secrets/webhook-secret-key'));

    const keys = createClient('Smoke Travel');
    const me = await call(base(), 'GET', '/me', { headers: { authorization: `Bearer ${keys.api_key}` } });
    expect(me.status).toBe(200);
    expect((await call(base(), 'GET', '/health/ready')).status).toBe(200);
    for (const page of ['/docs', '/openapi.json', '/finance/']) expect({ page, status: (await call(base(), 'GET', page)).status }).toEqual({ page, status: 200 });

    // Search and rates reach the simulated vendors with the credentials made for them (the simulator's own): the vendors answer.
    // A search every vendor missed the deadline of (a platform just started on a busy machine) says
    // so (search_completed false) and is searched again, as a partner would; a completed one must have rates.
    const stays = staySequence(40);
    let rates = await call(base(), 'POST', '/v2/rates', { headers: { authorization: `Bearer ${keys.api_key}` }, json: { place_id: 'gn:2988507', ...stays(), limit: 50 } });
    for (let attempt = 1; attempt < 5 && rates.status === 200 && rates.body.rates.length === 0 && rates.body.search_completed === false; attempt++) {
      rates = await call(base(), 'POST', '/v2/rates', { headers: { authorization: `Bearer ${keys.api_key}` }, json: { place_id: 'gn:2988507', ...stays(), limit: 50 } });
    }
    expect(rates.status).toBe(200);
    expect(rates.body.rates.length).toBeGreaterThan(0);

    const endpoint = await call(base(), 'POST', '/api/webhook', { headers: { authorization: keys.backend_token }, json: { url: 'https://hooks.example.com/smoke' } });
    expect(endpoint.status).toBe(201);
    const database = new Client({ connectionString: webhooksEnv.DATABASE_URL });
    await database.connect();
    const { rows } = await database.query('SELECT secret FROM webhooks.endpoints WHERE id = $1', [endpoint.body.data.id]).finally(() => database.end());
    const key = readFileSync(join(dataDir, 'secrets/webhook-secret-key'), 'utf8').trim();
    expect(new SecretBox(key).open(rows[0].secret)).toBe(endpoint.body.data.secret);
    expect(() => new SecretBox(new WebhooksEnv().WEBHOOK_SECRET_KEY).open(rows[0].secret)).toThrow();
    // The default target policy is production's, under npm start too: no loopback receivers.
    const loopback = await call(base(), 'POST', '/api/webhook', { headers: { authorization: keys.backend_token }, json: { url: `https://127.0.0.1:${port}/hook` } });
    expect(loopback.status).toBe(400);

    // A sandbox key's prebook and booking go to the simulator's sandbox desk, whichever vendor's rate it was.
    const sandbox = { authorization: `Bearer ${keys.sandbox_api_key}` };
    const sandboxRates = await call(base(), 'POST', '/v2/rates', { headers: sandbox, json: { place_id: 'gn:2988507', check_in: day(60), check_out: day(62), rooms: [{ adults: 2, children: 0, children_ages: [] }] } });
    expect(sandboxRates.status).toBe(200);
    const prebook = await call(base(), 'POST', '/v2/prebook', { headers: sandbox, json: { rate_id: sandboxRates.body.rates[0].id, payment_method: 'account' } });
    expect(prebook.status).toBe(200);
    const booked = await call(base(), 'POST', '/v2/book', { headers: sandbox, json: { ...GUEST, prebook_id: prebook.body.data.prebook_id } });
    expect(booked.status).toBe(201);
    expect(booked.body.data.status).toBe('confirmed');
    // The desk's reference first (the platform's own after it).
    expect(booked.body.data.booking_reference[0]).toMatch(/^900-\d+$/);

    // npm run example finds this gateway (on a port of its own here) and books a sandbox stay with the SDK …
    const example = await runExample();
    expect({ code: example.code, stderr: example.stderr }).toMatchObject({ code: 0 });
    expect(example.stdout).toContain(`at https://localhost:${port} with the SDK`);
    expect(example.stdout).toContain('Done: a sandbox stay booked');
    // … and one that fails deletes the client it made.
    const failing = await runExample({ HOTEL_API_URL: 'https://127.0.0.1:1' });
    expect(failing.code).toBe(1);
    const made = /deleted the client this run made \((\d+)\)/.exec(failing.stderr);
    expect({ stderr: failing.stderr, deleted: made !== null }).toMatchObject({ deleted: true });
    const listed = spawnSync(process.execPath, [join(ROOT, 'tools/admin.js'), 'list-clients'], { cwd: ROOT, env: { ...process.env, NATS_URL: '', NATS_NKEY_SEED: '', NATS_NKEY_SEED_FILE: '', DATA_DIR: dataDir }, encoding: 'utf8' });
    const leftover = (JSON.parse(listed.stdout).clients as { client_id: number; deleted_at: string | null }[]).find((client) => client.client_id === Number(made![1]));
    expect(leftover?.deleted_at).toEqual(expect.any(String));

    const beforeStop = first.output().length;
    expect(await stop(first.child)).toBe(0);
    // A clean stop logs no trouble: no error or warning from any app.
    // (A long garbage collection is the machine's load, not the stop's: a CI run met one of 108 ms.)
    const trouble = first
      .output()
      .slice(beforeStop)
      .split('\n')
      .filter((line) => /"level":"(error|warn|fatal)"/.test(line) && !line.includes('"msg":"long garbage collection"'));
    expect(trouble).toEqual([]);
    // A clean stop leaves no pid files behind.
    expect(pidOf('users')).toBeUndefined();

    const second = start();
    await second.ready;
    // The same secrets, not new ones: voucher links and rate ids stay valid across restarts.
    expect(readFileSync(join(dataDir, 'secrets/voucher-secret'), 'utf8')).toBe(voucherSecret);
    const again = await call(base(), 'GET', '/me', { headers: { authorization: `Bearer ${keys.api_key}` } });
    expect(again.status).toBe(200);
    expect(again.body.data.client_id).toBe(keys.client_id);
    expect(await stop(second.child)).toBe(0);
  }, 240_000);

  it('restarts a service that dies and serves again', async () => {
    const running = start();
    await running.ready;
    const killed = pidOf('users')!;
    expect(killed).toBeGreaterThan(0);
    process.kill(killed, 'SIGKILL');

    const restartLine = /users exited unexpectedly \(signal SIGKILL\); restarting in [\d.]+ s \(attempt 1\); log: \S+users\.log/;
    await eventually('the restart line', () => (restartLine.test(running.output()) ? true : undefined), 30_000);
    const restarted = await eventually('a new users process', () => {
      const pid = pidOf('users');
      return pid && pid !== killed ? pid : undefined;
    }, 30_000);
    expect(() => process.kill(restarted, 0)).not.toThrow();
    await eventually('/health/ready 200', async () => ((await call(base(), 'GET', '/health/ready')).status === 200 ? true : undefined), 60_000);
    // The restarted users service makes and resolves a new key (readiness is the gateway's last background check: it may
    // have said ready a moment before the new process took messages).
    const keys = await eventually('the restarted users service making a client', async () => {
      const admin = runCreateClient('Phoenix Travel');
      return admin.status === 0 ? JSON.parse(admin.stdout) : undefined;
    }, 30_000);
    expect((await call(base(), 'GET', '/me', { headers: { authorization: `Bearer ${keys.api_key}` } })).status).toBe(200);

    // Its broker and its embedded PostgreSQL are kept running too: each killed, each back, and the apps with them.
    const pidFromFile = (file: string) => Number(readFileSync(file, 'utf8').split('\n')[0].trim());
    for (const [name, pidFile] of [
      ['nats-server', join(dataDir, 'run', 'nats-server.pid')],
      ['embedded PostgreSQL', join(dataDir, 'pg', 'postmaster.pid')],
    ] as const) {
      const gone = pidFromFile(pidFile);
      process.kill(gone, 'SIGKILL');
      const line = new RegExp(`${name} exited unexpectedly \\(signal SIGKILL\\); restarting in [\\d.]+ s \\(attempt 1\\)`);
      await eventually(`the ${name} restart line`, () => (line.test(running.output()) ? true : undefined), 30_000);
      await eventually(`${name} running again`, () => (running.output().includes(`${name} is running again`) ? true : undefined), 60_000);
      const back = pidFromFile(pidFile);
      expect(back).not.toBe(gone);
      expect(() => process.kill(back, 0)).not.toThrow();
      // A new client is made (users, its database, the bus) and its key works (the gateway, the bus again).
      const made = await eventually(`a client made after ${name} came back`, async () => {
        const admin = runCreateClient(`After ${name}`);
        return admin.status === 0 ? JSON.parse(admin.stdout) : undefined;
      }, 60_000);
      await eventually(`/me after ${name} came back`, async () => ((await call(base(), 'GET', '/me', { headers: { authorization: `Bearer ${made.api_key}` } })).status === 200 ? true : undefined), 60_000);
    }
    // npm start itself kept running, and Ctrl-C still stops everything.
    expect(running.child.exitCode).toBeNull();
    expect(await stop(running.child)).toBe(0);
    expect(() => process.kill(restarted, 0)).toThrow();
  }, 360_000);
});
