import { ChildProcess, spawn, spawnSync } from 'node:child_process';
import { existsSync, mkdtempSync, readFileSync, readdirSync, rmSync, symlinkSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join, resolve } from 'node:path';
import { SERVICE_NAMES, ServiceName } from '@hotel/contracts';
import { GUEST, TWO_ADULTS, WebhookReceiver, bearer, day, httpsFetch } from '@hotel/testing';
import { ClientKeys, INSTANT_VENDORS, TestSystem } from './system';

const ROOT = resolve(__dirname, '../../..');
const git = (...args: string[]) => spawnSync('git', args, { cwd: ROOT, encoding: 'utf8' });

/**
 * The release before this checkout: the last one deploy/releases.json lists that is in
 * HEAD's history and is not HEAD itself (docs/operations/upgrades.md, "Releases").
 */
function previousRelease(): { tag: string; commit: string } {
  const head = git('rev-parse', 'HEAD').stdout.trim();
  const { releases } = JSON.parse(readFileSync(join(ROOT, 'deploy/releases.json'), 'utf8')) as { releases: { name: string; commit: string }[] };
  for (const { name, commit } of [...releases].reverse()) {
    if (commit !== head && git('merge-base', '--is-ancestor', commit, 'HEAD').status === 0) return { tag: name, commit };
  }
  throw new Error(`no release of deploy/releases.json is in the history before HEAD (${releases.map((release) => release.name).join(', ')}): the rolling upgrade needs the previous release`);
}

/** The release checked out in a worktree of its own and built (every project, as its own tools/build.js builds them). */
function buildRelease(commit: string): string {
  const dir = mkdtempSync(join(tmpdir(), 'hotel-previous-release-'));
  const added = git('worktree', 'add', '--detach', dir, commit);
  if (added.status !== 0) throw new Error(`git worktree add: ${added.stderr}`);
  symlinkSync(join(ROOT, 'node_modules'), join(dir, 'node_modules'));
  const projects = ['apps', 'libs'].flatMap((group) => readdirSync(join(dir, group)).map((name) => `${group}/${name}`)).filter((project) => existsSync(join(dir, project, 'src')));
  const built = spawnSync(process.execPath, [join(dir, 'tools/build.js'), ...projects], { cwd: dir, encoding: 'utf8' });
  if (built.status !== 0) throw new Error(`building the previous release failed: ${built.stderr}`);
  return dir;
}

/** A process of the previous release's app, started as its main starts it; resolves once it listens. */
interface OldApp {
  child: ChildProcess;
  /** The gateway's address (from its "listening" line). */
  url?: string;
  output: string[];
}

function startOldApp(dir: string, name: ServiceName | 'gateway', env: Record<string, string>): Promise<OldApp> {
  const child = spawn(process.execPath, [join(dir, 'dist/apps', name, 'src/main.js')], { cwd: dir, env: { PATH: process.env.PATH ?? '', ...env }, stdio: ['ignore', 'pipe', 'pipe'] });
  const app: OldApp = { child, output: [] };
  return new Promise((resolveStart, rejectStart) => {
    const onLine = (chunk: Buffer) => {
      for (const line of chunk.toString().split('\n').filter(Boolean)) {
        // The last lines, for a failure's message.
        app.output.push(line);
        if (app.output.length > 50) app.output.shift();
        if (line.includes('"gateway listening"')) app.url = JSON.parse(line).url;
        if (line.includes('service listening on NATS') || line.includes('"gateway listening"')) resolveStart(app);
      }
    };
    child.stdout!.on('data', onLine);
    child.stderr!.on('data', onLine);
    child.once('exit', (code) => rejectStart(new Error(`the previous release's ${name} exited (${code}) before it listened:\n${app.output.join('\n')}`)));
  });
}

/** SIGTERM, as Kubernetes stops a pod: resolves with the exit code once the app has closed (in-flight work finished). */
function stopOldApp(app: OldApp): Promise<number | null> {
  if (app.child.exitCode !== null) return Promise.resolve(app.child.exitCode);
  return new Promise((resolveStop) => {
    app.child.once('exit', (code) => resolveStop(code));
    app.child.kill('SIGTERM');
  });
}

const sleep = (ms: number) => new Promise((resolveSleep) => setTimeout(resolveSleep, ms));

/**
 * The order docs/operations/upgrades.md gives: the services (the called) before the gateway (their caller); webhooks
 * before booking, which upgrading to release-2026.11.28 needed (release-2026.11.27's webhooks service posted a booking
 * event as it was, and release-2026.11.28's events carried the booking beside the API's Booking).
 */
const UPGRADE_ORDER: ServiceName[] = ['users', 'promo', 'accounting', 'rates', 'search', 'webhooks', 'booking'];

