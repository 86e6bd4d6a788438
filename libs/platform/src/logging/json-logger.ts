import { LoggerService } from '@nestjs/common';
import { hostname } from 'node:os';
import pino, { DestinationStream, Logger as Pino } from 'pino';
import { traceFields, tracingEnabled } from '../tracing/tracing';
import { requestContext } from './request-context';

export type LogLevel = 'fatal' | 'error' | 'warn' | 'info' | 'debug';

export type LogSink = (line: string) => void;

export const INSTANCE_ID = `${hostname()}:${process.pid}`;

/**
 * The fields each line takes from the request being handled (pino's mixin): the one
 * place that says what a line carries of its request. A line outside any request
 * names the logger's own service and this process. With tracing on, a line written
 * within a span names its trace and span too, beside the request id.
 */
export function requestFields(service: string): Record<string, unknown> {
  const store = requestContext.getStore();
  const fields = { service: store?.service ?? service, instance: store?.instance ?? INSTANCE_ID, requestId: store?.requestId };
  return tracingEnabled() ? Object.assign(fields, traceFields()) : fields;
}

/** How Nest's NATS server logs a lost connection to the broker. */
const NEST_NATS_DISCONNECT = /^NatsError: type: "disconnect"/;

/** Set once the process closes (JsonLogger.closing): the broker connection it closes is no news then. */
let processClosing = false;

let sink: LogSink | null = null;
let stdout: DestinationStream | undefined;

/**
 * Where every logger writes: a test's sink, else stdout written synchronously, as
 * Node writes stdout to a file or pipe on Linux, so that a fatal line logged just
 * before the process exits or is killed is out.
 */
const destination: DestinationStream = {
  write(line: string) {
    if (sink) sink(line.endsWith('\n') ? line.slice(0, -1) : line);
    else (stdout ??= pino.destination({ dest: 1, sync: true })).write(line);
  },
};

/** Tests capture log lines with this; production writes one JSON object per line to stdout. */
export function setLogSink(next: LogSink | null): void {
  sink = next;
}

/**
 * Nest's LoggerService over pino: one JSON object per line with time (ISO), level (a
 * word), the request's fields, Nest's context, and msg (an Error's message with its
 * stack; an object message merged into the line). pino directly rather than
 * nestjs-pino: its part is pino-http, an HTTP request logger that runs in none of the
 * NATS services and would log every header (the API keys) at the gateway, which
 * writes an access line of its own with the request id, method, path, status and time.
 */
export class JsonLogger implements LoggerService {
  private readonly pino: Pino;

  constructor(service: string, level: LogLevel = 'info') {
    this.pino = pino(
      {
        level,
        base: null,
        timestamp: pino.stdTimeFunctions.isoTime,
        formatters: { level: (label) => ({ level: label }) },
        mixin: () => requestFields(service),
      },
      destination,
    );
  }

  log(message: unknown, ...rest: unknown[]) {
    this.write('info', message, rest);
  }
  error(message: unknown, ...rest: unknown[]) {
    // Nest's NATS server reports each change of its connection as an error. A disconnect
    // is followed by reconnection (a warning), or is the app's own close (no news).
    if (typeof message === 'string' && NEST_NATS_DISCONNECT.test(message)) return this.write(processClosing ? 'debug' : 'warn', message, rest);
    this.write('error', message, rest);
  }

  /** The process is closing (a signal): what its own close causes is not logged as trouble, by any of its loggers. */
  closing(): void {
    processClosing = true;
  }
  warn(message: unknown, ...rest: unknown[]) {
    this.write('warn', message, rest);
  }
  debug(message: unknown, ...rest: unknown[]) {
    this.write('debug', message, rest);
  }
  verbose(message: unknown, ...rest: unknown[]) {
    this.write('debug', message, rest);
  }
  fatal(message: unknown, ...rest: unknown[]) {
    this.write('fatal', message, rest);
  }

  isEnabled(level: LogLevel): boolean {
    return this.pino.isLevelEnabled(level);
  }

  private write(level: LogLevel, message: unknown, rest: unknown[]) {
    if (!this.pino.isLevelEnabled(level)) return;
    // Nest passes the context name as the last string argument, and a stack before it for errors.
    const args = [...rest];
    const context = typeof args[args.length - 1] === 'string' ? (args.pop() as string) : undefined;
    const stack = level === 'error' && typeof args[0] === 'string' ? args[0] : undefined;
    if (message instanceof Error) return this.pino[level]({ context, stack: stack ?? message.stack }, message.message);
    if (typeof message !== 'object' || message === null) return this.pino[level]({ context, stack }, String(message));
    const fields: Record<string, unknown> = Object.assign({ context }, message);
    if (stack !== undefined) fields.stack = stack;
    this.pino[level](fields);
  }
}
