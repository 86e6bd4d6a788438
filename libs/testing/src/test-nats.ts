import { ChildProcess, spawn } from 'node:child_process';
import { existsSync, mkdtempSync, rmSync } from 'node:fs';
import { createServer, connect } from 'node:net';
import { tmpdir } from 'node:os';
import { delimiter, join } from 'node:path';

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
  stop(): Promise<void>;
}

/**
 * A private nats-server on a free loopback port, so a test run shares no
 * subjects with another run or with a running `npm start`.
 */
export async function startTestNats(): Promise<TestNats> {
  const binary = findNatsServer();
  if (!binary) throw new Error('nats-server not found on PATH or in /usr/sbin; install it (apt-get install nats-server)');
  const port = await freePort();
  const storeDir = mkdtempSync(join(tmpdir(), 'hotel-test-nats-'));
  const child: ChildProcess = spawn(binary, ['-a', '127.0.0.1', '-p', String(port), '-js', '-sd', storeDir], {
    stdio: 'ignore',
  });
  await waitForPort(port);
  return {
    url: `nats://127.0.0.1:${port}`,
    stop: async () => {
      if (child.exitCode === null) {
        await new Promise<void>((resolve) => {
          child.once('exit', () => resolve());
          child.kill('SIGTERM');
        });
      }
      rmSync(storeDir, { recursive: true, force: true });
    },
  };
}
