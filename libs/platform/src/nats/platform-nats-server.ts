import { Logger } from '@nestjs/common';
import { NatsContext, NatsOptions, ServerNats } from '@nestjs/microservices';
import { Span } from '@opentelemetry/api';
import { Msg, NatsConnection, headers as natsHeaders } from 'nats';
import { Histogram } from 'prom-client';
import { HEADERS, RpcErrorPayload } from '@hotel/contracts';
import { acceptRequestId, requestContext } from '../logging/request-context';
import { AppMetrics, outcomeCode } from '../metrics/app-metrics';
import { SpanKind, endSpan, natsAttributes, startSpanFromHeaders, withSpan } from '../tracing/tracing';

/**
 * Nest's NATS server with two changes for the platform's services:
 * - each message is handled inside the request context its NATS headers carry,
 *   so every log line of the handler names the caller's request id (a Nest
 *   interceptor could do it, at the cost of an async resource per message), and
 *   a handler knows when its caller stops waiting (HEADERS.TIMEOUT_MS), and with
 *   tracing on it runs in a server span, the child of the caller's span (traceparent);
 * - subjects are plain strings, so a route is the subject itself: Nest first tries
 *   JSON.parse on every incoming subject, and the exception it catches builds a
 *   stack trace per message;
 * - a handler's reply that is bytes (a Uint8Array) goes out as those bytes, marked
 *   by a header (HEADERS.RAW_REPLY), instead of as JSON in Nest's packet: large
 *   pre-serialized answers are neither escaped here nor parsed by the caller;
 * - a graceful close drains the subscriptions, then waits until every request in hand
 *   is answered (and every event handled), at most `gracePeriodMs`: Nest's waits the
 *   whole period every time, so each replica stopped in a rolling upgrade took it. Drain,
 *   not unsubscribe: nats.js forgets an unsubscribed subscription at once, so a request
 *   the broker had already sent to this replica (on its way when the replica stopped) was
 *   dropped and its caller waited its whole timeout (a rolling upgrade under load lost one
 *   in about every third run); a drained one is handled until the broker confirms the
 *   unsubscription.
 */
export class PlatformNatsServer extends ServerNats {
  private readonly rpcLogger = new Logger('Rpc');
  /** Each request in hand: when it came, and its span (tracing on). */
  private readonly received = new WeakMap<Msg, { at: bigint; span?: Span }>();
  /** The replica's id, known once the service's module has been created. */
  instance?: string;
  private handled?: Histogram<'subject' | 'code'>;
  /** Requests not yet answered and events not yet handled. */
  private inHand = 0;
  /** Told when the last one in hand is done, while a close waits for it. */
  private whenIdle?: () => void;

  constructor(
    options: Required<NatsOptions>['options'],
    private readonly service: string,
    private readonly gracePeriodMs: number,
  ) {
    super(options);
  }

  /**
   * Listening once the broker has the subscriptions (a round trip after them), not when
   * they are sent: a caller that heard of the replica (its readiness, a test, a rolling
   * upgrade stopping the old one next) could otherwise reach the broker first and get no
   * responder.
   */
  override start(callback: (error?: unknown) => void): void {
    super.start(() => {
      const connection = this.unwrap<NatsConnection>();
      let timer: NodeJS.Timeout | undefined;
      void Promise.race([connection.flush().catch(() => undefined), new Promise((resolve) => (timer = setTimeout(resolve, 5000)))]).then(() => {
        clearTimeout(timer);
        callback();
      });
    });
  }

  override async close(): Promise<void> {
    // Nest keeps its subscriptions in a private field; should that change, the close waits the whole period as Nest's did.
    const subscriptions = (this as unknown as { subscriptions?: { drain(): Promise<void> }[] }).subscriptions;
    if (Array.isArray(subscriptions)) {
      // A broker that is away answers no flush: the drain is bounded by the grace period too.
      await this.withinGrace(Promise.all(subscriptions.map((subscription) => subscription.drain().catch(() => undefined))));
      await this.untilIdle();
      await this.flushReplies();
    } else {
      await new Promise((resolve) => setTimeout(resolve, this.gracePeriodMs));
    }
    await super.close();
  }

  /**
   * The last replies may still sit in the client's buffer: a round trip to the broker sends
   * them before the connection closes. At most a second (a broker that is away answers no ping).
   */
  private async flushReplies(): Promise<void> {
    let connection: NatsConnection;
    try {
      connection = this.unwrap<NatsConnection>();
    } catch {
      return; // never connected: nothing to send
    }
    let timer: NodeJS.Timeout | undefined;
    await Promise.race([connection.flush().catch(() => undefined), new Promise((resolve) => (timer = setTimeout(resolve, Math.min(1000, this.gracePeriodMs))))]);
    clearTimeout(timer);
  }

