import { Logger } from '@nestjs/common';
import { randomUUID } from 'node:crypto';
import {
  AckPolicy,
  DeliverPolicy,
  DiscardPolicy,
  ErrorCode as NatsErrorCode,
  JSONCodec,
  Msg,
  MsgHdrs,
  NatsConnection,
  NatsError,
  RetentionPolicy,
  StorageType,
  connect,
  createInbox,
  nanos,
  headers as natsHeaders,
} from 'nats';
import { ContractMap, EventMap, EventSubject, HEADERS, ReplyOf, RequestOf, inboxPrefixOf, isRpcErrorPayload } from '@hotel/contracts';
import { DomainError } from '../errors/domain-error';
import { SimulatedCrash } from '../testing/fail-points';
import { currentRequestId } from '../logging/request-context';
import { AppMetrics, outcomeCode } from '../metrics/app-metrics';
import { SpanKind, endSpan, injectTraceContext, natsAttributes, startSpanFromHeaders, traced, withSpan } from '../tracing/tracing';
import { BusCredentials, natsConnectionOptions } from './nats-options';
import { KeyValueBucket, KeyValueConfig, NatsKeyValueBucket } from './key-value';

export interface SendOptions {
  /** Overrides the default timeout for this call. */
  timeoutMs?: number;
  /** Defaults to the request id of the current request context. */
  requestId?: string;
}


/** How long one pull of a stream consumer waits for messages before the next (see consumeStream). */
const STREAM_PULL_EXPIRES_MS = 5000;
/** The packets of Nest's NATS transport, which every service's server speaks. */
interface NestRequestPacket {
  pattern: string;
  data: unknown;
  id: string;
}
interface NestReplyPacket {
  id?: string;
  response?: unknown;
  err?: unknown;
  isDisposed?: boolean;
}

const codec = JSONCodec<unknown>();

/** A JetStream stream an identity owns: file storage, limits retention (old messages go after maxAgeMs). */
export interface StreamConfig {
  name: string;
  subjects: string[];
  /** How long the stream remembers a message id to drop a repeat of it. */
  duplicateWindowMs: number;
  maxAgeMs: number;
  /** Copies a clustered broker keeps (1 unless said; at most the cluster's size). */
  replicas?: number;
}

/** The stream's acknowledgement: the message's sequence in the stream; `duplicate` when its id was there already (nothing stored). */
export interface StreamAck {
  seq: number;
  duplicate: boolean;
}

/** A message read from a stream through a consumer. */
export interface StreamMessage {
  subject: string;
  data: Uint8Array;
  /** A header of the message ('' when absent). */
  header(name: string): string;
  /** How many times the consumer has handed it over (1 the first time). */
  deliveryCount: number;
}

/** A durable consumer a service reads a stream through: its replicas share it, each message going to one of them. */
export interface StreamConsumerConfig {
  stream: string;
  name: string;
  /** A message not acknowledged within this time is handed over again (to any replica). */
  ackWaitMs: number;
  /** After a failed handling, how long until the message is handed over again. */
  retryDelayMs: number;
  /** Messages held by this reader at once (each must be handled within ackWaitMs of its arrival); 100 unless said. */
  batch?: number;
}

/** Reading a stream, until stopped. */
export interface StreamReading {
  /** Stops after the message being handled (which is acknowledged or not as its handling ends). */
  stop(): Promise<void>;
}

/** JetStream's "stream name already in use with a different configuration". */
const STREAM_CONFIG_DIFFERS = 10058;

/** An empty message with status 503 is NATS's "no responders". */
function isNoResponders(message: Msg): boolean {
  return message.data.length === 0 && message.headers?.code === 503;
}

/** A connection of its own for one subject's calls (ServiceClient.withLanes). */
interface Lane {
  connection: NatsConnection;
  connected: boolean;
  /** Its calls' reply subjects start with this (a subscription of its own). */
  replyPrefix: string;
}

interface PendingCall {
  subject: string;
  resolve(message: Msg): void;
  reject(error: Error): void;
  timer: NodeJS.Timeout;
}

