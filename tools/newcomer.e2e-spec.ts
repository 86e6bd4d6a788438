import { ChildProcess, spawn, spawnSync } from 'node:child_process';
import { chmodSync, mkdtempSync, readFileSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join, resolve } from 'node:path';
import { chromium } from 'playwright-core';
import { freePort } from '@hotel/testing';
import { CHROMIUM } from '../apps/gateway/test/browser';

const ROOT = resolve(__dirname, '..');
const README = readFileSync(join(ROOT, 'README.md'), 'utf8');
const BACKEND_DOC = readFileSync(join(ROOT, 'docs/backend-api.md'), 'utf8');

/** The shell commands of a document's ```sh blocks, each with its continuation lines joined, comments and outputs dropped. */
function commands(markdown: string): string[] {
  const blocks = [...markdown.matchAll(/```sh\n([\s\S]*?)```/g)].map(([, block]) => block);
  return blocks.flatMap((block) =>
    block
      .replace(/\\\n\s*/g, '')
      .split('\n')
      .map((line) => line.replace(/\s+#.*$/, '').trim())
      .filter((line) => line && !line.startsWith('#')),
  );
}

/** The first command of a document that starts so: what a newcomer copies. */
function command(markdown: string, start: string): string {
  const found = commands(markdown).find((line) => line.startsWith(start));
  if (!found) throw new Error(`no command starting "${start}" in the document`);
  return found;
}

/**
 * A newcomer's first hour, as the README tells it, on a fresh data directory: `npm start`,
 * the admin command that makes a client, the curl calls of the quick start (each with the
 * keys it printed and the port this run got), `npm run example`, the API reference, a
 * finance credential made as docs/backend-api.md says, and the finance console with it.
 * Every command is the documents' own text; only the keys and the port are filled in.
 */
describe("a newcomer's path through the README", () => {
  let dataDir: string;
  let port: number;
  let started: ChildProcess | undefined;
  let output = '';

  beforeAll(async () => {
    dataDir = mkdtempSync(join(tmpdir(), 'hotel-newcomer-'));
    // The embedded server runs as the OS user postgres, which must reach the directory.
    chmodSync(dataDir, 0o755);
    port = await freePort();
  });
  afterAll(async () => {
    if (started && started.exitCode === null) {
      await new Promise((resolveExit) => {
        started!.once('exit', resolveExit);
        started!.kill('SIGINT');
      });
    }
    rmSync(dataDir, { recursive: true, force: true });
  });

  /** A document's command run in a shell, as a newcomer would (in the repository, on this run's data and port). */
  function run(line: string, fill: Record<string, string> = {}): { status: number | null; stdout: string; stderr: string } {
    let filled = line.replace(/https:\/\/localhost:8443/g, `https://localhost:${port}`);
    for (const [placeholder, value] of Object.entries(fill)) filled = filled.split(placeholder).join(value);
    const result = spawnSync('bash', ['-c', filled], {
      cwd: ROOT,
      env: { ...process.env, DATA_DIR: dataDir, NATS_URL: '', NATS_NKEY_SEED: '', NATS_NKEY_SEED_FILE: '', HOTEL_API_URL: '', HOTEL_API_KEY: '', PORT: '' },
      encoding: 'utf8',
      timeout: 120_000,
    });
    return { status: result.status, stdout: result.stdout, stderr: result.stderr };
  }

  it('starts, makes a client, calls the API, runs the example, reads the docs and opens the finance console, each as the documents say', async () => {
    // npm start (built already by the test run: it would install and build first on a fresh clone).
    expect(command(README, 'npm start')).toBe('npm start');
    started = spawn(process.execPath, [join(ROOT, 'tools/start.js')], {
      cwd: ROOT,
      env: { ...process.env, START_SKIP_BUILD: '1', EMBEDDED_PG: '1', EMBEDDED_PG_PORT: '0', NATS_URL: '', NATS_PORT: String(await freePort()), PORT: String(port), DATA_DIR: dataDir, LOG_LEVEL: 'warn' },
      stdio: ['ignore', 'pipe', 'pipe'],
    });
    await new Promise<void>((resolveReady, reject) => {
      const onData = (chunk: Buffer) => {
        output += chunk.toString();
        if (output.includes('Hotel booking platform is ready.')) resolveReady();
      };
      started!.stdout!.on('data', onData);
      started!.stderr!.on('data', onData);
      started!.once('exit', (code) => reject(new Error(`npm start exited with ${code}:\n${output}`)));
    });
    // The banner names the addresses the documents use next.
    for (const page of ['/docs', '/finance/']) expect(output).toContain(`https://localhost:${port}${page}`);

    // The quick start's client, its calls.
    const made = run(command(README, 'npm run --silent admin -- create-client'));
    expect({ status: made.status, stderr: made.stderr }).toEqual({ status: 0, stderr: '' });
    const client = JSON.parse(made.stdout);
    expect(Object.keys(client).sort()).toEqual(['api_key', 'backend_token', 'client_id', 'sandbox_api_key']);
    const me = run(command(README, 'curl -k -H "Authorization: Bearer hb_live_…"'), { 'hb_live_…': client.api_key });
    expect(me.status).toBe(0);
    expect(JSON.parse(me.stdout)).toMatchObject({ success: true, data: { client_id: client.client_id, is_sandbox: false, currency: 'USD' } });
    const user = run(`${command(README, 'curl -k -H "Authorization: hb_back_…"')} -w ' %{http_code}'`, { 'hb_back_…': client.backend_token });
    expect(user.stdout.trim().slice(-3)).toBe('201');

    // The example books a sandbox stay with the SDK, against this gateway (its address kept by npm start).
    const example = run(command(README, 'npm run example'));
    expect({ status: example.status, stderr: example.stderr.slice(-500) }).toMatchObject({ status: 0 });
    expect(example.stdout).toContain('Done: a sandbox stay booked');

    // The API reference the README points at.
    for (const page of ['/docs', '/openapi.json']) {
      const fetched = run(`curl -k -s -o /dev/null -w '%{http_code}' https://localhost:8443${page}`);
      expect({ page, code: fetched.stdout }).toEqual({ page, code: '200' });
    }

    // A finance credential, as the backend API's documentation makes it, and the finance console with it.
    const finance = run(command(BACKEND_DOC, 'npm run --silent admin -- create-finance-token'));
    expect(finance.status).toBe(0);
    const token = JSON.parse(finance.stdout).finance_token as string;
    const browser = await chromium.launch({ executablePath: CHROMIUM, args: ['--no-sandbox', '--disable-dev-shm-usage'] });
    try {
      const page = await (await browser.newContext({ ignoreHTTPSErrors: true })).newPage();
      await page.goto(`https://localhost:${port}/finance/`);
      await page.fill('#token', token);
      await page.press('#token', 'Enter');
      await page.waitForSelector('#overview-table tbody tr');
      expect(await page.textContent('#overview-table')).toContain('Acme Travel');
    } finally {
      await browser.close();
    }
  }, 300_000);
});
