const { spawn } = require('node:child_process');
const fs = require('node:fs');
const path = require('node:path');
const { log, portAnswers, findOnPath } = require('./workspace');

async function waitForPort(port, timeoutMs) {
  const deadline = Date.now() + timeoutMs;
  while (Date.now() < deadline) {
    if (await portAnswers(port)) return true;
    await new Promise((resolve) => setTimeout(resolve, 100));
  }
  return false;
}

function natsServerBinary() {
  const binary = findOnPath('nats-server', ['/usr/sbin', '/usr/local/sbin']);
  if (!binary) {
    throw new Error(
      'nats-server is not on PATH. Install it (Debian/Ubuntu: apt-get install nats-server; ' +
        'macOS: brew install nats-server) or set NATS_URL.',
    );
  }
  return binary;
}

/**
 * A nats-server from PATH on 127.0.0.1:<port> with JetStream stored in storeDir.
 * `kill(signal)` stops it (as a crash would with SIGKILL) and `start()` starts it
 * again on the same port and store, so a caller can take the broker away and back.
 */
async function startNatsServer({ port, storeDir }) {
  const binary = natsServerBinary();
  fs.mkdirSync(storeDir, { recursive: true });
  let child = null;
  const server = {
    url: `nats://127.0.0.1:${port}`,
    port,
    binary,
    async start() {
      child = spawn(binary, ['-a', '127.0.0.1', '-p', String(port), '-js', '-sd', storeDir], { stdio: 'ignore' });
      if (!(await waitForPort(port, 10_000))) throw new Error(`nats-server did not start on port ${port} within 10 s`);
    },
    kill(signal = 'SIGTERM') {
      const running = child;
      if (!running || running.exitCode !== null || running.signalCode !== null) return Promise.resolve();
      return new Promise((resolve) => {
        running.once('exit', () => resolve());
        running.kill(signal);
      });
    },
  };
  await server.start();
  return server;
}

/**
 * NATS_URL if set; else a server on 127.0.0.1:4222 if one answers; else a
 * nats-server from PATH started with JetStream under the data directory.
 */
async function resolveNats(dataDir) {
  if (process.env.NATS_URL) return { url: process.env.NATS_URL, kind: 'NATS_URL', stop: async () => undefined };
  const url = 'nats://127.0.0.1:4222';
  if (await portAnswers(4222)) return { url, kind: 'local server on 127.0.0.1:4222', stop: async () => undefined };
  const storeDir = path.resolve(dataDir, 'nats');
  log(`no NATS server answers on 127.0.0.1:4222: starting nats-server with JetStream in ${storeDir}`);
  const server = await startNatsServer({ port: 4222, storeDir });
  return { url, kind: 'nats-server started from PATH', stop: () => server.kill('SIGTERM') };
}

module.exports = { resolveNats, startNatsServer };
