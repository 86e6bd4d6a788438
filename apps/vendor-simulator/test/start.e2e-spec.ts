import { ChildProcess, spawn, spawnSync } from 'node:child_process';
import { existsSync } from 'node:fs';
import { join, resolve } from 'node:path';
import { HotelbedsClient } from '@hotel/hotelbeds';
import { TestDatabase, createTestDatabase, freePort } from '@hotel/testing';

const ROOT = resolve(__dirname, '../../..');
const MAIN = join(ROOT, 'dist/apps/vendor-simulator/src/main.js');

/** The built simulator as it is run: `node dist/apps/vendor-simulator/src/main.js`. */
describe('vendor simulator: the built app', () => {
  let database: TestDatabase;

  beforeAll(async () => {
    // `npm test` builds every project before this tier; a lone run builds what this app needs.
    if (!existsSync(MAIN)) {
      const built = spawnSync(process.execPath, [join(ROOT, 'tools/build.js'), 'libs/contracts', 'libs/platform', 'libs/inventory', 'libs/hotelbeds', 'apps/vendor-simulator'], { cwd: ROOT, encoding: 'utf8' });
      expect(built.status).toBe(0);
    }
    database = await createTestDatabase();
  });

  afterAll(async () => {
    await database?.drop();
  });

  it('stops without DATABASE_URL, or in production on development credentials, naming them', () => {
    const result = spawnSync(process.execPath, [MAIN], { env: { PATH: process.env.PATH ?? '' }, encoding: 'utf8', timeout: 20_000 });
    expect(result.status).toBe(1);
    expect(result.stderr).toContain('vendor-simulator: invalid configuration');
    expect(result.stderr).toContain('DATABASE_URL');
    const production = spawnSync(process.execPath, [MAIN], {
      env: { PATH: process.env.PATH ?? '', NODE_ENV: 'production', DATABASE_URL: 'postgres://u@127.0.0.1:1/db', VENDOR_ATLAS_API_KEY: 'atlas-live-key' },
      encoding: 'utf8',
      timeout: 20_000,
    });
    expect(production.status).toBe(1);
    expect(production.stderr).toContain('VENDOR_ATLAS_SECRET: must be set to a secret of your own');
    expect(production.stderr).not.toContain('VENDOR_ATLAS_API_KEY');
  });

  it('starts on a free port, answers /health and a vendor, takes its fault knobs from the environment, and stops on SIGTERM', async () => {
    const port = await freePort();
    const child: ChildProcess = spawn(process.execPath, [MAIN], {
      env: { PATH: process.env.PATH ?? '', DATABASE_URL: database.url, PORT: String(port), LOG_LEVEL: 'warn', SIMULATOR_FAULTS: '{"cobalt": {"latencyMs": 5}}', VENDOR_LATENCY_MS: 'atlas=0' },
      stdio: ['ignore', 'pipe', 'pipe'],
    });
    let output = '';
    child.stdout!.on('data', (chunk: Buffer) => (output += chunk.toString()));
    child.stderr!.on('data', (chunk: Buffer) => (output += chunk.toString()));
    const exited = new Promise<number | null>((resolveExit) => child.once('exit', (code) => resolveExit(code)));
    const url = `http://127.0.0.1:${port}`;
    try {
      const deadline = Date.now() + 30_000;
      let health: Response | undefined;
      while (!health && Date.now() < deadline) {
        health = await fetch(`${url}/health`).catch(() => undefined);
        if (!health) await new Promise((wait) => setTimeout(wait, 100));
      }
      expect(health?.status).toBe(200);
      const knobs = (await (await fetch(`${url}/_simulator/faults`)).json()) as Record<string, { latencyMs: number; vendorLatencyMs: number }>;
      expect(knobs.cobalt).toMatchObject({ latencyMs: 5, vendorLatencyMs: 4000 });
      expect(knobs.atlas).toMatchObject({ latencyMs: 0, vendorLatencyMs: 0 });
      // The development credentials, as anyone running it locally would use them.
      const atlas = new HotelbedsClient({ baseUrl: `${url}/atlas`, apiKey: 'development-atlas-api-key', secret: 'development-atlas-secret' });
      try {
        expect((await atlas.contentHotels({ from: 1, to: 2 })).hotels).toHaveLength(2);
      } finally {
        atlas.close();
      }
    } catch (error) {
      throw new Error(`${error instanceof Error ? error.message : error}\n--- simulator output ---\n${output}`);
    } finally {
      child.kill('SIGTERM');
    }
    expect(await exited).toBe(0);
  });
});
