import { SpanKind, context, propagation, trace } from '@opentelemetry/api';
import { InMemorySpanExporter, ReadableSpan } from '@opentelemetry/sdk-trace-base';
import { BOOKING_EVENT_SUBJECTS, SUBJECTS } from '@hotel/contracts';
import { APP_ATTRIBUTE, initTracing, shutdownTracing } from '@hotel/platform';
import { CapturedLogs, GUEST, captureLogs, prebookV1, sleep, staySequence } from '@hotel/testing';
import { TestSystem } from './system';

const BOOK_ROUTE = 'POST /book/:hotel_id/:session_id/:rate_id/:payment_method';
/** A caller's own trace context, as a partner may send it. */
const CALLER_TRACEPARENT = '00-0af7651916cd43dd8448eb211c80319c-b7ad6b7169203331-01';
const freshStay = staySequence(120);
const CREATED_EVENT = BOOKING_EVENT_SUBJECTS['booking.created'];

const appOf = (span: ReadableSpan) => span.attributes[APP_ATTRIBUTE];

/** Books a prebooked stay with its own request id (and the caller's traceparent), answering 201. */
async function book(system: TestSystem, auth: { authorization: string }, requestId: string): Promise<void> {
  const { path } = await prebookV1(system, auth, freshStay());
  const response = await system.request('POST', path, { headers: { ...auth, 'x-request-id': requestId, traceparent: CALLER_TRACEPARENT }, json: GUEST });
  expect(response.status).toBe(201);
}

/**
 * Traces (OpenTelemetry): one booking is one trace from the gateway's HTTP span through
 * every NATS request (client span in the caller, server span in the service) down to the
 * services' PostgreSQL queries; log lines name the trace beside the request id. With
 * tracing off the platform does no tracing work at all.
 */
