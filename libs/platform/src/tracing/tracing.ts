import { Attributes, Context, Link, ROOT_CONTEXT, Span, SpanKind, SpanStatusCode, TextMapGetter, TextMapSetter, Tracer, context, propagation, trace } from '@opentelemetry/api';
import type { BasicTracerProvider, SpanExporter } from '@opentelemetry/sdk-trace-base';
import { PlatformEnv } from '../config/env';
import { outcomeCode } from '../metrics/app-metrics';

export { SpanKind };

/**
 * The app that made a span. A process's resource names its service, but the system
 * tests run every app in one process under one provider (the global one of the
 * OpenTelemetry API), so every span also says which app it belongs to.
 */
export const APP_ATTRIBUTE = 'hotel.app';

/** Set by initTracing; while undefined tracing is off and no code path here creates anything. */
let tracer: Tracer | undefined;
let provider: BasicTracerProvider | undefined;

export interface TracingOptions {
  /** Where finished spans go: OTLP in production, an InMemorySpanExporter in tests. */
  exporter: SpanExporter;
  /** The resource's service.name. */
  serviceName: string;
  /** Each span exported as it ends (tests), instead of in batches in the background. */
  immediate?: boolean;
}

/**
 * Turns tracing on for the whole process: a tracer provider, the W3C trace context
 * propagator and a context manager, registered as the API's globals. Called before any
 * app starts (its data source picks its pg client class at start).
 */
export function initTracing(options: TracingOptions): void {
  if (provider) throw new Error('tracing is already on in this process');
  // The SDK is loaded only here: with tracing off (the default) an app does not hold its
  // modules (about 6 MB resident per process, measured).
  /* eslint-disable @typescript-eslint/no-require-imports */
  const { BasicTracerProvider, BatchSpanProcessor, SimpleSpanProcessor } = require('@opentelemetry/sdk-trace-base') as typeof import('@opentelemetry/sdk-trace-base');
  const { resourceFromAttributes } = require('@opentelemetry/resources') as typeof import('@opentelemetry/resources');
  const { AsyncLocalStorageContextManager } = require('@opentelemetry/context-async-hooks') as typeof import('@opentelemetry/context-async-hooks');
  const { W3CTraceContextPropagator } = require('@opentelemetry/core') as typeof import('@opentelemetry/core');
  const { ATTR_SERVICE_NAME } = require('@opentelemetry/semantic-conventions') as typeof import('@opentelemetry/semantic-conventions');
  /* eslint-enable @typescript-eslint/no-require-imports */
  provider = new BasicTracerProvider({
    resource: resourceFromAttributes({ [ATTR_SERVICE_NAME]: options.serviceName }),
    spanProcessors: [options.immediate ? new SimpleSpanProcessor(options.exporter) : new BatchSpanProcessor(options.exporter)],
  });
  context.setGlobalContextManager(new AsyncLocalStorageContextManager().enable());
  propagation.setGlobalPropagator(new W3CTraceContextPropagator());
  trace.setGlobalTracerProvider(provider);
  tracer = provider.getTracer('@hotel/platform');
}

/** Exports what is left and turns tracing off again. */
export async function shutdownTracing(): Promise<void> {
  const current = provider;
  provider = undefined;
  tracer = undefined;
  if (!current) return;
  await current.shutdown();
  trace.disable();
  propagation.disable();
  context.disable();
}

/**
 * An app's `main`: tracing on, exported over OTLP (HTTP), when OTEL_EXPORTER_OTLP_ENDPOINT
 * is set; else nothing, not even the exporter's modules are loaded.
 */
export async function tracingFromEnv(app: string, env: PlatformEnv): Promise<void> {
  if (!env.OTEL_EXPORTER_OTLP_ENDPOINT) return;
  const { OTLPTraceExporter } = await import('@opentelemetry/exporter-trace-otlp-http');
  // The variable is the collector's base address; traces go to its signal path.
  const url = `${env.OTEL_EXPORTER_OTLP_ENDPOINT.replace(/\/+$/, '')}/v1/traces`;
  initTracing({ exporter: new OTLPTraceExporter({ url }), serviceName: env.OTEL_SERVICE_NAME ?? app });
}

export function tracingEnabled(): boolean {
  return tracer !== undefined;
}

export interface StartSpanOptions {
  kind: SpanKind;
  attributes?: Attributes;
  /** Defaults to the active context (the span of the request being handled). */
  parent?: Context;
  links?: Link[];
}

/** A span of `app`, started; undefined while tracing is off. */
export function startSpan(app: string, name: string, options: StartSpanOptions): Span | undefined {
  return tracer?.startSpan(name, { kind: options.kind, attributes: { ...options.attributes, [APP_ATTRIBUTE]: app }, links: options.links }, options.parent);
}

/** Ends a span; an error marks it failed, with the outcome code (as the metrics count it). */
export function endSpan(span: Span | undefined, error?: unknown): void {
  if (!span) return;
  if (error !== undefined) span.setStatus({ code: SpanStatusCode.ERROR, message: outcomeCode(error) });
  span.end();
}

/** Runs `work` with `span` as the active span (the parent of what it starts, the one its log lines name). */
export function withSpan<T>(span: Span | undefined, work: () => T): T {
  return span ? context.with(trace.setSpan(context.active(), span), work) : work();
}

/** Runs `work` outside any trace: work of its own (a timed pass), not of the request that happened to start it. */
export function outsideAnyTrace<T>(work: () => T): T {
  return tracer ? context.with(ROOT_CONTEXT, work) : work();
}

/** `work` in a span of its own, ended when its promise settles; `work` alone while tracing is off. */
export function traced<T>(app: string, name: string, options: StartSpanOptions, work: () => Promise<T>): Promise<T> {
  const span = startSpan(app, name, options);
  if (!span) return work();
  return withSpan(span, work).then(
    (result) => {
      endSpan(span);
      return result;
    },
    (error: unknown) => {
      endSpan(span, error);
      throw error;
    },
  );
}

/** Message headers as NATS has them (MsgHdrs), or a stream message's: '' for a missing header. */
export interface HeaderCarrier {
  get(name: string): string;
}

const getter: TextMapGetter<HeaderCarrier> = { get: (carrier, key) => carrier.get(key) || undefined, keys: () => [] };
const setter: TextMapSetter<{ set(name: string, value: string): void }> = { set: (carrier, key, value) => carrier.set(key, value) };

/** Writes the active span's trace context (traceparent, tracestate) into outgoing headers: nothing while tracing is off. */
export function injectTraceContext(headers: { set(name: string, value: string): void }): void {
  if (tracer) propagation.inject(context.active(), headers, setter);
}

/** A span continuing the trace its message's headers carry (a new trace when they carry none); undefined while tracing is off. */
export function startSpanFromHeaders(app: string, name: string, headers: HeaderCarrier | undefined, options: Omit<StartSpanOptions, 'parent'>): Span | undefined {
  if (!tracer) return undefined;
  return startSpan(app, name, { ...options, parent: headers ? propagation.extract(ROOT_CONTEXT, headers, getter) : ROOT_CONTEXT });
}

/** The attributes of a span about a NATS subject. */
export function natsAttributes(subject: string): Attributes {
  return { 'messaging.system': 'nats', 'messaging.destination.name': subject };
}

/** The active span's ids for a log line: none while tracing is off or outside any span. */
export function traceFields(): { trace_id: string; span_id: string } | undefined {
  if (!tracer) return undefined;
  const span = trace.getActiveSpan();
  if (!span) return undefined;
  const { traceId, spanId } = span.spanContext();
  return { trace_id: traceId, span_id: spanId };
}
