import { Server, Socket, connect, createServer } from 'node:net';

export interface TcpProxy {
  port: number;
  /** Drops every connection and refuses new ones for `ms`, as a network cut or a database restart would. */
  cut(ms: number): Promise<void>;
  close(): Promise<void>;
}

/**
 * A loopback TCP proxy to `target`, for tests that cut a dependency off (the
 * database) while the apps keep running.
 */
export async function startTcpProxy(target: { host: string; port: number }): Promise<TcpProxy> {
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
    client.pipe(upstream).pipe(client);
    client.on('close', () => upstream.destroy());
    upstream.on('close', () => client.destroy());
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