describe('tracing on', () => {
  const exporter = new InMemorySpanExporter();
  let system: TestSystem, auth: { authorization: string }, logs: CapturedLogs;
  let spans: ReadableSpan[];
  let root: ReadableSpan;

  beforeAll(async () => {
    // For the whole process, before any app starts: every app of the system shares it.
    initTracing({ exporter, serviceName: 'hotel-system-test', immediate: true });
    logs = captureLogs();
    ({ system, auth } = await TestSystem.startWithClient({ LOG_LEVEL: 'debug' }));
    exporter.reset();
    await book(system, auth, 'trace-me-1');
    // The HTTP span ends once the answer is sent (a moment after the client has it), a
    // service's server span once its reply is sent (so possibly after the caller has it),
    // and the webhooks service reads the booking's event from its stream a little later
    // still: wait for the whole trace, every span's parent finished too (on a loaded
    // machine that took more than the 5 s this once waited).
    const finished = () => exporter.getFinishedSpans();
    const isFinished = (spanId: string | undefined) => finished().some((span) => span.spanContext().spanId === spanId);
    const served = (subject: string) => spans.some((span) => span.kind === SpanKind.SERVER && span.name === subject);
    for (let i = 0; i < 1500; i++) {
      root = finished().find((span) => span.name === BOOK_ROUTE)!;
      spans = finished().filter((span) => span.spanContext().traceId === root?.spanContext().traceId);
      const whole = root && spans.every((span) => span === root || isFinished(span.parentSpanContext?.spanId));
      const calls = [SUBJECTS.BOOKING_BOOKING_CREATE, SUBJECTS.RATES_SUPPLIER_BOOK, SUBJECTS.ACCOUNTING_HOLD_PLACE].every(served);
      if (whole && calls && finished().some((span) => span.kind === SpanKind.CONSUMER && span.name === CREATED_EVENT)) break;
      await sleep(20);
    }
  });
  afterAll(async () => {
    await system?.close();
    logs?.stop();
    await shutdownTracing();
  });

  const byId = (spanId: string | undefined) => exporter.getFinishedSpans().find((span) => span.spanContext().spanId === spanId);

  it('the booking request is one trace from the gateway through booking, rates and accounting', () => {
    expect(root).toBeDefined();
    expect(root.kind).toBe(SpanKind.SERVER);
    expect(appOf(root)).toBe('gateway');
    expect(root.attributes['http.route']).toBe('/book/:hotel_id/:session_id/:rate_id/:payment_method');
    expect(root.attributes['http.response.status_code']).toBe(201);
    // A new trace: the caller's is linked, not continued.
    expect(root.parentSpanContext).toBeUndefined();
    expect(root.spanContext().traceId).not.toBe(CALLER_TRACEPARENT.split('-')[1]);
    expect(root.links.map((link) => link.context.traceId)).toEqual([CALLER_TRACEPARENT.split('-')[1]]);
    for (const app of ['gateway', 'booking', 'rates', 'accounting']) expect(spans.some((span) => appOf(span) === app)).toBe(true);
  });

  it("each NATS server span is the child of its caller's client span", () => {
    const servers = spans.filter((span) => span.kind === SpanKind.SERVER && span !== root);
    expect(servers.map((span) => span.name)).toEqual(expect.arrayContaining([SUBJECTS.BOOKING_BOOKING_CREATE, SUBJECTS.RATES_SUPPLIER_BOOK, SUBJECTS.ACCOUNTING_HOLD_PLACE]));
    for (const server of servers) {
      const client = byId(server.parentSpanContext?.spanId);
      expect(client).toMatchObject({ kind: SpanKind.CLIENT, name: server.name });
      expect(client!.attributes['messaging.destination.name']).toBe(server.name);
    }
    // The gateway's call hangs under its HTTP span; the saga's calls under booking's server span.
    const create = servers.find((span) => span.name === SUBJECTS.BOOKING_BOOKING_CREATE)!;
    expect(appOf(create)).toBe('booking');
    expect(byId(create.parentSpanContext?.spanId)!.parentSpanContext?.spanId).toBe(root.spanContext().spanId);
    const supplierBook = servers.find((span) => span.name === SUBJECTS.RATES_SUPPLIER_BOOK)!;
    const saga = byId(supplierBook.parentSpanContext?.spanId)!;
    expect(appOf(saga)).toBe('booking');
    expect(saga.parentSpanContext?.spanId).toBe(create.spanContext().spanId);
  });

  it("the booking event's consumption continues the trace of its publication, a pass of the outbox relay's own", () => {
    const consumed = exporter.getFinishedSpans().find((span) => span.kind === SpanKind.CONSUMER && span.name === CREATED_EVENT)!;
    expect(appOf(consumed)).toBe('webhooks');
    const published = byId(consumed.parentSpanContext?.spanId)!;
    expect(published).toMatchObject({ kind: SpanKind.PRODUCER, name: consumed.name, attributes: { [APP_ATTRIBUTE]: 'booking' } });
    // The relay's pass is background work: the request that nudged it does not own it.
    expect(published.spanContext().traceId).not.toBe(root.spanContext().traceId);
  });

  it("PostgreSQL queries are spans under the service's own server span, with their text and no values", () => {
    const queries = spans.filter((span) => span.attributes['db.system.name'] === 'postgresql');
    for (const app of ['booking', 'rates', 'accounting']) expect(queries.some((span) => appOf(span) === app)).toBe(true);
    for (const query of queries) {
      expect(query.kind).toBe(SpanKind.CLIENT);
      expect(query.name).toBe(`${query.attributes['db.operation.name']} ${appOf(query)}`);
      const parent = byId(query.parentSpanContext?.spanId)!;
      expect(parent.kind).toBe(SpanKind.SERVER);
      expect(appOf(parent)).toBe(appOf(query));
    }
    const text = queries.map((span) => span.attributes['db.query.text']).join('\n');
    expect(text).toContain('INSERT INTO');
    expect(text).not.toContain(GUEST.email);
  });

  it('every log line of the request names its trace beside its request id, and the span it was written in', () => {
    const lines = logs.lines.filter((line) => line.requestId === 'trace-me-1');
    for (const service of ['gateway', 'booking', 'rates', 'accounting']) expect(lines.some((line) => line.service === service)).toBe(true);
    expect(lines.some((line) => line.service === 'gateway' && line.msg === 'request')).toBe(true);
    expect(lines.length).toBeGreaterThan(3);
    for (const line of lines) {
      expect(line.trace_id).toBe(root.spanContext().traceId);
      expect(spans.map((span) => span.spanContext().spanId)).toContain(line.span_id);
    }
  });
});

describe('tracing off', () => {
  let system: TestSystem, auth: { authorization: string }, logs: CapturedLogs;

  beforeAll(async () => {
    logs = captureLogs();
    ({ system, auth } = await TestSystem.startWithClient({ LOG_LEVEL: 'debug' }));
  });
  afterAll(async () => {
    await system?.close();
    logs?.stop();
  });

  it('a booking, even one sent with a traceparent, creates no span, injects no header, and its log lines name no trace', async () => {
    const calls = [
      jest.spyOn(trace, 'getTracer'),
      jest.spyOn(trace, 'getActiveSpan'),
      jest.spyOn(propagation, 'inject'),
      jest.spyOn(propagation, 'extract'),
      jest.spyOn(context, 'with'),
      jest.spyOn(context, 'active'),
    ];
    await book(system, auth, 'untraced-1');
    for (const call of calls) expect(call).not.toHaveBeenCalled();
    const lines = logs.lines.filter((line) => line.requestId === 'untraced-1');
    expect(lines.length).toBeGreaterThan(3);
    expect(logs.lines.filter((line) => 'trace_id' in line || 'span_id' in line)).toEqual([]);
  });
});