  /** `work`, or the end of the grace period if that comes first. */
  private async withinGrace(work: Promise<unknown>): Promise<void> {
    let timer: NodeJS.Timeout | undefined;
    await Promise.race([work, new Promise((resolve) => (timer = setTimeout(resolve, this.gracePeriodMs)))]);
    clearTimeout(timer);
  }

  /** Resolves when nothing is in hand, or when the grace period is over. */
  private untilIdle(): Promise<void> {
    if (this.inHand === 0) return Promise.resolve();
    return new Promise((resolve) => {
      const timer = setTimeout(resolve, this.gracePeriodMs);
      this.whenIdle = () => {
        clearTimeout(timer);
        resolve();
      };
    });
  }

  private done(): void {
    this.inHand--;
    if (this.inHand === 0) this.whenIdle?.();
  }

  /** Records every request handled: subject, outcome code, time from receipt to the last reply. */
  recordTo(metrics: AppMetrics): void {
    this.handled = metrics.histogram('hotel_rpc_handled_duration_seconds', 'NATS requests handled, by subject and outcome code (OK or the error code)', ['subject', 'code']);
  }

  protected override getRouteFromPattern(pattern: string): string {
    return pattern.startsWith('{') ? super.getRouteFromPattern(pattern) : pattern;
  }

  override handleMessage(channel: string, message: Msg): Promise<unknown> {
    const requestId = acceptRequestId(message.headers?.get(HEADERS.REQUEST_ID));
    const timeoutMs = Number(message.headers?.get(HEADERS.TIMEOUT_MS));
    const deadline = timeoutMs > 0 ? Date.now() + timeoutMs : undefined;
    // Only a request gets a span: its last reply ends it (an event has none).
    const span = message.reply ? startSpanFromHeaders(this.service, message.subject, message.headers, { kind: SpanKind.SERVER, attributes: natsAttributes(message.subject) }) : undefined;
    this.received.set(message, { at: process.hrtime.bigint(), span });
    this.inHand++;
    const handling = requestContext.run({ requestId, service: this.service, instance: this.instance, deadline }, () =>
      withSpan(span, () => super.handleMessage(channel, message as never).catch((error: unknown) => this.refuseMalformed(message, error))),
    );
    // An event is done when its handler is; a request when its last reply goes out (getPublisher, refuseMalformed): a streamed answer outlives its handler's promise.
    if (!message.reply) void handling.finally(() => this.done());
    return handling;
  }

  /** A message that is not a request packet at all (not JSON): answered as invalid, never left to crash the process. */
  private refuseMalformed(message: Msg, error: unknown) {
    endSpan(this.received.get(message)?.span, error);
    if (message.reply && this.received.delete(message)) this.done();
    this.rpcLogger.warn({ msg: 'malformed message', subject: message.subject, error: error instanceof Error ? error.message : String(error) });
    if (message.reply) {
      const err: RpcErrorPayload = { code: 'VALIDATION_FAILED', message: 'malformed message: not a request packet' };
      message.respond(new TextEncoder().encode(JSON.stringify({ err, isDisposed: true })));
    }
  }

  /**
   * Sends bytes replies raw (see above), and logs each handled message (debug) with its
   * outcome and time when its last reply goes out.
   */
  override getPublisher(message: Msg, id: string, context: NatsContext) {
    const publishPacket = super.getPublisher(message as never, id, context);
    const publish = (packet: { response?: unknown; err?: unknown; isDisposed?: boolean }) => {
      if (!(packet.response instanceof Uint8Array) || !message.reply) return publishPacket(packet);
      const headers = natsHeaders();
      headers.set(HEADERS.RAW_REPLY, packet.isDisposed ? 'last' : 'more');
      message.respond(packet.response, { headers });
    };
    return (packet: { response?: unknown; err?: unknown; isDisposed?: boolean }) => {
      const received = this.received.get(message);
      if (received !== undefined && (packet.isDisposed || packet.err !== undefined)) {
        this.received.delete(message);
        this.done();
        endSpan(received.span, packet.err);
        const ms = Number(process.hrtime.bigint() - received.at) / 1e6;
        this.handled?.observe({ subject: message.subject, code: outcomeCode(packet.err) }, ms / 1000);
        this.rpcLogger.debug({ msg: 'handled', subject: message.subject, outcome: packet.err === undefined ? 'ok' : 'error', ms: Math.round(ms * 100) / 100 });
      }
      return publish(packet);
    };
  }
}
