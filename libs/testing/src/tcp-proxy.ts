import { Server, Socket, connect, createServer } from 'node:net';

export interface TcpProxy {
  port: number;
  /** Drops every connection and refuses new ones for `ms`, as a network cut or a database restart would. */
  cut(ms: number): Promise<void>;
  close(): Promise<void>;
}

/**
 * A loopback TCP proxy to `target`, for tests that cut a dependency off (the
 * database) while the apps keep running; with `latencyMs`, every chunk is passed on
 * that much later, in order, both ways (a distant link: what is on its way stays so).
 */
export async function startTcpProxy(target: { host: string; port: number }, options: { latencyMs?: number } = {}): Promise<TcpProxy> {
  const sockets = new Set<Socket>();
  let refusing = false;
  const server: Server = createServer((client) => {
    if (refusing) return client.destroy();
    const upstream = connect(target.port, target.host);
    for (const socket of [client, upstream]) {
      sockets.add(socket);
      socket.on('close', () => sockets.delete(socket));
      socket.on('error', () => undefined);
    }
    if (options.latencyMs) {
      const delay = options.latencyMs;
      const relay = (from: Socket, to: Socket) => from.on('data', (chunk: Buffer) => setTimeout(() => to.writable && to.write(chunk), delay));
      relay(client, upstream);
      relay(upstream, client);
    } else {
      client.pipe(upstream).pipe(client);
    }
    // With a latency, what is still on its way is delivered before the other side closes.
    const later = (close: () => void) => (options.latencyMs ? setTimeout(close, options.latencyMs + 10) : close());
    client.on('close', () => later(() => upstream.destroy()));
    upstream.on('close', () => later(() => client.destroy()));
  });
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
  const dropAll = () => {
    for (const socket of sockets) socket.destroy();
  };
  return {
    port: (server.address() as { port: number }).port,
    async cut(ms: number) {
      refusing = true;
      dropAll();
      await new Promise((resolve) => setTimeout(resolve, ms));
      refusing = false;
    },
    async close() {
      dropAll();
      await new Promise<void>((resolve) => server.close(() => resolve()));
    },
  };
}
