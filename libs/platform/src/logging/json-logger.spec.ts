import { Logger } from '@nestjs/common';
import { INSTANCE_ID, JsonLogger, setLogSink } from './json-logger';
import { requestContext } from './request-context';

describe('JsonLogger', () => {
  let lines: Record<string, unknown>[];
  beforeEach(() => {
    lines = [];
    setLogSink((line) => lines.push(JSON.parse(line)));
  });
  afterEach(() => setLogSink(null));

  it('writes time, level as a word, service, instance, request id, context and msg on one line each', () => {
    const logger = new JsonLogger('booking', 'debug');
    requestContext.run({ requestId: 'req-1' }, () => logger.log('booked', 'BookingSaga'));
    logger.debug('outside');

    expect(lines[0]).toEqual({ time: expect.any(String), level: 'info', service: 'booking', instance: INSTANCE_ID, requestId: 'req-1', context: 'BookingSaga', msg: 'booked' });
    expect(new Date(lines[0].time as string).toISOString()).toBe(lines[0].time);
    expect(lines[1]).toEqual({ time: expect.any(String), level: 'debug', service: 'booking', instance: INSTANCE_ID, msg: 'outside' });
  });

  it("logs Nest's NATS disconnect report as a warning, and not as trouble once the app is closing", () => {
    const logger = new JsonLogger('users', 'info');
    const report = 'NatsError: type: "disconnect", data: "127.0.0.1:4222".';
    logger.error(report, 'Server');
    // Any logger of the process marks it: Nest's and the one that received the signal may differ.
    new JsonLogger('users').closing();
    logger.error(report, 'Server');
    logger.error('NatsError: type: "error", data: "permissions violation".', 'Server');
    expect(lines.map(({ level, msg }) => ({ level, msg }))).toEqual([
      { level: 'warn', msg: report },
      { level: 'error', msg: 'NatsError: type: "error", data: "permissions violation".' },
    ]);
  });

  it('merges an object message into the line, its fields over the request context', () => {
    const logger = new JsonLogger('gateway');
    requestContext.run({ requestId: 'req-1', service: 'search', instance: 'host:2:x' }, () => logger.warn({ msg: 'request', requestId: 'req-2', status: 200 }, 'http'));

    expect(lines).toEqual([{ time: expect.any(String), level: 'warn', service: 'search', instance: 'host:2:x', requestId: 'req-2', context: 'http', msg: 'request', status: 200 }]);
  });

  it("writes an Error's message and stack, and the stack Nest passes with an error", () => {
    const logger = new JsonLogger('users');
    const error = new Error('disk full');
    logger.fatal(error);
    logger.error('handler failed', 'Error: handler failed\n    at somewhere', 'ExceptionsHandler');
    logger.error({ msg: 'unhandled' }, 'the stack', 'RpcErrorFilter');

    expect(lines[0]).toMatchObject({ level: 'fatal', msg: 'disk full', stack: error.stack });
    expect(lines[1]).toMatchObject({ level: 'error', msg: 'handler failed', stack: 'Error: handler failed\n    at somewhere', context: 'ExceptionsHandler' });
    expect(lines[2]).toMatchObject({ level: 'error', msg: 'unhandled', stack: 'the stack', context: 'RpcErrorFilter' });
  });

  it('writes nothing below its level; verbose is debug', () => {
    const logger = new JsonLogger('promo', 'warn');
    logger.log('info line');
    logger.debug('debug line');
    logger.verbose('verbose line');
    logger.warn('warn line');
    logger.error('error line');
    expect(lines.map((line) => line.level)).toEqual(['warn', 'error']);
    expect(logger.isEnabled('info')).toBe(false);
    expect(logger.isEnabled('fatal')).toBe(true);

    const chatty = new JsonLogger('promo', 'debug');
    chatty.verbose('verbose line');
    expect(lines[2]).toMatchObject({ level: 'debug', msg: 'verbose line' });
  });

  it('writes to the sink set last, also from a logger made before it', () => {
    const logger = new JsonLogger('accounting');
    const later: string[] = [];
    setLogSink((line) => later.push(line));
    logger.log('charged');
    expect(lines).toEqual([]);
    expect(later).toHaveLength(1);
    expect(later[0]).not.toContain('\n');
  });

  it("is what Nest's static Logger writes through, with the Logger's context", () => {
    Logger.overrideLogger(new JsonLogger('rates'));
    try {
      new Logger('RatesService').log({ msg: 'priced', hotels: 3 });
      new Logger('RatesService').error({ msg: 'vendor failed' });
    } finally {
      Logger.overrideLogger(false);
    }
    expect(lines).toEqual([
      expect.objectContaining({ level: 'info', service: 'rates', context: 'RatesService', msg: 'priced', hotels: 3 }),
      expect.objectContaining({ level: 'error', service: 'rates', context: 'RatesService', msg: 'vendor failed' }),
    ]);
    expect(lines[1]).not.toHaveProperty('stack');
  });
});
