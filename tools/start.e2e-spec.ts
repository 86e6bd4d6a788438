import { ChildProcess, spawn, spawnSync } from 'node:child_process';
import { chmodSync, mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join, resolve } from 'node:path';
import { TestNats, call, freePort, startTestNats } from '@hotel/testing';

const ROOT = resolve(__dirname, '..');

/**
 * `npm start` as a user runs it, on the embedded PostgreSQL (EMBEDDED_PG=1) and a
 * private NATS: ready, the admin command's key authenticates, Ctrl-C stops
 * cleanly, and a second start finds the same data.
 */
describe('npm start (embedded PostgreSQL)', () => {
  let nats: TestNats;
  let dataDir: string;
  let port: number;

  beforeAll(async () => {
    nats = await startTestNats();
    dataDir = mkdtempSync(join(tmpdir(), 'hotel-start-'));
    // The embedded server runs as the OS user postgres, which must reach the directory.
    chmodSync(dataDir, 0o755);
    port = await freePort();
  });
  afterAll(async () => {
    await nats?.stop();
    rmSync(dataDir, { recursive: true, force: true });
  });

  function start(): { child: ChildProcess; ready: Promise<string> } {
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
    return { child, ready };
  }

  function stop(child: ChildProcess): Promise<number | null> {
    return new Promise((resolveExit) => {
      child.once('exit', (code) => resolveExit(code));
      child.kill('SIGINT');
    });
  }

  it('starts, serves a key made by the admin command, stops on Ctrl-C and keeps data', async () => {
    const first = start();
    const output = await first.ready;
    expect(output).toContain('PostgreSQL    embedded');
    expect(output).toContain(`https://localhost:${port}/`);

    const admin = spawnSync(process.execPath, [join(ROOT, 'tools/admin.js'), 'create-client', '--name', 'Smoke Travel'], {
      cwd: ROOT,
      env: { ...process.env, NATS_URL: nats.url },
      encoding: 'utf8',
    });
    expect(admin.status).toBe(0);
    const keys = JSON.parse(admin.stdout);
    const base = `https://127.0.0.1:${port}`;
    const me = await call(base, 'GET', '/me', { headers: { authorization: `Bearer ${keys.api_key}` } });
    expect(me.status).toBe(200);
    expect((await call(base, 'GET', '/health/ready')).status).toBe(200);

    expect(await stop(first.child)).toBe(0);

    const second = start();
    await second.ready;
    const again = await call(base, 'GET', '/me', { headers: { authorization: `Bearer ${keys.api_key}` } });
    expect(again.status).toBe(200);
    expect(again.body.data.client_id).toBe(keys.client_id);
    expect(await stop(second.child)).toBe(0);
  }, 240_000);
});
