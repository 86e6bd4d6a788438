import { createServer, IncomingHttpHeaders, Server } from 'node:http';
import { AddressInfo } from 'node:net';

/** A request the receiver got. */
export interface ReceivedWebhook {
  path: string;
  headers: IncomingHttpHeaders;
  body: string;
  json: any;
  /** The status it answered. */
  answered: number;
  /** When it arrived (whole, as Date.now() said). */
  at: number;
}

/**
 * A webhook receiver on 127.0.0.1 for system tests: records every POST and answers
 * 200, or, per path, the statuses queued with `answerNext` first.
 */
export class WebhookReceiver {
  readonly received: ReceivedWebhook[] = [];
  private readonly queued = new Map<string, number[]>();

  private constructor(
    private readonly server: Server,
    readonly url: string,
  ) {}

  static async start(): Promise<WebhookReceiver> {
    const server = createServer();
    await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
    const receiver = new WebhookReceiver(server, `http://127.0.0.1:${(server.address() as AddressInfo).port}`);
    server.on('request', (request: import('node:http').IncomingMessage, response: import('node:http').ServerResponse) => {
      const chunks: Buffer[] = [];
      request.on('data', (chunk: Buffer) => chunks.push(chunk));
      request.on('end', () => receiver.record(request.url ?? '/', request.headers, Buffer.concat(chunks).toString('utf8'), response));
    });
    return receiver;
  }

  /** The next requests to `path` get these statuses, in order (then 200 again). */
  answerNext(path: string, ...statuses: number[]): void {
    this.queued.set(path, [...(this.queued.get(path) ?? []), ...statuses]);
  }

  /** What arrived at `path` (every request, also those answered with an error). */
  at(path: string): ReceivedWebhook[] {
    return this.received.filter((request) => request.path === path);
  }

  /** Waits until `count` requests to `path` satisfy `accept` (answered 2xx by default). */
  async waitFor(path: string, count: number, options: { timeoutMs?: number; accept?: (request: ReceivedWebhook) => boolean } = {}): Promise<ReceivedWebhook[]> {
    const accept = options.accept ?? ((request: ReceivedWebhook) => request.answered < 300);
    const deadline = Date.now() + (options.timeoutMs ?? 20_000);
    for (;;) {
      const found = this.at(path).filter(accept);
      if (found.length >= count) return found;
      if (Date.now() > deadline) throw new Error(`${path}: ${found.length} of ${count} webhooks arrived (${this.at(path).length} requests in all)`);
      await new Promise((resolve) => setTimeout(resolve, 50));
    }
  }

  async close(): Promise<void> {
    this.server.closeAllConnections();
    await new Promise<void>((resolve) => this.server.close(() => resolve()));
  }

  private record(path: string, headers: IncomingHttpHeaders, body: string, response: import('node:http').ServerResponse) {
    const statuses = this.queued.get(path) ?? [];
    const answered = statuses.shift() ?? 200;
    let json: any;
    try {
      json = JSON.parse(body);
    } catch {
      json = undefined;
    }
    this.received.push({ path, headers, body, json, answered, at: Date.now() });
    response.writeHead(answered, { 'content-type': 'text/plain' });
    response.end(answered < 300 ? 'ok' : 'receiver says no');
  }
}
