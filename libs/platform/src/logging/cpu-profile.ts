import { Session } from 'node:inspector/promises';
import { writeFile } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { JsonLogger } from './json-logger';

/**
 * SIGUSR2 starts a CPU profile of this process; the next SIGUSR2 writes it to
 * `<dir>/<app>-<pid>-<n>.cpuprofile` (the format Chrome DevTools and speedscope open).
 * A replica is profiled under its real load without a restart and without an inspector
 * port: `kill -USR2 <pid>`, the load, `kill -USR2 <pid>` again (`npm run bench --
 * --profile` does this around each measured window). The in-process profiler costs
 * nothing until the first signal. Returns what stops listening.
 */
export function cpuProfileOnSignal(app: string, logger: JsonLogger, dir: string = tmpdir()): () => void {
  let session: Session | undefined;
  let count = 0;
  let busy = false;
  const onSignal = () => {
    if (busy) return;
    busy = true;
    (session ? stop(session) : start()).then(
      () => (busy = false),
      (error) => {
        busy = false;
        logger.warn({ msg: 'CPU profile failed', error: error instanceof Error ? error.message : String(error) });
      },
    );
  };
  process.on('SIGUSR2', onSignal);

  async function start() {
    const started = new Session();
    started.connect();
    await started.post('Profiler.enable');
    await started.post('Profiler.start');
    session = started;
    logger.log({ msg: 'CPU profile started; SIGUSR2 again writes it' });
  }

  async function stop(running: Session) {
    session = undefined;
    const { profile } = await running.post('Profiler.stop');
    running.disconnect();
    const file = join(dir, `${app}-${process.pid}-${++count}.cpuprofile`);
    await writeFile(file, JSON.stringify(profile));
    logger.log({ msg: 'CPU profile written', file });
  }

  // Stops listening (a profile under way is dropped): for tests.
  return () => {
    process.off('SIGUSR2', onSignal);
    session?.disconnect();
    session = undefined;
  };
}