/**
 * The typed way to call a service over NATS: the subject decides the request and
 * reply types. It speaks the packets of Nest's NATS transport (the services are
 * Nest microservices) over one nats.js connection with a shared reply inbox:
 * Nest's own ClientProxy opens and closes a subscription per request, which
 * costs about two thirds of the throughput. Replies are matched to calls here
 * rather than by nats.js's request(), which builds and throws away an Error (with
 * a stack) for every answered request. Every call has a timeout and carries the
 * request id in the NATS headers, and with tracing on each call is a client span whose
 * trace context (W3C traceparent) travels in them too.
 *
 * Lanes (`withLanes`): calls on a subject whose answers are large go over a connection of
 * their own. On one connection every answer arrives through one TCP stream, in order, so
 * a small answer (another client's list page, a rate-limit lease) would wait behind every
 * large one sent before it: measured, another client's page went from 11 ms to 1.8 s while
 * one client flooded V2 rates, and back to 11 ms with the V2 answers on a lane.
 */
export class ServiceClient {
  private readonly logger = new Logger('ServiceClient');
  private connection?: NatsConnection;
  private connected = false;
  /** Calls waiting for their reply, by the token that ends their reply subject. */
  private readonly pending = new Map<string, PendingCall>();
  private replyPrefix = '';
  private lastToken = 0;
  private readonly reconnectHandlers: (() => void)[] = [];
  private metrics?: AppMetrics;
  /** Subjects whose calls have a connection of their own (see above), and those connections once connected. */
  private laneSubjects: readonly string[] = [];
  private readonly lanes = new Map<string, Lane>();
  private sendCheck?: (subject: string) => void;

  constructor(
    private readonly bus: BusCredentials,
    private readonly defaultTimeoutMs: number,
    /** Long-running processes wait for the broker; a command-line tool fails fast instead. */
    private readonly waitForBroker = true,
  ) {}

  /** Records every request sent (subject, outcome, duration) and whether the connection is up. */
  recordTo(metrics: AppMetrics): this {
    this.metrics = metrics;
    metrics.gauge('hotel_nats_connected', '1 while the app is connected to NATS', (gauge) => gauge.set(this.isConnected() ? 1 : 0));
    return this;
  }

  /** Runs `check` before each call (send, sendForAll, sendForEach): a throw fails the call unsent. */
  checkEachSend(check: (subject: string) => void): this {
    this.sendCheck = check;
    return this;
  }

  /**
   * Calls on these subjects go over a connection each, opened by connect(): for the ones
   * whose answers are large. Before connect().
   */
  withLanes(subjects: readonly (keyof ContractMap)[]): this {
    this.laneSubjects = subjects;
    return this;
  }

  async connect(): Promise<void> {
    if (this.connection) return;
    this.connection = await connect({ ...natsConnectionOptions(this.bus), name: `${this.bus.identity}-client`, waitOnFirstConnect: this.waitForBroker });
    this.replyPrefix = `${createInbox(inboxPrefixOf(this.bus.identity))}.`;
    this.connection.subscribe(`${this.replyPrefix}*`, { callback: (_error, message) => this.settle(message) });
    this.connected = true;
    void this.watch(this.connection);
    for (const subject of this.laneSubjects) {
      const connection = await connect({ ...natsConnectionOptions(this.bus), name: `${this.bus.identity}-lane-${subject}`, waitOnFirstConnect: this.waitForBroker });
      const lane: Lane = { connection, connected: true, replyPrefix: `${createInbox(inboxPrefixOf(this.bus.identity))}.` };
      connection.subscribe(`${lane.replyPrefix}*`, { callback: (_error, message) => this.settle(message) });
      this.lanes.set(subject, lane);
      void (async () => {
        for await (const status of connection.status()) {
          if (status.type === 'disconnect') {
            lane.connected = false;
            this.failPending(subject);
          }
          if (status.type === 'reconnect') lane.connected = true;
        }
      })();
    }
  }

  isConnected(): boolean {
    return this.connected && !!this.connection && !this.connection.isClosed();
  }

  async close(): Promise<void> {
    const connection = this.connection;
    this.connection = undefined;
    this.connected = false;
    const lanes = [...this.lanes.values()];
    this.lanes.clear();
    await Promise.all(lanes.map(({ connection: lane }) => (lane.isClosed() ? undefined : lane.drain())));
    if (connection && !connection.isClosed()) await connection.drain();
    for (const [token, call] of this.pending) {
      this.pending.delete(token);
      clearTimeout(call.timer);
      call.reject(NatsError.errorForCode(NatsErrorCode.ConnectionClosed));
    }
  }

