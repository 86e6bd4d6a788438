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

/**
 * NATS_URL if set; else a server on 127.0.0.1:4222 if one answers; else a
 * nats-server from PATH started with JetStream under the data directory.
 */
async function resolveNats(dataDir) {
  if (process.env.NATS_URL) return { url: process.env.NATS_URL, kind: 'NATS_URL', stop: async () => undefined };
  const url = 'nats://127.0.0.1:4222';
  if (await portAnswers(4222)) return { url, kind: 'local server on 127.0.0.1:4222', stop: async () => undefined };
  const binary = findOnPath('nats-server', ['/usr/sbin', '/usr/local/sbin']);
  if (!binary) {
    throw new Error(
      'no NATS server answers on 127.0.0.1:4222 and nats-server is not on PATH. Install it ' +
        '(Debian/Ubuntu: apt-get install nats-server; macOS: brew install nats-server) or set NATS_URL.',
    );
  }
  const storeDir = path.resolve(dataDir, 'nats');
  fs.mkdirSync(storeDir, { recursive: true });
  log(`starting ${binary} with JetStream in ${storeDir}`);
  const child = spawn(binary, ['-a', '127.0.0.1', '-p', '4222', '-js', '-sd', storeDir], { stdio: 'ignore' });
  if (!(await waitForPort(4222, 10_000))) throw new Error('nats-server did not start within 10 s');
  return {
    url,
    kind: 'nats-server started from PATH',
    stop: () =>
      new Promise((resolve) => {
        if (child.exitCode !== null) return resolve();
        child.once('exit', () => resolve());
        child.kill('SIGTERM');
      }),
  };
}

module.exports = { resolveNats };
