import { ROOT_CONTEXT, Span, SpanStatusCode, propagation, trace } from '@opentelemetry/api';
import { FastifyInstance, FastifyRequest } from 'fastify';
import { SpanKind, startSpan, tracingEnabled, withSpan } from '@hotel/platform';

const spans = new WeakMap<FastifyRequest, Span>();

/** The span of an HTTP request (tracing on), for what runs outside its hooks' context: the access log line. */
export function requestSpan(request: FastifyRequest): Span | undefined {
  return spans.get(request);
}

/**
 * With tracing on, every HTTP request is a server span named after its route template
 * (`POST /book/:hotel_id/…`, never the raw path with its ids), the root of the trace of
 * everything it causes. A caller's own traceparent is linked, not continued: this is the
 * public edge, and a trace a caller could steer (unsampled, say) is not one to keep.
 * The span is made active twice: for the request hooks (authentication calls the users
 * service), and again before the handler, since the body parser's stream events run
 * outside the request's async context. Registered before every other hook; while
 * tracing is off none is registered at all.
 */
export function installRequestSpans(fastify: FastifyInstance): void {
  if (!tracingEnabled()) return;
  fastify.addHook('onRequest', (request, _reply, done) => {
    const route = request.routeOptions.url;
    const caller = trace.getSpanContext(propagation.extract(ROOT_CONTEXT, request.headers));
    const span = startSpan('gateway', route ? `${request.method} ${route}` : request.method, {
      kind: SpanKind.SERVER,
      parent: ROOT_CONTEXT,
      links: caller ? [{ context: caller }] : undefined,
      attributes: { 'http.request.method': request.method, ...(route && { 'http.route': route }) },
    });
    if (span) spans.set(request, span);
    withSpan(span, done);
  });
  fastify.addHook('preHandler', (request, _reply, done) => withSpan(spans.get(request), done));
  fastify.addHook('onResponse', (request, reply, done) => {
    const span = spans.get(request);
    if (span) {
      span.setAttribute('http.response.status_code', reply.statusCode);
      if (reply.statusCode >= 500) span.setStatus({ code: SpanStatusCode.ERROR });
      span.end();
    }
    done();
  });
}