  async send<S extends keyof ContractMap>(subject: S, request: RequestOf<S>, options: SendOptions = {}): Promise<ReplyOf<S>> {
    return this.measured(subject, async () => {
      const lane = this.laneOf(subject);
      const connection = lane?.connection ?? this.requireConnection(subject);
      try {
        const timeoutMs = options.timeoutMs ?? this.defaultTimeoutMs;
        const message = await this.request(connection, subject, this.encode(subject, request), timeoutMs, this.headers(options, timeoutMs), lane?.replyPrefix);
        return this.unwrap(subject, codec.decode(message.data) as NestReplyPacket) as ReplyOf<S>;
      } catch (error) {
        throw this.toDomainError(error, subject);
      }
    });
  }

  private async measured<T>(subject: string, call: () => Promise<T>): Promise<T> {
    this.sendCheck?.(subject);
    const end = this.metrics?.rpcSent.startTimer({ subject });
    try {
      const result = await traced(this.bus.identity, subject, { kind: SpanKind.CLIENT, attributes: natsAttributes(subject) }, call);
      end?.({ code: 'OK' });
      return result;
    } catch (error) {
      end?.({ code: outcomeCode(error) });
      throw error;
    }
  }

  /**
   * Publishes an event (no reply) and waits until the broker has it, so that
   * whatever the caller answers next reaches listeners after the event.
   */
  async publishEvent<E extends EventSubject>(subject: E, event: EventMap[E]): Promise<void> {
    const connection = this.requireConnection(subject);
    connection.publish(subject, codec.encode(event), { headers: this.headers({}, this.defaultTimeoutMs) });
    await connection.flush();
  }

  /**
   * Creates a stream this identity owns when it does not exist yet: every replica
   * does it at start, so it is idempotent. 'differs' when it exists with other
   * settings (kept: publishing works; the caller says so in its log).
   */
  async ensureStream(config: StreamConfig): Promise<'ready' | 'differs'> {
    const connection = this.requireConnection(`$JS.API.STREAM.CREATE.${config.name}`);
    // checkAPI: false: no account-wide $JS.API.INFO, which this identity may not ask.
    const manager = await connection.jetstreamManager({ checkAPI: false, timeout: this.defaultTimeoutMs });
    const wanted = {
      name: config.name,
      subjects: config.subjects,
      storage: StorageType.File,
      retention: RetentionPolicy.Limits,
      discard: DiscardPolicy.Old,
      duplicate_window: nanos(config.duplicateWindowMs),
      max_age: nanos(config.maxAgeMs),
      num_replicas: config.replicas ?? 1,
    };
    try {
      await manager.streams.add(wanted);
      return 'ready';
    } catch (error) {
      // Created before with other settings: it is kept as it is (changing a stream is an
      // operator's act, not a service's: see the stream permissions in the contracts).
      if ((error as NatsError).api_error?.err_code === STREAM_CONFIG_DIFFERS) return 'differs';
      throw error;
    }
  }

  /**
   * Publishes to a stream and waits for its acknowledgement (the message is
   * stored). The stream drops a message whose id it has seen within its duplicate
   * window, so a message sent again after a crash is stored once.
   */
  async publishToStream(subject: string, data: Uint8Array, options: { msgId: string; headers?: Record<string, string>; timeoutMs?: number }): Promise<StreamAck> {
    const connection = this.requireConnection(subject);
    return traced(this.bus.identity, subject, { kind: SpanKind.PRODUCER, attributes: natsAttributes(subject) }, async () => {
      const headers = natsHeaders();
      for (const [name, value] of Object.entries(options.headers ?? {})) headers.set(name, value);
      injectTraceContext(headers);
      const ack = await connection.jetstream({ timeout: options.timeoutMs ?? this.defaultTimeoutMs }).publish(subject, data, {
        msgID: options.msgId,
        headers,
        timeout: options.timeoutMs ?? this.defaultTimeoutMs,
      });
      return { seq: ack.seq, duplicate: ack.duplicate };
    });
  }

