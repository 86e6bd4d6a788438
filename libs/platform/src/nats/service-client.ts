import { Logger } from '@nestjs/common';
import { ClientNats, NatsRecordBuilder } from '@nestjs/microservices';
import { EmptyResponseException } from '@nestjs/microservices/errors/empty-response.exception';
import { headers as natsHeaders } from 'nats';
import { Observable, TimeoutError, firstValueFrom, lastValueFrom, timeout, toArray } from 'rxjs';
import { ContractMap, HEADERS, ReplyOf, RequestOf, isRpcErrorPayload } from '@hotel/contracts';
import { DomainError } from '../errors/domain-error';
import { currentRequestId } from '../logging/request-context';
import { natsConnectionOptions } from './nats-options';

export interface SendOptions {
  /** Overrides the default timeout for this call. */
  timeoutMs?: number;
  idempotencyKey?: string;
  /** Defaults to the request id of the current request context. */
  requestId?: string;
}

/**
 * The typed way to call a service over NATS: the subject decides the request and
 * reply types. Every call has a timeout (ClientProxy has none by default) and
 * carries the request id in the NATS headers.
 */
export class ServiceClient {
  private readonly logger = new Logger('ServiceClient');
  private readonly client: ClientNats;
  private connected = false;

  constructor(
    natsUrl: string,
    private readonly defaultTimeoutMs: number,
    name = 'client',
    /** Long-running processes wait for the broker; a command-line tool fails fast instead. */
    waitForBroker = true,
  ) {
    this.client = new ClientNats({ ...natsConnectionOptions(natsUrl), name, waitOnFirstConnect: waitForBroker });
    this.client.status.subscribe((status) => {
      this.connected = status === 'connected';
    });
  }

  async connect(): Promise<void> {
    await this.client.connect();
    this.connected = true;
  }

  isConnected(): boolean {
    return this.connected;
  }

  async close(): Promise<void> {
    this.connected = false;
    await this.client.close();
  }

  async send<S extends keyof ContractMap>(subject: S, request: RequestOf<S>, options: SendOptions = {}): Promise<ReplyOf<S>> {
    try {
      return await firstValueFrom(this.request(subject, request, options));
    } catch (error) {
      throw this.toDomainError(error, subject);
    }
  }

  /** For subjects that answer in several messages (large replies): every message, in order. */
  async sendForAll<S extends keyof ContractMap>(subject: S, request: RequestOf<S>, options: SendOptions = {}): Promise<ReplyOf<S>[]> {
    try {
      return await lastValueFrom(this.request(subject, request, options).pipe(toArray()));
    } catch (error) {
      throw this.toDomainError(error, subject);
    }
  }

  private request<S extends keyof ContractMap>(subject: S, request: RequestOf<S>, options: SendOptions): Observable<ReplyOf<S>> {
    const headers = natsHeaders();
    const requestId = options.requestId ?? currentRequestId();
    if (requestId) headers.set(HEADERS.REQUEST_ID, requestId);
    if (options.idempotencyKey) headers.set(HEADERS.IDEMPOTENCY_KEY, options.idempotencyKey);
    const record = new NatsRecordBuilder(request).setHeaders(headers).build();
    // The timeout bounds the whole exchange, however many messages the answer takes.
    return this.client.send<ReplyOf<S>>(subject, record).pipe(timeout({ first: options.timeoutMs ?? this.defaultTimeoutMs, each: options.timeoutMs ?? this.defaultTimeoutMs }));
  }

  private toDomainError(error: unknown, subject: string): DomainError {
    if (isRpcErrorPayload(error)) return DomainError.fromWire(error);
    const service = subject.split('.')[0];
    if (error instanceof TimeoutError) {
      return new DomainError('SERVICE_UNAVAILABLE', `the ${service} service did not answer in time`, undefined, 1);
    }
    // An empty reply is NATS's "no responders": no replica of the service is subscribed.
    if (error instanceof EmptyResponseException) {
      return new DomainError('SERVICE_UNAVAILABLE', `the ${service} service is not available`, undefined, 1);
    }
    this.logger.error({ msg: 'unexpected reply from service', subject, error: describe(error) });
    return new DomainError('INTERNAL_ERROR', 'internal error');
  }
}

function describe(error: unknown): string {
  if (error instanceof Error) return `${error.name}: ${error.message}`;
  try {
    return JSON.stringify(error);
  } catch {
    return String(error);
  }
}
