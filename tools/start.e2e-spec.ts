import { ChildProcess, spawn, spawnSync } from 'node:child_process';
import { chmodSync, existsSync, mkdtempSync, readFileSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join, resolve } from 'node:path';
import { call, freePort } from '@hotel/testing';

const ROOT = resolve(__dirname, '..');
// Plain JavaScript helpers of the workspace's commands.
// eslint-disable-next-line @typescript-eslint/no-require-imports
const { startNatsServer } = require('./lib/nats');

const sleep = (ms: number) => new Promise((resolveSleep) => setTimeout(resolveSleep, ms));

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
 * `npm start` as a user runs it, on the embedded PostgreSQL (EMBEDDED_PG=1) and a
 * private NATS: ready, the admin command's key authenticates, Ctrl-C stops
 * cleanly, a second start finds the same data, and a service that dies is
 * restarted.
 */
describe('npm start (embedded PostgreSQL)', () => {
  let nats: { url: string; kill(signal?: string): Promise<void> };
  let dataDir: string;
  let port: number;

  beforeAll(async () => {
    dataDir = mkdtempSync(join(tmpdir(), 'hotel-start-'));
    // The embedded server runs as the OS user postgres, which must reach the directory.
    chmodSync(dataDir, 0o755);
    // A plain broker (anonymous connections), as npm start runs one itself.
    nats = await startNatsServer({ port: await freePort(), storeDir: join(dataDir, 'test-nats') });
    port = await freePort();
  });
  afterAll(async () => {
    await nats?.kill();
    rmSync(dataDir, { recursive: true, force: true });
  });

  function start(): { child: ChildProcess; ready: Promise<string>; output: () => string } {
    const child = spawn(process.execPath, [join(ROOT, 'tools/start.js')], {
      cwd: ROOT,
      env: { ...process.env, START_SKIP_BUILD: '1', EMBEDDED_PG: '1', EMBEDDED_PG_PORT: '0', NATS_URL: nats.url, PORT: String(port), DATA_DIR: dataDir, LOG_LEVEL: 'warn' },
      stdio: ['ignore', 'pipe', 'pipe'],
    });
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

  function createClient(name: string) {
    const admin = spawnSync(process.execPath, [join(ROOT, 'tools/admin.js'), 'create-client', '--name', name], {
      cwd: ROOT,
      env: { ...process.env, NATS_URL: nats.url },
      encoding: 'utf8',
    });
    expect(admin.status).toBe(0);
    return JSON.parse(admin.stdout);
  }

  const base = () => `https://127.0.0.1:${port}`;
  const pidOf = (app: string) => {
    const file = join(dataDir, 'run', `${app}.pid`);
    return existsSync(file) ? Number(readFileSync(file, 'utf8').trim()) : undefined;
  };

  it('starts, serves a key made by the admin command, stops on Ctrl-C and keeps data', async () => {
    const first = start();
    const output = await first.ready;
    expect(output).toContain('PostgreSQL    embedded');
    expect(output).toContain(`https://localhost:${port}/`);

    const keys = createClient('Smoke Travel');
    const me = await call(base(), 'GET', '/me', { headers: { authorization: `Bearer ${keys.api_key}` } });
    expect(me.status).toBe(200);
    expect((await call(base(), 'GET', '/health/ready')).status).toBe(200);

    expect(await stop(first.child)).toBe(0);
    // A clean stop leaves no pid files behind.
    expect(pidOf('users')).toBeUndefined();

    const second = start();
    await second.ready;
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
    // The restarted users service resolves a new key.
    const keys = createClient('Phoenix Travel');
    expect((await call(base(), 'GET', '/me', { headers: { authorization: `Bearer ${keys.api_key}` } })).status).toBe(200);
    // npm start itself kept running, and Ctrl-C still stops everything.
    expect(running.child.exitCode).toBeNull();
    expect(await stop(running.child)).toBe(0);
    expect(() => process.kill(restarted, 0)).toThrow();
  }, 240_000);
});
