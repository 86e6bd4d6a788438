import { ChildProcess, spawn } from 'node:child_process';
import { resolve } from 'node:path';

const ROOT = resolve(__dirname, '..');

// Both runs are in this one file so that they never overlap: each starts a platform of
// its own (9 and 17 processes), and two at once on two cores would test the machine.
// Each runs what `npm test` has just built.

/** Runs by the tests of this file, stopped with them if a test times out (the tool cleans up its apps, NATS and database on SIGINT). */
const running = new Set<ChildProcess>();
afterAll(() => {
  for (const child of running) if (child.exitCode === null) child.kill('SIGINT');
});

/**
 * `npm run chaos` with these arguments: its report (stdout) once it passed, after the checks
 * every run must pass: no violation, every booking event of the run on the stream once and
 * delivered to the webhook receiver, and `logFiles` log files on disk (the apps' and the
 * vendor simulator's, after every crash and restart) owner-only and free of secrets.
 */
async function passingChaos(args: string[], logFiles: number): Promise<{ stdout: string; stderr: string }> {
  const child = spawn(process.execPath, [resolve(ROOT, 'tools/chaos.js'), ...args], { cwd: ROOT, env: { ...process.env, CHAOS_SKIP_BUILD: '1' }, stdio: ['ignore', 'pipe', 'pipe'] });
  running.add(child);
  let stdout = '';
  let stderr = '';
  child.stdout!.on('data', (chunk: Buffer) => (stdout += chunk.toString()));
  child.stderr!.on('data', (chunk: Buffer) => (stderr += chunk.toString()));
  const code = await new Promise<number | null>((resolveExit) => child.once('exit', (exitCode) => resolveExit(exitCode)));
  // The table and the violations are the failure message.
  if (code !== 0) throw new Error(`chaos ${args.join(' ')} exited with ${code}:\n${stdout}\n--- progress ---\n${stderr.split('\n').slice(-40).join('\n')}`);
  expect(stdout).toMatch(/^#\s+\| fault\s+\| requests/m);
  expect(stdout).toContain('violations: none');
  const events = /^booking events: (\d+) on the stream, (\d+) delivered to the webhook receiver$/m.exec(stdout);
  expect(Number(events?.[1])).toBeGreaterThan(20);
  expect(events?.[2]).toBe(events?.[1]);
  expect(stdout).toMatch(new RegExp(`^log files: ${logFiles} files, \\d+ lines: owner-only; no key, token, card token, e-mail or phone$`, 'm'));
  return { stdout, stderr };
}

/**
 * `npm run chaos -- --short` (tools/chaos.js): one round per fault kind (each app
 * SIGKILLed and restarted, NATS restarted, PostgreSQL cut, the vendors misbehaving) under
 * booking load, and every check of money, promo codes, allotments, answers and booking
 * events holds afterwards.
 */
it('npm run chaos -- --short: survives every fault with no violation', async () => {
  const { stdout } = await passingChaos(['--short'], 9);
  expect(stdout).toContain('npm run chaos — 12 rounds');
  for (const fault of ['kill users', 'kill accounting', 'kill promo', 'kill search', 'kill rates', 'kill booking', 'kill webhooks', 'kill gateway', 'restart nats', 'cut postgres', 'vendor faults']) {
    expect(stdout).toContain(fault);
  }
}, 360_000);

/**
 * `npm run chaos -- --cluster --short`: the production layout (three NATS nodes with the
 * booking events on all three, two replicas of every app, two gateways behind a balancer)
 * under booking load loses the node leading the booking events, a booking replica and a
 * gateway in turn; requests fail only with 503 and Retry-After, and only briefly.
 */
it('npm run chaos -- --cluster --short: survives losing the stream leader, a replica and a gateway with no violation', async () => {
  const { stdout, stderr } = await passingChaos(['--cluster', '--short'], 17);
  expect(stdout).toContain('npm run chaos --cluster — 4 rounds');
  expect(stderr).toContain('NATS: a cluster of 3 nodes');
  for (const fault of ['kill nats leader', 'kill booking@2', 'kill gateway@2']) expect(stdout).toMatch(new RegExp(`^\\d+ \\| ${fault} +\\|`, 'm'));
}, 360_000);
