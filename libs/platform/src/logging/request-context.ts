import { AsyncLocalStorage } from 'node:async_hooks';
import { randomUUID } from 'node:crypto';
import { outsideAnyTrace } from '../tracing/tracing';

export interface RequestContext {
  requestId: string;
  /** The service handling the request; several can share a process in tests. */
  service?: string;
  /** The replica handling it. */
  instance?: string;
  /** When the caller stops waiting for the answer (epoch ms), if it said. */
  deadline?: number;
}

/**
 * Kept over nestjs-pino's per-request logger: the NATS server, the gateway's hook and
 * timed jobs all enter it, and deadlines ride in it too; the logger reads it in one place.
 */
export const requestContext = new AsyncLocalStorage<RequestContext>();

export function currentRequestId(): string | undefined {
  return requestContext.getStore()?.requestId;
}

/** When the current request's caller stops waiting (epoch ms), if it said. */
export function currentDeadline(): number | undefined {
  return requestContext.getStore()?.deadline;
}

const REQUEST_ID_PATTERN = /^[A-Za-z0-9._:-]{1,128}$/;

/** Keeps a caller's request id when it is sane, else makes a new one. */
export function acceptRequestId(candidate: unknown): string {
  return typeof candidate === 'string' && REQUEST_ID_PATTERN.test(candidate) ? candidate : randomUUID();
}

/**
 * Runs a service's own timed work (recovery passes, clean-ups) in a context of
 * its own, as a request is: its log lines name the service and replica and share
 * one id per pass. Outside any context a line would take the process's last
 * registered Nest logger's name, which is another service's where several share
 * a process (tests). A pass a request nudges is not part of that request's trace either.
 */
export class BackgroundJobs {
  constructor(
    private readonly service: string,
    private readonly instance?: string,
  ) {}

  run<T>(job: string, work: () => T): T {
    return requestContext.run({ requestId: `${job}-${randomUUID()}`, service: this.service, instance: this.instance }, () => outsideAnyTrace(work));
  }
}
