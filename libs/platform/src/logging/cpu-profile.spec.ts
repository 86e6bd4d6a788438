import { transformFileSync } from '@swc/core';
import { ChildProcess, fork } from 'node:child_process';
import { mkdirSync, mkdtempSync, readdirSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';

// Jest's `process` in a test is not the real one (a signal handler set through it is never
// called): the function runs in a Node process of its own, compiled from this source.
describe('cpuProfileOnSignal', () => {
  let dir: string;
  let app: ChildProcess | undefined;
  beforeAll(() => {
    dir = mkdtempSync(join(tmpdir(), 'cpu-profile-'));
    const compiled = transformFileSync(join(__dirname, 'cpu-profile.ts'), {
      jsc: { parser: { syntax: 'typescript' }, target: 'es2022' },
      module: { type: 'commonjs' },
    }).code;
    writeFileSync(join(dir, 'cpu-profile.js'), compiled);
    writeFileSync(
      join(dir, 'app.js'),
      `const { cpuProfileOnSignal } = require('./cpu-profile.js');
       const say = (entry) => process.send(entry.msg);
       cpuProfileOnSignal('test-app', { log: say, warn: say }, process.argv[2]);
       let sum = 0;
       setInterval(() => { for (const t = Date.now(); Date.now() - t < 5; ) sum += Math.sqrt(sum + 1); }, 10);
       process.send('ready');`,
    );
  });
  afterAll(() => {
    app?.kill('SIGKILL');
    rmSync(dir, { recursive: true, force: true });
  });

  it('starts a CPU profile on SIGUSR2 and writes it, in the format DevTools opens, on the next', async () => {
    const profiles = join(dir, 'profiles');
    mkdirSync(profiles);
    const running = fork(join(dir, 'app.js'), [profiles], { stdio: ['ignore', 'inherit', 'inherit', 'ipc'] });
    app = running;
    const said = (message: string) => new Promise<void>((resolve) => running.on('message', (got) => got === message && resolve()));
    await said('ready');
    const started = said('CPU profile started; SIGUSR2 again writes it');
    running.kill('SIGUSR2');
    await started;
    await new Promise((resolve) => setTimeout(resolve, 300));
    const written = said('CPU profile written');
    running.kill('SIGUSR2');
    await written;

    expect(readdirSync(profiles)).toEqual([`test-app-${running.pid}-1.cpuprofile`]);
    const profile = JSON.parse(readFileSync(join(profiles, `test-app-${running.pid}-1.cpuprofile`), 'utf8')) as {
      nodes: { callFrame: { functionName: string } }[];
      samples: number[];
      timeDeltas: number[];
      startTime: number;
      endTime: number;
    };
    expect(profile.samples.length).toBe(profile.timeDeltas.length);
    expect(profile.samples.length).toBeGreaterThan(10);
    expect(profile.endTime - profile.startTime).toBeGreaterThanOrEqual(300_000); // microseconds
    // The process is still running: the signal's default action (ending it) is replaced.
    expect(running.exitCode).toBeNull();
  });
});
