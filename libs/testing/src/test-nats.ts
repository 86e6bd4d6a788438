import { ChildProcess, spawn } from 'node:child_process';
import { existsSync, mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import { createServer, connect } from 'node:net';
import { tmpdir } from 'node:os';
import { delimiter, join } from 'node:path';
import { BusIdentity } from '@hotel/contracts';
import { BusCredentials, BusKey, brokerConfig, newBusKeys } from '@hotel/platform';

export async function freePort(): Promise<number> {
  return new Promise((resolve, reject) => {
    const server = createServer();
    server.once('error', reject);
    server.listen(0, '127.0.0.1', () => {
      const { port } = server.address() as { port: number };
      server.close(() => resolve(port));
    });
  });
}

export function findNatsServer(): string | null {
  const dirs = [...(process.env.PATH ?? '').split(delimiter), '/usr/sbin', '/usr/local/bin', '/usr/bin'];
  for (const dir of dirs) {
    const candidate = join(dir, 'nats-server');
    if (dir && existsSync(candidate)) return candidate;
  }
  return null;
}

export async function waitForPort(port: number, timeoutMs = 10_000): Promise<void> {
  const deadline = Date.now() + timeoutMs;
  for (;;) {
    const open = await new Promise<boolean>((resolve) => {
      const socket = connect(port, '127.0.0.1');
      socket.once('connect', () => {
        socket.destroy();
        resolve(true);
      });
      socket.once('error', () => resolve(false));
    });
    if (open) return;
    if (Date.now() > deadline) throw new Error(`port ${port} did not open within ${timeoutMs} ms`);
    await new Promise((resolve) => setTimeout(resolve, 50));
  }
}

export interface TestNats {
  url: string;
  /** Each identity's NKEY, as the broker knows it. */
  keys: Record<BusIdentity, BusKey>;
  /** How an identity connects (its URL and seed). */
  bus(identity: BusIdentity): BusCredentials;
  /** Kills the server (as a crash would), waits `downMs`, and starts it again on the same port. */
  restart(downMs: number): Promise<void>;
  stop(): Promise<void>;
}

/**
 * A private nats-server on a free loopback port, so a test run shares no
 * subjects with another run or with a running `npm start`. It is configured as
 * production's is: every identity with its own NKEY and permissions, no
 * anonymous connections.
 */
export async function startTestNats(): Promise<TestNats> {
  const binary = findNatsServer();
  if (!binary) throw new Error('nats-server not found on PATH or in /usr/sbin; install it (apt-get install nats-server)');
  const port = await freePort();
  const storeDir = mkdtempSync(join(tmpdir(), 'hotel-test-nats-'));
  const keys = newBusKeys();
  const configFile = join(storeDir, 'nats.conf');
  const publicKeys = Object.fromEntries(Object.entries(keys).map(([identity, key]) => [identity, key.publicKey])) as Record<BusIdentity, string>;
  writeFileSync(configFile, brokerConfig({ host: '127.0.0.1', port, storeDir: join(storeDir, 'js'), publicKeys }), { mode: 0o600 });
  const spawnServer = () => spawn(binary, ['-c', configFile], { stdio: 'ignore' });
  let child: ChildProcess = spawnServer();
  const kill = (signal: NodeJS.Signals) =>
    child.exitCode === null && child.signalCode === null
      ? new Promise<void>((resolve) => {
          child.once('exit', () => resolve());
          child.kill(signal);
        })
      : Promise.resolve();
  await waitForPort(port);
  const url = `nats://127.0.0.1:${port}`;
  return {
    url,
    keys,
    bus: (identity) => ({ url, identity, seed: keys[identity].seed }),
    restart: async (downMs: number) => {
      await kill('SIGKILL');
      await new Promise((resolve) => setTimeout(resolve, downMs));
      child = spawnServer();
      await waitForPort(port);
    },
    stop: async () => {
      await kill('SIGTERM');
      rmSync(storeDir, { recursive: true, force: true });
    },
  };
}
