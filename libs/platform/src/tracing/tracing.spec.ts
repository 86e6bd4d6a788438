import { SpanKind, SpanStatusCode, trace } from '@opentelemetry/api';
import { InMemorySpanExporter } from '@opentelemetry/sdk-trace-base';
import { headers as natsHeaders } from 'nats';
import { loadEnv, PlatformEnv } from '../config/env';
import { JsonLogger, setLogSink } from '../logging/json-logger';
import { BackgroundJobs, requestContext } from '../logging/request-context';
import { APP_ATTRIBUTE, injectTraceContext, initTracing, shutdownTracing, startSpan, startSpanFromHeaders, traced, tracingEnabled, tracingFromEnv, withSpan } from './tracing';

describe('tracing', () => {
  // A provider's shutdown shuts its exporter down too: one per test.
  let exporter: InMemorySpanExporter;
  let lines: Record<string, unknown>[];
  beforeEach(() => {
    exporter = new InMemorySpanExporter();
    lines = [];
    setLogSink((line) => lines.push(JSON.parse(line)));
  });
  afterEach(async () => {
    setLogSink(null);
    await shutdownTracing();
  });

  it('loads the OpenTelemetry SDK only when tracing is turned on (an app with tracing off does not hold its modules)', async () => {
    const loaded: string[] = [];
    let isolated: typeof import('./tracing') | undefined;
    jest.isolateModules(() => {
      for (const name of ['@opentelemetry/sdk-trace-base', '@opentelemetry/resources', '@opentelemetry/context-async-hooks', '@opentelemetry/core']) {
        jest.doMock(name, () => {
          loaded.push(name);
          return jest.requireActual(name);
        });
      }
      // eslint-disable-next-line @typescript-eslint/no-require-imports -- a fresh copy of the module, under the mocks above
      isolated = require('./tracing') as typeof import('./tracing');
      expect(loaded).toEqual([]);
      isolated.initTracing({ exporter: new InMemorySpanExporter(), serviceName: 'booking', immediate: true });
      expect(loaded.sort()).toEqual(['@opentelemetry/context-async-hooks', '@opentelemetry/core', '@opentelemetry/resources', '@opentelemetry/sdk-trace-base']);
    });
    await isolated?.shutdownTracing();
  });

  it('is off unless turned on: no span, no header, no trace in log lines', async () => {
    await tracingFromEnv('booking', loadEnv(PlatformEnv, {}));
    expect(tracingEnabled()).toBe(false);
    expect(startSpan('booking', 'x', { kind: SpanKind.INTERNAL })).toBeUndefined();
    const headers = natsHeaders();
    injectTraceContext(headers);
    expect(headers.keys()).toEqual([]);
    requestContext.run({ requestId: 'req-1' }, () => new JsonLogger('booking').log('untraced'));
    expect(Object.keys(lines[0])).not.toContain('trace_id');
  });

  it('carries the trace context in NATS headers: the server span is the child of the client span', async () => {
    initTracing({ exporter, serviceName: 'test', immediate: true });
    const headers = natsHeaders();
    await traced('gateway', 'booking.booking.create.v1', { kind: SpanKind.CLIENT }, async () => {
      injectTraceContext(headers);
      startSpanFromHeaders('booking', 'booking.booking.create.v1', headers, { kind: SpanKind.SERVER })?.end();
    });
    const [server, client] = exporter.getFinishedSpans();
    expect(headers.get('traceparent')).toBe(`00-${client.spanContext().traceId}-${client.spanContext().spanId}-01`);
    expect(server.parentSpanContext?.spanId).toBe(client.spanContext().spanId);
    expect([client.attributes[APP_ATTRIBUTE], server.attributes[APP_ATTRIBUTE]]).toEqual(['gateway', 'booking']);
  });

  it('writes the trace and span ids beside the request id in a line written within a span', () => {
    initTracing({ exporter, serviceName: 'test', immediate: true });
    const span = startSpan('booking', 'work', { kind: SpanKind.SERVER })!;
    requestContext.run({ requestId: 'req-2' }, () => withSpan(span, () => new JsonLogger('booking').log('traced')));
    new JsonLogger('booking').log('outside any span');
    expect(lines[0]).toMatchObject({ requestId: 'req-2', trace_id: span.spanContext().traceId, span_id: span.spanContext().spanId, msg: 'traced' });
    expect(Object.keys(lines[1])).not.toContain('trace_id');
  });

  it('keeps a background pass out of the trace of the request that nudged it', () => {
    initTracing({ exporter, serviceName: 'test', immediate: true });
    const request = startSpan('booking', 'booking.booking.create.v1', { kind: SpanKind.SERVER });
    const active = withSpan(request, () => new BackgroundJobs('booking').run('events-relay', () => trace.getActiveSpan()));
    expect(active).toBeUndefined();
  });

  it('marks a failed span with its outcome code', async () => {
    initTracing({ exporter, serviceName: 'test', immediate: true });
    await expect(traced('rates', 'q', { kind: SpanKind.CLIENT }, () => Promise.reject(Object.assign(new Error('x'), { code: 'NOT_FOUND' })))).rejects.toThrow('x');
    expect(exporter.getFinishedSpans()[0].status).toEqual({ code: SpanStatusCode.ERROR, message: 'NOT_FOUND' });
  });
});