/**
 * A rolling upgrade from the previous release to this one under booking load: the previous
 * release's apps (built from its tag) run on the bus and the database; this release's
 * replicas start beside them one service at a time, each old one stops as Kubernetes
 * stops a pod (SIGTERM), the gateway last. Not one request may fail.
 */
describe('a rolling upgrade from the previous release', () => {
  let system: TestSystem;
  let dir: string;
  let release: { tag: string; commit: string };
  const old = new Map<ServiceName | 'gateway', OldApp>();
  let keys: ClientKeys;
  let receiver: WebhookReceiver;

  beforeAll(async () => {
    release = previousRelease();
    dir = buildRelease(release.commit);
    // Limits no request of the load reaches, and callers that wait 10 s (the machine runs other
    // test files beside this one): the test is about upgrades, not rate limits or a busy machine.
    // Webhooks to the test's receiver on loopback, dispatched soon.
    system = await TestSystem.start(
      { ...INSTANT_VENDORS, RATE_LIMIT_RPS: '100000', RATE_LIMIT_BURST: '100000', RPC_TIMEOUT_MS: '10000', WEBHOOK_ALLOW_PRIVATE_TARGETS: '1', WEBHOOK_DISPATCH_INTERVAL_MS: '200' },
      [],
      { gateway: false },
    );
    await system.startVendors();
    // Each app with this system's variables and its own identity on the bus, as the system starts its own.
    // A stopping replica answers what it holds for up to the callers' timeout (the release's own code waits that long every time).
    const grace = String(Number(system.env.RPC_TIMEOUT_MS) + 500);
    const envOf = (name: ServiceName | 'gateway') => ({ ...system.env, ...system.identityEnv(name), LOG_LEVEL: 'info', SHUTDOWN_GRACE_MS: grace });
    for (const name of SERVICE_NAMES) old.set(name, await startOldApp(dir, name, envOf(name)));
    old.set('gateway', await startOldApp(dir, 'gateway', { ...envOf('gateway'), DATA_DIR: system.dataDir, PORT: '0' }));
    keys = await system.createClient('Upgrade Travel', '100000000');
    // The client takes its booking events at an endpoint, registered through the previous release's gateway.
    receiver = await WebhookReceiver.start();
    const registered = await httpsFetch(readFileSync(join(system.dataDir, 'tls/dev-cert.pem'), 'utf8'))(`${old.get('gateway')!.url}/api/webhook`, {
      method: 'POST',
      headers: { authorization: keys.backend_token, 'content-type': 'application/json' },
      body: JSON.stringify({ url: `${receiver.url}/upgrade` }),
    });
    expect(registered.status).toBe(201);
  }, 180_000);

  afterAll(async () => {
    await receiver?.close();
    for (const app of old.values()) if (app.child.exitCode === null) app.child.kill('SIGKILL');
    await system?.close();
    if (dir) {
      git('worktree', 'remove', '--force', dir);
      rmSync(dir, { recursive: true, force: true });
    }
  });

  it('books without one failed request while every service, then the gateway, is replaced by this release', async () => {
    const fetch = httpsFetch(readFileSync(join(system.dataDir, 'tls/dev-cert.pem'), 'utf8'));
    const failures: string[] = [];
    const booked: number[] = [];
    let target = old.get('gateway')!.url!;
    // One night each, on dates that come round again after 450 days (the vendors' rooms last).
    let stays = 0;
    const nextStay = () => {
      const offset = 30 + (stays++ % 450);
      return { check_in: day(offset), check_out: day(offset + 1), rooms: TWO_ADULTS };
    };
    // What the upgrade is doing, named in a failure; and the requests each gateway has in flight.
    let phase = 'before';
    const inFlight = new Map<string, number>();
    const call = async (method: string, path: string, body?: object) => {
      const at = target;
      inFlight.set(at, (inFlight.get(at) ?? 0) + 1);
      try {
        const response = await fetch(`${at}${path}`, {
          method,
          headers: { ...bearer(keys.api_key), ...(body && { 'content-type': 'application/json' }) },
          ...(body && { body: JSON.stringify(body) }),
        });
        const text = await response.text();
        if (response.status >= 400) {
          failures.push(`[${phase}] ${method} ${path} at ${at}: ${response.status} ${text.slice(0, 300)}`);
          throw new Error('failed');
        }
        return text ? JSON.parse(text) : undefined;
      } catch (error) {
        if (!(error instanceof Error && error.message === 'failed')) failures.push(`[${phase}] ${method} ${path} at ${at}: ${error instanceof Error ? error.message : String(error)}`);
        throw new Error('failed');
      } finally {
        inFlight.set(at, inFlight.get(at)! - 1);
      }
    };
    let running = true;
    const worker = async () => {
      while (running) {
        try {
          const stay = nextStay();
          // A V1 search and a hotel's rates too: their subjects changed version in this release (the old ones still served).
          const search = await call('POST', '/search', { place_id: 'gn:2988507', ...stay });
          const polled = await call('GET', `/search/${search.data.session_id}`);
          const found: number | undefined = polled.data.results[0]?.hotel.id;
          if (found !== undefined) await call('GET', `/hotel/${found}/${search.data.session_id}`);
          const { rates, search_completed: completed } = await call('POST', '/v2/rates', { place_id: 'gn:2988507', ...stay, limit: 1 });
          if (rates.length === 0) {
            // Every vendor missed V2's deadline (a loaded machine): an answer, not completed, which a
            // partner searches again. A completed search without a rate would be a wrong answer.
            if (completed) failures.push(`POST /v2/rates at ${target}: completed without a rate`);
            continue;
          }
          const prebook = await call('POST', '/v2/prebook', { rate_id: rates[0].id, payment_method: 'account' });
          const booking = await call('POST', '/v2/book', { prebook_id: prebook.data.prebook_id, ...GUEST });
          booked.push(booking.data.id);
          await call('GET', '/book?limit=5');
          // A partner's pace, leaving the machine room for the upgrade itself.
          await sleep(50);
        } catch {
          // Recorded by call().
        }
      }
    };
    const load = Promise.all(Array.from({ length: 2 }, worker));
    const progress: string[] = [];
    try {
      while (booked.length < 3 && failures.length === 0) await sleep(100);
      // One service at a time: its new replica joins, then its old one is stopped and drains
      // while the next service's turn comes (the release's own code drains for the whole grace).
      const stopped: Promise<string>[] = [];
      for (const name of UPGRADE_ORDER) {
        phase = `replacing ${name}`;
        const started = Date.now();
        await system.startReplica(name);
        const stopping = Date.now();
        stopped.push(stopOldApp(old.get(name)!).then((code) => `${name}: new replica ready in ${stopping - started} ms, old one exited ${code} after ${Date.now() - stopping} ms`));
        await sleep(1000);
      }
      progress.push(...(await Promise.all(stopped)));
      for (const line of progress) expect(line).toMatch(/exited 0 /);
      phase = 'replacing the gateway';
      await system.startGateway();
      const oldGateway = target;
      target = system.url;
      // As a load balancer takes a gateway out: no new requests, and those it has finish before it is stopped.
      for (let waited = 0; (inFlight.get(oldGateway) ?? 0) > 0 && waited < 30_000; waited += 50) await sleep(50);
      phase = 'the old gateway stopping';
      expect(await stopOldApp(old.get('gateway')!)).toBe(0);
      phase = 'after';
      const before = booked.length;
      while (booked.length < before + 3 && failures.length === 0) await sleep(100);
    } finally {
      running = false;
      await load;
    }
    // A failure comes with the old apps' last lines: the gateway's requests, and each service's stop and last warnings.
    const oldLogs = failures.length ? Object.fromEntries([...old].map(([name, app]) => [name, app.output.slice(name === 'gateway' ? -15 : -6)])) : {};
    expect({ release: release.tag, failed: failures.length, first: failures.slice(0, 5), oldLogs }).toEqual({ release: release.tag, failed: 0, first: [], oldLogs: {} });
    expect(booked.length).toBeGreaterThan(UPGRADE_ORDER.length);
    // Every booking made through either release is this release's to list, confirmed.
    const statuses = new Map<number, string>();
    for (let after = ''; ; ) {
      const page: { id: number; status: string }[] = (await system.request('GET', `/book?limit=200${after}`, { headers: bearer(keys.api_key) })).body.data;
      if (page.length === 0) break;
      for (const booking of page) statuses.set(booking.id, booking.status);
      after = `&after=${page[page.length - 1].id}`;
    }
    expect(booked.filter((id) => statuses.get(id) !== 'confirmed')).toEqual([]);
    // Every booking's two events reached the partner, whichever release's booking and webhooks services handled them,
    // each exactly the partner's payload (no field of the platform's own beside the Booking).
    const delivered = () => receiver.at('/upgrade').filter((request) => booked.includes(request.json?.data?.id));
    // (A delivery may come twice: at least once.)
    const distinct = () => new Set(delivered().map((request) => `${request.json.data.id}/${request.json.sequence}`)).size;
    for (let waited = 0; distinct() < booked.length * 2 && waited < 30_000; waited += 100) await sleep(100);
    expect(distinct()).toBe(booked.length * 2);
    for (const request of delivered()) expect(Object.keys(request.json).sort()).toEqual(['data', 'sequence', 'timestamp', 'type']);
    expect(progress).toHaveLength(UPGRADE_ORDER.length);
    process.stdout.write(`rolling upgrade from ${release.tag}:\n${progress.join('\n')}\n`);
  }, 240_000);
});
