import { ChildProcess, spawn, spawnSync } from 'node:child_process';
import { mkdtempSync, readFileSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join, resolve } from 'node:path';
import { NatsConnection, connect } from 'nats';
import { STREAMS } from '@hotel/contracts';
import { natsConnectionOptions } from '@hotel/platform';
import { GUEST, TestDatabase, call, createTestDatabase, freePort, sleep, staySequence } from '@hotel/testing';

// `npm run cluster` as production lays the platform out: three NATS nodes with the booking
// events on all three, two replicas of every app, two gateways behind the balancer, the admin
// command finding it through DATA_DIR; a gateway killed, the balancer sends everything to the
// other. Losing a node (the stream's leader) or a replica under booking load, with every
// invariant checked, is `npm run chaos -- --cluster` (tools/chaos.e2e-spec.ts).

const ROOT = resolve(__dirname, '..');
// eslint-disable-next-line @typescript-eslint/no-require-imports -- plain JavaScript of the workspace's commands, not built
const { NATS_NODES, APP_REPLICAS } = require('./cluster') as { NATS_NODES: number; APP_REPLICAS: number };

jest.setTimeout(300_000);

interface Outcome {
  status: number;
  retryAfter?: string;
  bookingId?: number;
  /** When it was answered (ms since the epoch). */
  at: number;
  /** A refusal's message. */
  message?: string;
}

describe('npm run cluster', () => {
  let database: TestDatabase;
  let dataDir: string;
  let port: number;
  let child: ChildProcess;
  let output = '';
  let keys: { api_key: string };
  let admin: NatsConnection;
  const base = () => `https://localhost:${port}`;
  const pidOf = (name: string) => Number(readFileSync(join(dataDir, 'run', `${name}.pid`), 'utf8').trim());

  beforeAll(async () => {
    database = await createTestDatabase();
    dataDir = mkdtempSync(join(tmpdir(), 'hotel-cluster-'));
    port = await freePort();
    child = spawn(process.execPath, [join(ROOT, 'tools/cluster.js')], {
      cwd: ROOT,
      env: { ...process.env, START_SKIP_BUILD: '1', DATABASE_URL: database.url, DATA_DIR: dataDir, PORT: String(port), LOG_LEVEL: 'warn', NATS_URL: '',
        // The load is about losing parts, not the client's rate limit.
        RATE_LIMIT_RPS: '100000', RATE_LIMIT_BURST: '100000',
        // A node killed stays down 8 s, past JetStream's election: the stream gets another leader meanwhile.
        NATS_RESTART_DELAY_MS: '8000' },
      stdio: ['ignore', 'pipe', 'pipe'],
    });
    await new Promise<void>((resolveReady, reject) => {
      const onData = (chunk: Buffer) => {
        output += chunk.toString();
        if (output.includes('Hotel booking platform is ready')) resolveReady();
      };
      child.stdout!.on('data', onData);
      child.stderr!.on('data', onData);
      child.once('exit', (code) => reject(new Error(`npm run cluster exited with ${code}:\n${output}`)));
    });
    const created = spawnSync(process.execPath, [join(ROOT, 'tools/admin.js'), 'create-client', '--name', 'Cluster Travel', '--credit-limit', '100000000'], {
      cwd: ROOT,
      env: { ...process.env, NATS_URL: '', NATS_NKEY_SEED: '', NATS_NKEY_SEED_FILE: '', DATA_DIR: dataDir },
      encoding: 'utf8',
    });
    expect({ status: created.status, stderr: created.stderr }).toEqual({ status: 0, stderr: '' });
    keys = JSON.parse(created.stdout);
    const url = readFileSync(join(dataDir, 'nats.url'), 'utf8').trim();
    admin = await connect(natsConnectionOptions({ url, identity: 'admin', seed: readFileSync(join(dataDir, 'secrets/nats/admin.nk'), 'utf8').trim() }));
  }, 240_000);

  afterAll(async () => {
    await admin?.close();
    if (child && child.exitCode === null) {
      await new Promise((resolveExit) => {
        child.once('exit', resolveExit);
        child.kill('SIGINT');
      });
    }
    await database?.drop();
    if (dataDir) rmSync(dataDir, { recursive: true, force: true });
  });

  const auth = () => ({ authorization: `Bearer ${keys.api_key}` });
  const stays = staySequence(30, 1);

  /** One V2 booking: rates of a few hotels, prebook the first, book it. The outcome of the step that did not succeed, or the booking's. */
  async function bookOnce(): Promise<Outcome> {
    const outcome = (response: { status: number; headers: Record<string, string | string[] | undefined>; body?: { message?: string } }): Outcome => ({
      status: response.status,
      retryAfter: response.headers['retry-after'] as string | undefined,
      at: Date.now(),
      message: response.body?.message,
    });
    try {
      const rates = await call(base(), 'POST', '/v2/rates', { headers: auth(), json: { place_id: 'gn:2988507', ...stays(), limit: 5 } });
      if (rates.status !== 200) return outcome(rates);
      if (rates.body.rates.length === 0) return { status: 204, at: Date.now() };
      const prebook = await call(base(), 'POST', '/v2/prebook', { headers: auth(), json: { rate_id: rates.body.rates[0].id, payment_method: 'account' } });
      if (prebook.status !== 200) return outcome(prebook);
      const booked = await call(base(), 'POST', '/v2/book', { headers: auth(), json: { ...GUEST, prebook_id: prebook.body.data.prebook_id } });
      return { ...outcome(booked), bookingId: booked.body?.data?.id };
    } catch (error) {
      // A connection cut under a request (the gateway killed) is not an answer.
      return { status: 0, at: Date.now(), message: String(error) };
    }
  }

  async function streamInfo() {
    const manager = await admin.jetstreamManager({ checkAPI: false });
    return manager.streams.info(STREAMS.BOOKING_EVENTS.name);
  }

  it(`runs ${NATS_NODES} NATS nodes and ${APP_REPLICAS} replicas of every app, the booking events on every node`, async () => {
    for (let node = 1; node <= NATS_NODES; node++) expect(pidOf(`nats-${node}`)).toBeGreaterThan(0);
    for (const app of ['gateway', 'users', 'search', 'rates', 'booking', 'promo', 'accounting', 'webhooks']) {
      expect([pidOf(app), pidOf(`${app}@2`)].every((pid) => pid > 0)).toBe(true);
    }
    // A just-started cluster's vendors may all miss V2's deadline (no rate): a partner searches again.
    let first = await bookOnce();
    for (let attempt = 1; first.status === 204 && attempt < 5; attempt++) {
      await sleep(2000);
      first = await bookOnce();
    }
    expect(first.status).toBe(201);
    let info = await streamInfo().catch(() => null);
    for (let waited = 0; !info && waited < 50; waited++) {
      await sleep(200);
      info = await streamInfo().catch(() => null);
    }
    expect(info!.config.num_replicas).toBe(NATS_NODES);
    expect(info!.cluster?.replicas?.length).toBe(NATS_NODES - 1);
  });

  it('sends every request to the other gateway once one is gone', async () => {
    process.kill(pidOf('gateway@2'), 'SIGKILL');
    // Connections it held are cut (the balancer closes them); new ones go to the other.
    await sleep(500);
    const answers = [];
    for (let i = 0; i < 10; i++) answers.push((await call(base(), 'GET', '/me', { headers: auth() })).status);
    expect(answers).toEqual(Array(10).fill(200));
  });
});