  /**
   * Reads a stream through a durable consumer, created when missing (delivering from
   * the stream's first message, explicit acknowledgements). `handle` runs for one
   * message at a time, in the stream's order: the message is acknowledged when it
   * resolves, and handed over again after `retryDelayMs` when it throws: at least
   * once. A SimulatedCrash (crash tests) stops the reading and acknowledges nothing.
   * A missing stream, a lost connection or a deleted consumer is retried every second.
   */
  consumeStream(config: StreamConsumerConfig, handle: (message: StreamMessage) => Promise<void>): StreamReading {
    let stopped = false;
    let current: { stop(): void } | undefined;
    const loop = (async () => {
      let failingSince: number | undefined;
      while (!stopped) {
        try {
          const connection = this.requireConnection(`$JS.API.CONSUMER.CREATE.${config.stream}`);
          const manager = await connection.jetstreamManager({ checkAPI: false, timeout: this.defaultTimeoutMs });
          await manager.consumers
            .add(config.stream, {
              durable_name: config.name,
              ack_policy: AckPolicy.Explicit,
              deliver_policy: DeliverPolicy.All,
              ack_wait: nanos(config.ackWaitMs),
              max_ack_pending: 1000,
            })
            // Made before with other settings (an operator changed it): read it as it is.
            .catch((error: unknown) => manager.consumers.info(config.stream, config.name).catch(() => Promise.reject(error)));
          const consumer = await connection.jetstream({ timeout: this.defaultTimeoutMs }).consumers.get(config.stream, config.name);
          // Each pull lasts 5 s (nats.js's default is 30 s, heartbeats every 15 s): when the
          // consumer's leader is lost with a NATS node, the missed heartbeats show it within
          // seconds and the pull is made again to the new leader, rather than after half a minute.
          const messages = await consumer.consume({ max_messages: config.batch ?? 100, expires: STREAM_PULL_EXPIRES_MS });
          current = messages;
          if (stopped) messages.stop();
          if (failingSince !== undefined) this.logger.log({ msg: 'reading the stream again', stream: config.stream, consumer: config.name });
          failingSince = undefined;
          for await (const message of messages) {
            // The handling continues the trace of whoever published the message.
            const span = startSpanFromHeaders(this.bus.identity, message.subject, message.headers, { kind: SpanKind.CONSUMER, attributes: natsAttributes(message.subject) });
            try {
              await withSpan(span, () =>
                handle({
                  subject: message.subject,
                  data: message.data,
                  header: (name) => message.headers?.get(name) ?? '',
                  deliveryCount: message.info.deliveryCount,
                }),
              );
              endSpan(span);
              message.ack();
            } catch (error) {
              endSpan(span, error);
              if (error instanceof SimulatedCrash) {
                stopped = true;
                messages.stop();
                break;
              }
              message.nak(config.retryDelayMs);
              this.logger.warn({ msg: 'a stream message could not be handled; it is handed over again', stream: config.stream, subject: message.subject, error: error instanceof Error ? error.message : String(error) });
            }
          }
        } catch (error) {
          if (stopped) break;
          if (failingSince === undefined) {
            failingSince = Date.now();
            this.logger.warn({ msg: 'cannot read the stream for now; retrying', stream: config.stream, consumer: config.name, error: error instanceof Error ? error.message : String(error) });
          }
        }
        if (!stopped) await new Promise((resolve) => setTimeout(resolve, 1000));
      }
    })();
    return {
      stop: async () => {
        stopped = true;
        current?.stop();
        await loop;
      },
    };
  }

  /**
   * A key-value bucket this identity owns (bus.ts), over this connection: unreachable
   * (503) while the connection is down, rather than waiting for it.
   */
  keyValue(config: KeyValueConfig): KeyValueBucket {
    return new NatsKeyValueBucket(config, {
      connection: () => this.requireConnection(`$KV.${config.bucket}`),
      // On the shared reply inbox, as every call: half the CPU of nats.js's own KV calls.
      request: (subject, data, headers) => this.request(this.requireConnection(subject), subject, data, config.timeoutMs, headers),
    });
  }

  /** Every replica gets every event (no queue group): each keeps its own caches. */
  onEvent<E extends EventSubject>(subject: E, handler: (event: EventMap[E]) => void): void {
    if (!this.connection) throw new Error('connect() before onEvent()');
    this.connection.subscribe(subject, {
      callback: (_error, message) => {
        try {
          handler(codec.decode(message.data) as EventMap[E]);
        } catch (error) {
          this.logger.error({ msg: 'event handler failed', subject, error: error instanceof Error ? error.message : String(error) });
        }
      },
    });
  }

