import { LoggerService } from '@nestjs/common';
import { hostname } from 'node:os';
import { requestContext } from './request-context';

const LEVELS = { fatal: 0, error: 1, warn: 2, info: 3, debug: 4 } as const;
export type LogLevel = keyof typeof LEVELS;

export type LogSink = (line: string) => void;

let sink: LogSink = (line) => process.stdout.write(line + '\n');

/** Tests capture log lines with this; production writes one JSON object per line to stdout. */
export function setLogSink(next: LogSink | null): void {
  sink = next ?? ((line) => process.stdout.write(line + '\n'));
}

export const INSTANCE_ID = `${hostname()}:${process.pid}`;

/** Structured JSON logs; every line carries the request id of the request being handled. */
export class JsonLogger implements LoggerService {
  private readonly threshold: number;

  constructor(
    private readonly service: string,
    level: LogLevel = 'info',
  ) {
    this.threshold = LEVELS[level];
  }

  log(message: unknown, ...rest: unknown[]) {
    this.write('info', message, rest);
  }
  error(message: unknown, ...rest: unknown[]) {
    this.write('error', message, rest);
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
    return LEVELS[level] <= this.threshold;
  }

  private write(level: LogLevel, message: unknown, rest: unknown[]) {
    if (!this.isEnabled(level)) return;
    const store = requestContext.getStore();
    // Nest passes the context name as the last string argument, and a stack before it for errors.
    const args = [...rest];
    const context = typeof args[args.length - 1] === 'string' ? (args.pop() as string) : undefined;
    const line: Record<string, unknown> = {
      time: new Date().toISOString(),
      level,
      service: store?.service ?? this.service,
      instance: store?.instance ?? INSTANCE_ID,
      requestId: store?.requestId,
      context,
    };
    if (message instanceof Error) {
      line.msg = message.message;
      line.stack = message.stack;
    } else if (typeof message === 'object' && message !== null) {
      Object.assign(line, message);
    } else {
      line.msg = String(message);
    }
    if (args.length > 0 && typeof args[0] === 'string' && level === 'error') line.stack = args[0];
    sink(JSON.stringify(line));
  }
}
