import { ServerResponse } from 'node:http';
import { Counter, Gauge, Histogram, Registry, collectDefaultMetrics } from 'prom-client';
import { ERROR_CODES, ErrorCode } from '@hotel/contracts';

/** Seconds: from a NATS round trip on one host to a booking that waits on a slow vendor. */
const DURATION_BUCKETS = [0.002, 0.005, 0.01, 0.025, 0.05, 0.1, 0.25, 0.5, 1, 2.5, 5, 10, 30];
const KNOWN_CODES: ReadonlySet<string> = new Set(ERROR_CODES);

/** The `code` label of a request's outcome: `OK`, or an error code of the contracts (anything else is INTERNAL_ERROR, so the label stays bounded). */
export function outcomeCode(error?: unknown): 'OK' | ErrorCode {
  if (error === undefined) return 'OK';
  const code = (error as { code?: unknown } | null)?.code;
  return typeof code === 'string' && KNOWN_CODES.has(code) ? (code as ErrorCode) : 'INTERNAL_ERROR';
}

/**
 * One app's Prometheus metrics (names and labels: deploy/README.md). A registry of its
 * own, not prom-client's global one: the system tests run every app in one process, and
 * each must answer for itself. Every series carries the app's name.
 */
export class AppMetrics {
  readonly registry = new Registry();
  /** Requests this app sent over NATS (ServiceClient), by subject and outcome. */
  readonly rpcSent: Histogram<'subject' | 'code'>;

  constructor(readonly app: string) {
    this.registry.setDefaultLabels({ app });
    collectDefaultMetrics({ register: this.registry });
    this.rpcSent = this.histogram('hotel_rpc_sent_duration_seconds', 'NATS requests sent, by subject and outcome code (OK or the error code)', ['subject', 'code']);
  }

  counter<L extends string>(name: string, help: string, labelNames: readonly L[]): Counter<L> {
    return new Counter({ name, help, labelNames, registers: [this.registry] });
  }

  histogram<L extends string>(name: string, help: string, labelNames: readonly L[]): Histogram<L> {
    return new Histogram({ name, help, labelNames, buckets: DURATION_BUCKETS, registers: [this.registry] });
  }

  /** A gauge whose value is read when it is scraped (`read` sets it). */
  gauge<L extends string>(name: string, help: string, read: (gauge: Gauge<L>) => void | Promise<void>, labelNames: readonly L[] = []): Gauge<L> {
    return new Gauge({
      name,
      help,
      labelNames,
      registers: [this.registry],
      collect(this: Gauge<L>) {
        return read(this);
      },
    });
  }

  /** Answers a scrape with the text exposition format. */
  async respond(response: ServerResponse): Promise<void> {
    const body = await this.registry.metrics();
    response.writeHead(200, { 'content-type': this.registry.contentType });
    response.end(body);
  }
}