  /** Called after the connection to the broker came back (events may have been missed meanwhile). */
  onReconnect(handler: () => void): void {
    this.reconnectHandlers.push(handler);
  }

  /**
   * For subjects that answer in several messages (large replies): every message,
   * in order; a message sent as raw bytes (HEADERS.RAW_REPLY) is its Uint8Array.
   */
  async sendForAll<S extends keyof ContractMap>(subject: S, request: RequestOf<S>, options: SendOptions = {}): Promise<ReplyOf<S>[]> {
    const replies: ReplyOf<S>[] = [];
    await this.sendForEach(subject, request, (reply) => replies.push(reply), options);
    return replies;
  }

  /**
   * sendForAll handing each message to `onReply` as it arrives (a large answer can be
   * passed on before its last part is here); resolves once the last has arrived and
   * rejects as sendForAll does, possibly after some replies were handed over. The
   * timeout applies to the wait for each message (a long answer that keeps coming is
   * not cut), and one that stops coming fails.
   */
  async sendForEach<S extends keyof ContractMap>(subject: S, request: RequestOf<S>, onReply: (reply: ReplyOf<S>) => void, options: SendOptions = {}): Promise<void> {
    return this.measured(subject, () => this.receiveEach(subject, request, onReply, options));
  }

  private async receiveEach<S extends keyof ContractMap>(subject: S, request: RequestOf<S>, onReply: (reply: ReplyOf<S>) => void, options: SendOptions): Promise<void> {
    const connection = this.laneOf(subject)?.connection ?? this.requireConnection(subject);
    const timeoutMs = options.timeoutMs ?? this.defaultTimeoutMs;
    const inbox = createInbox(inboxPrefixOf(this.bus.identity));
    // nats.js times out the wait for the first message only: a stalled answer ends the
    // subscription once no message has come for timeoutMs, and the call fails.
    const subscription = connection.subscribe(inbox, { timeout: timeoutMs });
    let stalled: NodeJS.Timeout | undefined;
    let complete = false;
    try {
      connection.publish(subject, this.encode(subject, request), { reply: inbox, headers: this.headers(options, timeoutMs) });
      for await (const message of subscription) {
        clearTimeout(stalled);
        stalled = setTimeout(() => subscription.unsubscribe(), timeoutMs);
        if (isNoResponders(message)) throw NatsError.errorForCode(NatsErrorCode.NoResponders);
        const raw = message.headers?.get(HEADERS.RAW_REPLY);
        if (raw) {
          onReply(message.data as ReplyOf<S>);
          complete = raw === 'last';
          if (complete) break;
          continue;
        }
        const packet = codec.decode(message.data) as NestReplyPacket;
        if (packet.response !== undefined) onReply(packet.response as ReplyOf<S>);
        if (packet.err !== undefined) this.unwrap(subject, packet);
        complete = packet.isDisposed === true;
        if (complete) break;
      }
      if (!complete) throw NatsError.errorForCode(NatsErrorCode.Timeout);
    } catch (error) {
      throw this.toDomainError(error, subject);
    } finally {
      clearTimeout(stalled);
      subscription.unsubscribe();
    }
  }

  private request(connection: NatsConnection, subject: string, data: Uint8Array, timeoutMs: number, headers?: MsgHdrs, replyPrefix = this.replyPrefix): Promise<Msg> {
    const token = String(++this.lastToken);
    return new Promise<Msg>((resolve, reject) => {
      const timer = setTimeout(() => {
        this.pending.delete(token);
        reject(NatsError.errorForCode(NatsErrorCode.Timeout));
      }, timeoutMs);
      this.pending.set(token, { subject, resolve, reject, timer });
      connection.publish(subject, data, { reply: replyPrefix + token, headers });
    });
  }

  private settle(message: Msg) {
    // The token ends the reply subject, whichever connection's prefix it starts with.
    const token = message.subject.slice(message.subject.lastIndexOf('.') + 1);
    const call = this.pending.get(token);
    if (!call) return; // answered after its timeout
    this.pending.delete(token);
    clearTimeout(call.timer);
    if (isNoResponders(message)) call.reject(NatsError.errorForCode(NatsErrorCode.NoResponders));
    else call.resolve(message);
  }

