import { Logger } from '@nestjs/common';
import { Msg, MsgHdrs, NatsConnection, StorageType, headers as natsHeaders } from 'nats';
import { DomainError } from '../errors/domain-error';

/** A key's last value and its revision, which a compare-and-set names. */
export interface KeyValueEntry {
  /** null when the key was deleted (its revision is still the one to name). */
  value: Uint8Array | null;
  revision: number;
}

/**
 * A JetStream key-value bucket shared by the replicas of one app, written only by
 * compare-and-set: two replicas that read the same revision cannot both write on it.
 * Every call fails with 503 SERVICE_UNAVAILABLE (retry after a second) when the bucket
 * cannot be reached within its timeout.
 */
export interface KeyValueBucket {
  /** The key's last value, or null when it never had one (or it aged out). */
  get(key: string): Promise<KeyValueEntry | null>;
  /**
   * Writes the key only if its revision is still `revision` (0: only if it has none):
   * its new revision, or null when another writer came first (read it again).
   */
  update(key: string, value: Uint8Array, revision: number): Promise<number | null>;
}

export interface KeyValueConfig {
  /** The bucket's name (subjects.ts KV_BUCKETS); the bus must let this identity use it (bus.ts). */
  bucket: string;
  /** Memory for state that may be lost with the broker (it is rebuilt); file otherwise. */
  storage: 'memory' | 'file';
  /** Copies kept by a clustered broker (1 on a single server). */
  replicas: number;
  /** A key not written for this long goes. */
  maxAgeMs: number;
  /** Wait for each answer of the broker. */
  timeoutMs: number;
}

/** How the bucket reaches the broker: the connection (to create the bucket), and a request on the shared reply inbox. */
export interface KeyValueTransport {
  connection(): NatsConnection;
  request(subject: string, data: Uint8Array, headers?: MsgHdrs): Promise<Msg>;
}

/** JetStream's "wrong last sequence": the key's revision is no longer the one named. */
const WRONG_LAST_SEQUENCE = 10071;
const EMPTY = new Uint8Array(0);
const decoder = new TextDecoder();

/**
 * The bucket over the app's connection. It is created (or found: an existing one is used
 * as it is) at the first call, and again at the next call after a failure. Reads are
 * JetStream direct gets of a key's last message and writes are publishes that name the
 * key's last sequence (JetStream's KV protocol), both sent as plain requests on the
 * connection's shared reply inbox: nats.js's KV client costs twice the CPU per call.
 */
export class NatsKeyValueBucket implements KeyValueBucket {
  private readonly logger = new Logger('KeyValueBucket');
  private opening?: Promise<void>;
  private readonly stream: string;
  private readonly prefix: string;

  constructor(
    private readonly config: KeyValueConfig,
    private readonly transport: KeyValueTransport,
  ) {
    this.stream = `KV_${config.bucket}`;
    this.prefix = `$KV.${config.bucket}.`;
  }

  async get(key: string): Promise<KeyValueEntry | null> {
    await this.open();
    const message = await this.call(`$JS.API.DIRECT.GET.${this.stream}.${this.prefix}${key}`, EMPTY);
    const status = message.headers?.code ?? 0;
    if (status === 404) return null;
    const revision = Number(message.headers?.get('Nats-Sequence'));
    if (status >= 400 || !Number.isSafeInteger(revision)) throw this.unavailable(`direct get answered ${status} ${message.headers?.description ?? ''}`.trim());
    const operation = message.headers?.get('KV-Operation') ?? '';
    return { value: operation === 'DEL' || operation === 'PURGE' ? null : message.data, revision };
  }

  async update(key: string, value: Uint8Array, revision: number): Promise<number | null> {
    await this.open();
    const headers = natsHeaders();
    // 0 is "only if the key has no value": a create that two writers cannot both win.
    headers.set('Nats-Expected-Last-Subject-Sequence', String(revision));
    const message = await this.call(`${this.prefix}${key}`, value, headers);
    let ack: { seq?: number; error?: { err_code?: number; description?: string } };
    try {
      ack = JSON.parse(decoder.decode(message.data));
    } catch {
      throw this.unavailable('the write was answered with something other than an acknowledgement');
    }
    if (ack.error?.err_code === WRONG_LAST_SEQUENCE) return null;
    if (ack.error || !Number.isSafeInteger(ack.seq)) throw this.unavailable(ack.error?.description ?? 'the write was not acknowledged');
    return ack.seq!;
  }

  private async call(subject: string, data: Uint8Array, headers?: MsgHdrs): Promise<Msg> {
    try {
      return await this.transport.request(subject, data, headers);
    } catch (error) {
      // The bucket may be gone (deleted, or in memory on a broker that restarted): the next call makes it again.
      this.opening = undefined;
      throw this.unavailable(error instanceof Error ? error.message : String(error));
    }
  }

  private open(): Promise<void> {
    if (!this.opening) {
      const opening = this.create();
      this.opening = opening;
      opening.catch((error: unknown) => {
        if (this.opening === opening) this.opening = undefined;
        this.logger.warn({ msg: 'cannot open the key-value bucket; trying again at the next call', bucket: this.config.bucket, error: error instanceof Error ? error.message : String(error) });
      });
    }
    return this.opening.catch((error: unknown) => Promise.reject(this.unavailable(error instanceof Error ? error.message : String(error))));
  }

  /** The bucket's stream, made by nats.js as its KV client makes it (created only when missing), with direct gets allowed. */
  private async create(): Promise<void> {
    const { bucket, storage, replicas, maxAgeMs, timeoutMs } = this.config;
    // checkAPI: false: no account-wide $JS.API.INFO, which no identity may ask.
    const js = this.transport.connection().jetstream({ checkAPI: false, timeout: timeoutMs });
    const kv = await js.views.kv(bucket, { history: 1, storage: storage === 'memory' ? StorageType.Memory : StorageType.File, replicas, ttl: maxAgeMs, timeout: timeoutMs, allow_direct: true });
    const { streamInfo } = await kv.status();
    if (!streamInfo.config.allow_direct) throw new Error(`the stream ${this.stream} exists without allow_direct: recreate it (its state is rebuilt)`);
  }

  private unavailable(reason: string): DomainError {
    return new DomainError('SERVICE_UNAVAILABLE', `the ${this.config.bucket} bucket cannot be reached: ${reason}`, undefined, 1);
  }
}
