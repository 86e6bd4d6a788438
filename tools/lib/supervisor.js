// @ts-check
// Process supervision for `npm start` and `npm run chaos`: runs each app of the
// platform (dist/apps/<name>/src/main.js) as a child process, appends its output to
// <logDir>/<name>.log, and restarts it when it exits while the supervisor is not
// stopping, as an orchestrator would: after 0.5 s, doubling with every further exit
// up to 10 s, back to 0.5 s once the app has stayed up 30 s.
//
// Each running app's pid is in <runDir>/<name>.pid (written when the process starts,
// removed when it exits), so a test or an operator can find and kill one.
const { spawn } = require('node:child_process');
const { EventEmitter } = require('node:events');
const fs = require('node:fs');
const path = require('node:path');
const { ROOT, log: defaultLog } = require('./workspace');
const { nodeFlagsOf } = require('./app-memory');

/** The platform's services (dist/apps/<name>); the gateway comes on top. */
const SERVICES = ['users', 'accounting', 'promo', 'search', 'rates', 'booking', 'webhooks'];
const DEFAULT_BACKOFF = { initialMs: 500, maxMs: 10_000, resetAfterMs: 30_000 };

/** @typedef {import('node:child_process').ChildProcess} ChildProcess */
/** @typedef {{ initialMs?: number, maxMs?: number, resetAfterMs?: number }} Backoff */

/**
 * The restart delays of one process: `initialMs`, doubling with every further exit up to
 * `maxMs`, back to `initialMs` once it has stayed up `resetAfterMs`.
 */
class RestartBackoff {
  /** @param {Backoff} [backoff] */
  constructor(backoff) {
    this.backoff = { ...DEFAULT_BACKOFF, ...backoff };
    this.attempt = 0;
    this.delayMs = this.backoff.initialMs;
  }

  /**
   * The next restart of a process that started at `startedAt`: its attempt number and delay.
   * @param {number} startedAt
   */
  next(startedAt) {
    if (Date.now() - startedAt >= this.backoff.resetAfterMs) {
      this.attempt = 0;
      this.delayMs = this.backoff.initialMs;
    }
    this.attempt += 1;
    const delayMs = this.delayMs;
    this.delayMs = Math.min(this.delayMs * 2, this.backoff.maxMs);
    return { attempt: this.attempt, delayMs };
  }
}

/**
 * How a process ended, as the restart lines say it.
 * @param {number | null} code
 * @param {NodeJS.Signals | null} signal
 */
const howExited = (code, signal) => (signal ? `signal ${signal}` : `exit code ${code}`);

/**
 * Keeps one process running that is not an app of the platform (the broker, the embedded
 * PostgreSQL `npm start` started itself): `watch(child)` follows its current process; an
 * unexpected exit is reported as an app's is and `restart()` (which resolves with the new
 * ChildProcess) is called with the apps' backoff, again after a restart that fails.
 * `stop()` first, when the process is to stop for good.
 */
class ProcessKeeper {
  /**
   * @param {string} name as the restart lines name it
   * @param {{ restart: () => Promise<ChildProcess>, log?: (message: string) => void, backoff?: Backoff }} options
   */
  constructor(name, options) {
    this.name = name;
    this.restart = options.restart;
    this.log = options.log ?? defaultLog;
    this.backoff = new RestartBackoff(options.backoff);
    this.stopped = false;
    /** @type {NodeJS.Timeout | null} */
    this.timer = null;
    this.startedAt = 0;
  }

  /** @param {ChildProcess} child */
  watch(child) {
    this.startedAt = Date.now();
    child.once('exit', (code, signal) => this.schedule(`exited unexpectedly (${howExited(code, signal)})`));
  }

  stop() {
    this.stopped = true;
    clearTimeout(this.timer ?? undefined);
  }

  /** @param {string} what */
  schedule(what) {
    if (this.stopped) return;
    const { attempt, delayMs } = this.backoff.next(this.startedAt);
    this.log(`${this.name} ${what}; restarting in ${delayMs / 1000} s (attempt ${attempt})`);
    this.timer = setTimeout(async () => {
      if (this.stopped) return;
      this.startedAt = Date.now();
      let child;
      try {
        child = await this.restart();
      } catch (error) {
        return this.schedule(`did not start (${error?.message ?? String(error)})`);
      }
      if (this.stopped) return;
      this.watch(child);
      this.log(`${this.name} is running again (pid ${child.pid})`);
    }, delayMs);
  }
}