  /** The subject's lane, if it has one; unreachable (503) while that connection is down. */
  private laneOf(subject: string): Lane | undefined {
    const lane = this.lanes.get(subject);
    if (!lane) return undefined;
    if (!lane.connected || lane.connection.isClosed()) {
      throw new DomainError('SERVICE_UNAVAILABLE', `cannot reach the ${subject.split('.')[0]} service: not connected to NATS`, undefined, 1);
    }
    return lane;
  }

  private requireConnection(subject: string): NatsConnection {
    // While reconnecting nats.js would buffer the request and the caller wait out its timeout.
    if (!this.connection || this.connection.isClosed() || !this.connected) {
      throw new DomainError('SERVICE_UNAVAILABLE', `cannot reach the ${subject.split('.')[0]} service: not connected to NATS`, undefined, 1);
    }
    return this.connection;
  }

  private encode(subject: string, data: unknown): Uint8Array {
    return codec.encode({ pattern: subject, data, id: randomUUID() } satisfies NestRequestPacket);
  }

  private headers(options: SendOptions, timeoutMs: number) {
    const headers = natsHeaders();
    const requestId = options.requestId ?? currentRequestId();
    if (requestId) headers.set(HEADERS.REQUEST_ID, requestId);
    headers.set(HEADERS.TIMEOUT_MS, String(timeoutMs));
    injectTraceContext(headers);
    return headers;
  }

  private unwrap(subject: string, packet: NestReplyPacket): unknown {
    if (packet.err !== undefined && packet.err !== null) {
      if (isRpcErrorPayload(packet.err)) throw DomainError.fromWire(packet.err);
      this.logger.error({ msg: 'unexpected error reply from service', subject, error: JSON.stringify(packet.err) });
      throw new DomainError('INTERNAL_ERROR', 'internal error');
    }
    return packet.response;
  }

  private toDomainError(error: unknown, subject: string): DomainError {
    if (error instanceof DomainError) return error;
    const service = subject.split('.')[0];
    if (error instanceof NatsError && error.code === NatsErrorCode.Timeout) {
      return new DomainError('SERVICE_UNAVAILABLE', `the ${service} service did not answer in time`, undefined, 1);
    }
    if (error instanceof NatsError && error.code === NatsErrorCode.NoResponders) {
      return new DomainError('SERVICE_UNAVAILABLE', `the ${service} service is not available`, undefined, 1);
    }
    if (error instanceof NatsError && error.code === NatsErrorCode.Disconnect) {
      return new DomainError('SERVICE_UNAVAILABLE', `the connection to the ${service} service was lost`, undefined, 1);
    }
    this.logger.error({ msg: 'service call failed', subject, error: error instanceof Error ? `${error.name}: ${error.message}` : String(error) });
    return new DomainError('SERVICE_UNAVAILABLE', `the ${service} service could not be reached`, undefined, 1);
  }

  private async watch(connection: NatsConnection) {
    for await (const status of connection.status()) {
      if (status.type === 'disconnect') {
        this.connected = false;
        this.failPending();
      }
      if (status.type === 'reconnect') {
        this.connected = true;
        for (const handler of this.reconnectHandlers) handler();
      }
      if (status.type === 'error' && status.permissionContext?.operation === 'publish') this.refused(status.permissionContext.subject);
    }
  }

  /**
   * The broker refused a publish: this identity may not send on that subject (a
   * configuration error, never the caller's). Calls on it fail now, loudly.
   */
  private refused(subject: string) {
    this.logger.error({ msg: 'the bus refused a message of this identity', identity: this.bus.identity, subject });
    for (const [token, call] of this.pending) {
      if (call.subject !== subject) continue;
      this.pending.delete(token);
      clearTimeout(call.timer);
      call.reject(new DomainError('INTERNAL_ERROR', `${this.bus.identity} may not send ${subject}`));
    }
  }

  /**
   * The broker went away: no reply to a call in flight can arrive on this
   * connection, so its caller learns it now (503) rather than at its timeout.
   */
  private failPending(laneSubject?: string) {
    for (const [token, call] of this.pending) {
      // The main connection's calls, or one lane's.
      if (laneSubject === undefined ? this.lanes.has(call.subject) : call.subject !== laneSubject) continue;
      this.pending.delete(token);
      clearTimeout(call.timer);
      call.reject(NatsError.errorForCode(NatsErrorCode.Disconnect));
    }
  }
}
