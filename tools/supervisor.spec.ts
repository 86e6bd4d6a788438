import { chmodSync, existsSync, mkdirSync, mkdtempSync, readFileSync, rmSync, statSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join, resolve } from 'node:path';

const ROOT = resolve(__dirname, '..');
// Plain JavaScript helpers of the workspace's commands.
// eslint-disable-next-line @typescript-eslint/no-require-imports -- plain JavaScript of the workspace's commands, not built
const { Supervisor } = require('./lib/supervisor');

type Event = { type: 'spawn' | 'exit' | 'restart'; name: string; pid?: number; code?: number | null; signal?: string | null; expected?: boolean; attempt?: number; delayMs?: number };

const sleep = (ms: number) => new Promise((resolveSleep) => setTimeout(resolveSleep, ms));

async function eventually<T>(what: string, probe: () => T | undefined, timeoutMs = 20_000): Promise<T> {
  const deadline = Date.now() + timeoutMs;
  for (;;) {
    const value = probe();
    if (value !== undefined) return value;
    if (Date.now() > deadline) throw new Error(`timed out waiting for ${what}`);
    await sleep(25);
  }
}

/**
 * The supervisor with small scripts as apps (the `entry` option): restart backoff,
 * its reset, stopping, pid and log files. Timings are asserted through the delays the
 * supervisor reports, never through wall-clock durations.
 */