/**
 * The console shows an app's warnings and errors (every line is in its log file).
 * @param {string} line
 */
function isConsoleWorthy(line) {
  try {
    return ['warn', 'error', 'fatal'].includes(JSON.parse(line).level);
  } catch {
    return true; // not a JSON log line (e.g. a crash trace): show it
  }
}

/**
 * One supervised app.
 * @typedef {object} App
 * @property {string} name
 * @property {Record<string, string>} env its own environment, on top of the supervisor's
 * @property {ChildProcess | null} child its current process, null while it is down
 * @property {RestartBackoff} backoff
 * @property {number} startedAt
 * @property {NodeJS.Timeout | null} timer the restart to come
 * @property {number | null} nextDelayMs replaces the backoff delay for the next restart
 */

/**
 * Events: 'spawn' ({name, pid}), 'exit' ({name, pid, code, signal, expected}),
 * 'restart' ({name, attempt, delayMs}) when a restart is scheduled.
 */
class Supervisor extends EventEmitter {
  /**
   * @param {object} options
   * @param {string} options.logDir where <name>.log files go
   * @param {string} [options.runDir] where <name>.pid files go (none without it)
   * @param {Record<string,string>} [options.env] environment for every app (on top of process.env)
   * @param {string[]} [options.nodeFlags] Node flags for every app, after each app's own (tools/lib/app-memory.js)
   * @param {boolean} [options.echo] relay warnings and errors to stderr as `[name] line`
   * @param {(message: string) => void} [options.log] where restarts are reported
   * @param {{initialMs?: number, maxMs?: number, resetAfterMs?: number}} [options.backoff]
   * @param {(name: string) => string} [options.entry] the script an app runs (default dist/apps/<name>/src/main.js)
   */
  constructor(options) {
    super();
    this.logDir = options.logDir;
    this.runDir = options.runDir;
    this.env = options.env ?? {};
    this.nodeFlags = options.nodeFlags ?? [];
    this.echo = options.echo ?? false;
    this.log = options.log ?? defaultLog;
    this.backoff = options.backoff;
    this.entry = options.entry ?? ((name) => path.join(ROOT, 'dist/apps', name, 'src/main.js'));
    /** @type {Map<string, App>} */
    this.apps = new Map();
    this.stopping = false;
    // Logs and pid files are the operator's: readable by their owner only.
    fs.mkdirSync(this.logDir, { recursive: true, mode: 0o700 });
    if (this.runDir) fs.mkdirSync(this.runDir, { recursive: true, mode: 0o700 });
  }

  /** @param {string} name */
  logFile(name) {
    return path.join(this.logDir, `${name}.log`);
  }

  /** @param {string} name */
  pidFile(name) {
    return this.runDir ? path.join(this.runDir, `${name}.pid`) : null;
  }

  /**
   * Starts an app and keeps it running until stopAll().
   * @param {string} name
   * @param {Record<string, string>} [env]
   */
  start(name, env = {}) {
    if (this.apps.has(name)) throw new Error(`${name} is supervised already`);
    /** @type {App} */
    const app = { name, env, child: null, backoff: new RestartBackoff(this.backoff), startedAt: 0, timer: null, nextDelayMs: null };
    this.apps.set(name, app);
    this.spawn(app);
  }

  /**
   * The pid of the app's current process, or null while it is down.
   * @param {string} name
   * @returns {number | null}
   */
  pid(name) {
    return this.apps.get(name)?.child?.pid ?? null;
  }

  /**
   * Sends a signal to the app's current process; resolves when it has exited (at
   * once if it is down). The supervisor restarts it as after any exit;
   * `restartDelayMs` replaces the backoff delay for this one restart.
   * @param {string} name
   * @param {NodeJS.Signals} [signal]
   * @param {{ restartDelayMs?: number }} [options]
   * @returns {Promise<void>}
   */
  kill(name, signal = 'SIGKILL', { restartDelayMs } = {}) {
    const app = this.apps.get(name);
    if (!app) throw new Error(`${name} is not supervised`);
    const child = app.child;
    if (!child) return Promise.resolve();
    if (restartDelayMs !== undefined) app.nextDelayMs = restartDelayMs;
    return new Promise(/** @param {() => void} resolve */ (resolve) => {
      child.once('exit', () => resolve());
      child.kill(signal);
    });
  }

