import { ChildProcess, spawn } from 'node:child_process';
import { resolve } from 'node:path';

const ROOT = resolve(__dirname, '..');

/**
 * `npm run chaos -- --short` (tools/chaos.js): one round per fault kind (each app
 * SIGKILLed and restarted, NATS restarted, PostgreSQL cut) under booking load, and
 * every check of money, promo codes, allotments and answers holds afterwards.
 * It runs what `npm test` has just built.
 */
describe('npm run chaos -- --short', () => {
  let child: ChildProcess | undefined;

  afterAll(() => {
    // Interrupted (a timeout): the tool cleans up its apps, NATS and database on SIGINT.
    if (child && child.exitCode === null) child.kill('SIGINT');
  });

  it('survives every fault with no violation', async () => {
    child = spawn(process.execPath, [resolve(ROOT, 'tools/chaos.js'), '--short'], {
      cwd: ROOT,
      env: { ...process.env, CHAOS_SKIP_BUILD: '1' },
      stdio: ['ignore', 'pipe', 'pipe'],
    });
    let stdout = '';
    let stderr = '';
    child.stdout!.on('data', (chunk: Buffer) => (stdout += chunk.toString()));
    child.stderr!.on('data', (chunk: Buffer) => (stderr += chunk.toString()));
    const code = await new Promise<number | null>((resolveExit) => child!.once('exit', (exitCode) => resolveExit(exitCode)));

    expect(stdout).toContain('npm run chaos — 12 rounds');
    expect(stdout).toMatch(/^#\s+\| fault\s+\| requests/m);
    for (const fault of ['kill users', 'kill accounting', 'kill promo', 'kill search', 'kill rates', 'kill booking', 'kill webhooks', 'kill gateway', 'restart nats', 'cut postgres']) {
      expect(stdout).toContain(fault);
    }
    // The table and the violations are the failure message.
    if (code !== 0) throw new Error(`chaos exited with ${code}:\n${stdout}\n--- progress ---\n${stderr.split('\n').slice(-40).join('\n')}`);
    expect(stdout).toContain('violations: none');
    // The log files on disk of the eight apps and the vendor simulator, after every crash and restart.
    expect(stdout).toMatch(/^log files: 9 files, \d+ lines: owner-only; no key, token, card token, e-mail or phone$/m);
  }, 360_000);
});