describe('Supervisor', () => {
  let dir: string;
  let logDir: string;
  let runDir: string;
  let scripts: { crash: string; steady: string };
  let supervisor: InstanceType<typeof Supervisor> | null;
  let events: Event[];
  let messages: string[];

  beforeEach(() => {
    dir = mkdtempSync(join(tmpdir(), 'hotel-supervisor-'));
    logDir = join(dir, 'logs');
    runDir = join(dir, 'run');
    mkdirSync(join(dir, 'apps'));
    scripts = { crash: join(dir, 'apps/crash.js'), steady: join(dir, 'apps/steady.js') };
    writeFileSync(scripts.crash, `process.stdout.write('crashing\\n');\nprocess.exit(1);\n`);
    // Stays up until a signal ends it.
    writeFileSync(scripts.steady, `process.stdout.write('steady app up, pid ' + process.pid + '\\n');\nsetInterval(() => {}, 1000);\n`);
    supervisor = null;
    events = [];
    messages = [];
  });

  afterEach(async () => {
    await supervisor?.stopAll(5_000);
    rmSync(dir, { recursive: true, force: true });
  });

  function supervise(entry: (name: string) => string, backoff: { initialMs?: number; maxMs?: number; resetAfterMs?: number }) {
    supervisor = new Supervisor({ logDir, runDir, entry, backoff, log: (message: string) => messages.push(message) });
    for (const type of ['spawn', 'exit', 'restart'] as const) supervisor.on(type, (event: Omit<Event, 'type'>) => events.push({ type, ...event }));
    return supervisor;
  }

  const restarts = () => events.filter((event) => event.type === 'restart');
  const logText = (name: string) => (existsSync(join(logDir, `${name}.log`)) ? readFileSync(join(logDir, `${name}.log`), 'utf8') : '');

  it('runs dist/apps/<name>/src/main.js by default', () => {
    const defaults = new Supervisor({ logDir, log: () => {} });
    expect(defaults.entry('users')).toBe(join(ROOT, 'dist/apps/users/src/main.js'));
  });

  it('restarts an app that exits with delays doubling from initialMs up to maxMs, and logs each restart', async () => {
    supervise(() => scripts.crash, { initialMs: 50, maxMs: 200, resetAfterMs: 60_000 });
    supervisor.start('crashy');
    await eventually('four restarts', () => (restarts().length >= 4 ? true : undefined));
    const seen = events.slice(0, 12);
    await supervisor.stopAll(5_000);

    // Each exit is followed by its restart, then by the next spawn.
    expect(seen.map((event) => event.type)).toEqual(Array(4).fill(['spawn', 'exit', 'restart']).flat());
    for (const exit of seen.filter((event) => event.type === 'exit')) expect(exit).toMatchObject({ name: 'crashy', code: 1, signal: null, expected: false });
    expect(restarts().slice(0, 4)).toEqual([
      { type: 'restart', name: 'crashy', attempt: 1, delayMs: 50 },
      { type: 'restart', name: 'crashy', attempt: 2, delayMs: 100 },
      { type: 'restart', name: 'crashy', attempt: 3, delayMs: 200 },
      { type: 'restart', name: 'crashy', attempt: 4, delayMs: 200 },
    ]);
    const restartMessages = messages.filter((message) => message.includes('restarting'));
    expect(restartMessages.length).toBeGreaterThanOrEqual(4);
    ['0.05 s (attempt 1)', '0.1 s (attempt 2)', '0.2 s (attempt 3)', '0.2 s (attempt 4)'].forEach((delay, index) => {
      expect(restartMessages[index]).toContain('crashy exited unexpectedly (exit code 1)');
      expect(restartMessages[index]).toContain(`restarting in ${delay}`);
    });
  });

  it('restarts after initialMs again once the app has stayed up resetAfterMs', async () => {
    const resetAfterMs = 2_000;
    // Two crashes (the backoff grows), then an app that stays up.
    let runs = 0;
    supervise(() => (++runs <= 2 ? scripts.crash : scripts.steady), { initialMs: 50, maxMs: 10_000, resetAfterMs });
    supervisor.start('flaky');
    const steady = await eventually('the third spawn', () => events.filter((event) => event.type === 'spawn')[2]);
    expect(restarts().map(({ attempt, delayMs }) => ({ attempt, delayMs }))).toEqual([
      { attempt: 1, delayMs: 50 },
      { attempt: 2, delayMs: 100 },
    ]);
    await eventually('the steady app', () => (logText('flaky').includes(`steady app up, pid ${steady.pid}`) ? true : undefined));
    // Well past resetAfterMs since the spawn (waiting longer only makes it more so).
    await sleep(resetAfterMs + 500);
    expect(restarts()).toHaveLength(2);

    await supervisor.kill('flaky', 'SIGKILL');
    await eventually('the third restart', () => restarts()[2]);
    expect(restarts()[2]).toEqual({ type: 'restart', name: 'flaky', attempt: 1, delayMs: 50 });
    expect(events.filter((event) => event.type === 'exit')[2]).toMatchObject({ pid: steady.pid, code: null, signal: 'SIGKILL', expected: false });
    expect(messages[messages.length - 1]).toContain('flaky exited unexpectedly (signal SIGKILL); restarting in 0.05 s (attempt 1)');
  });

  it('stopAll() ends a running app with SIGTERM, restarts nothing and removes its pid file', async () => {
    supervise(() => scripts.steady, { initialMs: 50, maxMs: 200, resetAfterMs: 60_000 });
    supervisor.start('steady');
    const spawned = await eventually('the spawn', () => events.find((event) => event.type === 'spawn'));
    const pidFile = join(runDir, 'steady.pid');
    expect(readFileSync(pidFile, 'utf8').trim()).toBe(String(spawned.pid));
    expect(statSync(pidFile).mode & 0o777).toBe(0o600);
    await eventually('the app', () => (logText('steady').includes(`steady app up, pid ${spawned.pid}`) ? true : undefined));

    await supervisor.stopAll(10_000);
    expect(events).toEqual([
      { type: 'spawn', name: 'steady', pid: spawned.pid },
      { type: 'exit', name: 'steady', pid: spawned.pid, code: null, signal: 'SIGTERM', expected: true },
    ]);
    expect(existsSync(pidFile)).toBe(false);
    expect(supervisor.pid('steady')).toBeNull();
    expect(() => process.kill(spawned.pid!, 0)).toThrow(expect.objectContaining({ code: 'ESRCH' }));
    // Several restart delays later, still nothing.
    await sleep(500);
    expect(events.map((event) => event.type)).toEqual(['spawn', 'exit']);
    expect(messages).toEqual([]);
  });

  it("writes an app's output to its log file, owner-only even when the file existed with mode 0644", async () => {
    mkdirSync(logDir, { recursive: true });
    const existing = join(logDir, 'old.log');
    writeFileSync(existing, 'an earlier run\n');
    chmodSync(existing, 0o644);
    expect(statSync(existing).mode & 0o777).toBe(0o644);

    supervise(() => scripts.steady, { initialMs: 50, maxMs: 200, resetAfterMs: 60_000 });
    supervisor.start('old');
    supervisor.start('new');
    const pids = await eventually('both spawns', () => {
      const spawns = events.filter((event) => event.type === 'spawn');
      return spawns.length === 2 ? Object.fromEntries(spawns.map((event) => [event.name, event.pid])) : undefined;
    });
    await eventually('the output of both apps', () =>
      logText('old').includes(`steady app up, pid ${pids.old}`) && logText('new').includes(`steady app up, pid ${pids.new}`) ? true : undefined,
    );

    // Appended to the earlier run's log.
    expect(logText('old')).toBe(`an earlier run\nsteady app up, pid ${pids.old}\n`);
    expect(logText('new')).toBe(`steady app up, pid ${pids.new}\n`);
    expect(statSync(existing).mode & 0o777).toBe(0o600);
    expect(statSync(join(logDir, 'new.log')).mode & 0o777).toBe(0o600);
  });
});