  /** Stops every app: SIGTERM, then SIGKILL for one still running after graceMs. No restarts from now on. */
  async stopAll(graceMs = 10_000) {
    this.stopping = true;
    /** @type {Promise<void>[]} */
    const exits = [];
    for (const app of this.apps.values()) {
      clearTimeout(app.timer ?? undefined);
      const child = app.child;
      if (!child) continue;
      exits.push(
        new Promise(/** @param {() => void} resolve */ (resolve) => {
          const timer = setTimeout(() => child.kill('SIGKILL'), graceMs);
          child.once('exit', () => {
            clearTimeout(timer);
            resolve();
          });
          child.kill('SIGTERM');
        }),
      );
    }
    await Promise.all(exits);
  }

  /** @param {App} app */
  spawn(app) {
    const logPath = this.logFile(app.name);
    // The mode applies only to a new file; chmod also tightens one that existed before.
    fs.closeSync(fs.openSync(logPath, 'a', 0o600));
    fs.chmodSync(logPath, 0o600);
    const logStream = fs.createWriteStream(logPath, { flags: 'a', mode: 0o600 });
    const child = spawn(process.execPath, [...nodeFlagsOf(app.name), ...this.nodeFlags, this.entry(app.name)], {
      cwd: ROOT,
      env: { ...process.env, ...this.env, ...app.env },
      stdio: ['ignore', 'pipe', 'pipe'],
    });
    app.child = child;
    app.startedAt = Date.now();
    const pidFile = this.pidFile(app.name);
    if (pidFile && child.pid) fs.writeFileSync(pidFile, `${child.pid}\n`, { mode: 0o600 });
    this.relay(app.name, child.stdout, logStream);
    this.relay(app.name, child.stderr, logStream);
    child.on('error', (error) => this.log(`${app.name}: ${error.message}`));
    child.on('exit', (code, signal) => this.exited(app, child, code, signal, logStream));
    this.emit('spawn', { name: app.name, pid: child.pid });
  }

  /**
   * @param {string} name
   * @param {import('node:stream').Readable} stream
   * @param {fs.WriteStream} logStream
   */
  relay(name, stream, logStream) {
    let buffered = '';
    stream.on('data', /** @param {Buffer} chunk */ (chunk) => {
      logStream.write(chunk);
      if (!this.echo) return;
      buffered += chunk.toString('utf8');
      const lines = buffered.split('\n');
      // (split gives one string at least: the part after the last newline.)
      buffered = /** @type {string} */ (lines.pop());
      for (const line of lines) if (isConsoleWorthy(line)) process.stderr.write(`[${name}] ${line}\n`);
    });
  }

  /**
   * @param {App} app
   * @param {ChildProcess} child
   * @param {number | null} code
   * @param {NodeJS.Signals | null} signal
   * @param {fs.WriteStream} logStream
   */
  exited(app, child, code, signal, logStream) {
    logStream.end();
    if (app.child === child) app.child = null;
    const pidFile = this.pidFile(app.name);
    try {
      if (pidFile && fs.readFileSync(pidFile, 'utf8').trim() === String(child.pid)) fs.rmSync(pidFile);
    } catch {
      // already gone
    }
    this.emit('exit', { name: app.name, pid: child.pid, code, signal, expected: this.stopping });
    if (this.stopping) return;
    const next = app.backoff.next(app.startedAt);
    const delayMs = app.nextDelayMs ?? next.delayMs;
    app.nextDelayMs = null;
    this.log(`${app.name} exited unexpectedly (${howExited(code, signal)}); restarting in ${delayMs / 1000} s (attempt ${next.attempt}); log: ${this.logFile(app.name)}`);
    this.emit('restart', { name: app.name, attempt: next.attempt, delayMs });
    app.timer = setTimeout(() => {
      app.timer = null;
      if (!this.stopping) this.spawn(app);
    }, delayMs);
  }
}

module.exports = { Supervisor, ProcessKeeper, SERVICES, DEFAULT_BACKOFF };
