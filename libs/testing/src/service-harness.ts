import { DynamicModule, INestApplicationContext, InjectionToken, Module, Provider } from '@nestjs/common';
import { NestFactory } from '@nestjs/core';
import { TypeOrmModule } from '@nestjs/typeorm';
import { DataSource } from 'typeorm';
import { ContractMap, EventMap, EventSubject, ReplyOf, RequestOf, ServiceName } from '@hotel/contracts';
import {
  APP_METRICS,
  AppMetrics,
  BACKGROUND_JOBS,
  BackgroundJobs,
  DomainError,
  JsonLogger,
  SERVICE_CLIENT,
  SERVICE_ENV,
  SERVICE_INSTANCE,
  ServiceClient,
  ServiceDatabaseOptions,
  ServiceEnv,
  StreamAck,
  StreamConfig,
  databasePoolSize,
  loadEnv,
  newInstanceId,
  openServiceDataSource,
  serviceDataSourceOptions,
} from '@hotel/platform';
import { TestDatabase, createTestDatabase } from './test-database';

/** A request subject (events are not calls). */
type Subject = keyof ContractMap;

/** One call the service made, as it would have crossed the bus. */
export interface RecordedCall<S extends Subject = Subject> {
  subject: S;
  request: RequestOf<S>;
  /** What the caller received: the handler's reply, or the error it was answered with. */
  reply?: ReplyOf<S>;
  error?: DomainError;
}

/**
 * Answers one subject as the remote service would. Throw a DomainError for a
 * business answer (INSUFFICIENT_FUNDS, SUPPLIER_ERROR...); any other error reaches
 * the caller as INTERNAL_ERROR, as the remote service's RpcErrorFilter answers it.
 */
export type FakeHandler<S extends Subject> = (request: RequestOf<S>) => ReplyOf<S> | Promise<ReplyOf<S>>;
export type FakeHandlers = { [S in Subject]?: FakeHandler<S> };

/** JSON in, JSON out: what the caller gets is what NATS would carry (no shared objects, no Dates, no undefined). */
function overTheWire<T>(value: T): T {
  return value === undefined ? value : (JSON.parse(JSON.stringify(value)) as T);
}

type PublicServiceClient = Pick<
  ServiceClient,
  'connect' | 'close' | 'isConnected' | 'send' | 'sendForAll' | 'publishEvent' | 'onEvent' | 'onReconnect' | 'ensureStream' | 'publishToStream'
>;

/**
 * A ServiceClient for tests: no NATS. Every call is recorded in order; a subject
 * with a handler gets the handler's answer, one without is answered as NATS answers
 * a subject nobody serves (SERVICE_UNAVAILABLE, "not available"): `off` a subject to
 * take its service down.
 */
export class FakeServiceClient implements PublicServiceClient {
  readonly calls: RecordedCall[] = [];
  /** Events the service published, in order. */
  readonly events: { subject: EventSubject; event: unknown }[] = [];
  /** Streams the service created, by name. */
  readonly streams = new Map<string, StreamConfig>();
  /** Messages the service published to streams and the stream kept, in order (a repeated id is dropped, as JetStream does). */
  readonly streamed: { subject: string; msgId: string; headers: Record<string, string>; data: unknown }[] = [];
  /** While set, a stream publish fails as it does when JetStream cannot be reached. */
  streamDown = false;
  private readonly handlers = new Map<Subject, FakeHandler<Subject>>();
  private readonly listeners = new Map<EventSubject, ((event: unknown) => void)[]>();

  constructor(handlers: FakeHandlers = {}) {
    for (const [subject, handler] of Object.entries(handlers)) this.handlers.set(subject as Subject, handler as FakeHandler<Subject>);
  }

  /** Answers `subject` with `handler` from now on (replacing any earlier one). */
  on<S extends Subject>(subject: S, handler: FakeHandler<S>): this {
    this.handlers.set(subject, handler as unknown as FakeHandler<Subject>);
    return this;
  }

  /** Nobody answers `subject` any more (its service is down). */
  off(subject: Subject): this {
    this.handlers.delete(subject);
    return this;
  }

  /** The subjects called so far, in order. */
  subjects(): Subject[] {
    return this.calls.map((call) => call.subject);
  }

  /** The calls made on one subject, in order. */
  callsTo<S extends Subject>(subject: S): RecordedCall<S>[] {
    return this.calls.filter((call): call is RecordedCall<S> => call.subject === subject);
  }

  /** Forgets the calls and events recorded so far (handlers stay). */
  reset(): void {
    this.calls.length = 0;
    this.events.length = 0;
    this.streamed.length = 0;
  }

  async send<S extends Subject>(subject: S, request: RequestOf<S>): Promise<ReplyOf<S>> {
    const call: RecordedCall<S> = { subject, request: overTheWire(request) };
    this.calls.push(call as unknown as RecordedCall);
    // A reply never arrives in the same tick as the request.
    await Promise.resolve();
    const handler = this.handlers.get(subject) as FakeHandler<S> | undefined;
    try {
      if (!handler) throw new DomainError('SERVICE_UNAVAILABLE', `the ${subject.split('.')[0]} service is not available`, undefined, 1);
      call.reply = overTheWire(await handler(call.request));
      return call.reply;
    } catch (error) {
      call.error = error instanceof DomainError ? DomainError.fromWire(overTheWire(error.toWire())) : new DomainError('INTERNAL_ERROR', 'internal error');
      throw call.error;
    }
  }

  async sendForAll<S extends Subject>(subject: S, request: RequestOf<S>): Promise<ReplyOf<S>[]> {
    return [await this.send(subject, request)];
  }

  async publishEvent<E extends EventSubject>(subject: E, event: EventMap[E]): Promise<void> {
    this.events.push({ subject, event: overTheWire(event) });
    for (const listener of this.listeners.get(subject) ?? []) listener(overTheWire(event));
  }

  async ensureStream(config: StreamConfig): Promise<'ready' | 'differs'> {
    await Promise.resolve();
    if (this.streamDown) throw new Error('JetStream not reachable (fake)');
    this.streams.set(config.name, config);
    return 'ready';
  }

  async publishToStream(subject: string, data: Uint8Array, options: { msgId: string; headers?: Record<string, string> }): Promise<StreamAck> {
    await Promise.resolve();
    if (this.streamDown) throw new Error('JetStream not reachable (fake)');
    const seen = this.streamed.findIndex((message) => message.msgId === options.msgId);
    if (seen >= 0) return { seq: seen + 1, duplicate: true };
    this.streamed.push({ subject, msgId: options.msgId, headers: { ...options.headers }, data: JSON.parse(new TextDecoder().decode(data)) });
    return { seq: this.streamed.length, duplicate: false };
  }

  onEvent<E extends EventSubject>(subject: E, handler: (event: EventMap[E]) => void): void {
    this.listeners.set(subject, [...(this.listeners.get(subject) ?? []), handler as (event: unknown) => void]);
  }

  /** Delivers an event to the service's listeners, as another service publishing it would. */
  emit<E extends EventSubject>(subject: E, event: EventMap[E]): void {
    for (const listener of this.listeners.get(subject) ?? []) listener(overTheWire(event));
  }

  onReconnect(): void {
    // Never disconnected.
  }

  isConnected(): boolean {
    return true;
  }

  async connect(): Promise<void> {}

  async close(): Promise<void> {}
}

export interface ServiceHarnessOptions<E extends ServiceEnv> {
  /** The service: its PostgreSQL schema and the name in its logs. */
  name: ServiceName;
  /**
   * The app module's providers (its services, repositories...; no controllers), or a
   * function of the validated env answering them: `(env) => XAppModule.register(env).providers ?? []`
   * keeps the test in step with what the app registers.
   */
  providers: Provider[] | ((env: E) => Provider[]);
  /** The app module's migrations, in order: they run on a fresh database as at the service's start. */
  migrations: ServiceDatabaseOptions['migrations'];
  entities?: ServiceDatabaseOptions['entities'];
  /** The service's environment class (ServiceEnv by default), validated as its main does. */
  envClass?: new () => E;
  /** Environment variables; DATABASE_URL is the harness's test database. LOG_LEVEL defaults to error. */
  env?: Record<string, string>;
  /** The fake ServiceClient's answers, by subject (more with `client.on`). */
  handlers?: FakeHandlers;
}

export interface ServiceHarness<E extends ServiceEnv = ServiceEnv> {
  app: INestApplicationContext;
  /** The fake SERVICE_CLIENT the service calls other services through. */
  client: FakeServiceClient;
  database: TestDatabase;
  dataSource: DataSource;
  env: E;
  get<T>(token: InjectionToken<T>): T;
  /** Closes the app (its lifecycle hooks run) and drops the database. */
  close(): Promise<void>;
}

@Module({})
class ServiceUnderTestModule {}

/**
 * One service as it runs, minus the bus: its providers with the platform's
 * SERVICE_ENV, SERVICE_INSTANCE, BACKGROUND_JOBS and APP_METRICS, TypeORM on a fresh
 * `hotel_test_*` database with the service's migrations run (as
 * ServicePlatformModule.forService does), and a FakeServiceClient as
 * SERVICE_CLIENT. The app's pieces come in as arguments: this library imports no
 * app code. One per test file (beforeAll), closed in afterAll.
 */
export async function startServiceHarness<E extends ServiceEnv = ServiceEnv>(options: ServiceHarnessOptions<E>): Promise<ServiceHarness<E>> {
  const database = await createTestDatabase();
  try {
    const EnvClass = options.envClass ?? (ServiceEnv as unknown as new () => E);
    const env = loadEnv(EnvClass, { LOG_LEVEL: 'error', DB_POOL_SIZE: '8', ...options.env, DATABASE_URL: database.url });
    const client = new FakeServiceClient(options.handlers);
    const instance = newInstanceId();
    const module: DynamicModule = {
      module: ServiceUnderTestModule,
      imports: [
        TypeOrmModule.forRootAsync({
          useFactory: () => ({
            ...serviceDataSourceOptions({
              schema: options.name,
              url: env.DATABASE_URL,
              poolSize: databasePoolSize(env),
              acquireTimeoutMs: env.DB_ACQUIRE_TIMEOUT_MS,
              preparedStatements: env.DB_PREPARED_STATEMENTS === 'on',
              entities: options.entities ?? [],
              migrations: options.migrations,
            }),
            // A test database that does not answer fails the test now, not after nine retries.
            retryAttempts: 0,
          }),
          dataSourceFactory: async (dataSourceOptions) => openServiceDataSource(new DataSource(dataSourceOptions!), options.name),
        }),
      ],
      providers: [
        { provide: SERVICE_ENV, useValue: env },
        { provide: SERVICE_INSTANCE, useValue: instance },
        { provide: BACKGROUND_JOBS, useValue: new BackgroundJobs(options.name, instance) },
        { provide: SERVICE_CLIENT, useValue: client },
        { provide: APP_METRICS, useValue: new AppMetrics(options.name) },
        ...(typeof options.providers === 'function' ? options.providers(env) : options.providers),
      ],
    };
    // abortOnError: false: a provider that fails to build fails the test, not the process.
    const app = await NestFactory.createApplicationContext(module, { logger: new JsonLogger(options.name, env.LOG_LEVEL), abortOnError: false });
    return {
      app,
      client,
      database,
      dataSource: app.get(DataSource),
      env,
      get: <T>(token: InjectionToken<T>) => app.get<T>(token as never),
      close: async () => {
        try {
          await app.close();
        } finally {
          await database.drop();
        }
      },
    };
  } catch (error) {
    await database.drop().catch(() => undefined);
    throw error;
  }
}

/** The refusal a service's call ends with (a DomainError), or null when it answered; any other error is thrown on. */
export async function refusalOf(call: Promise<unknown>): Promise<DomainError | null> {
  try {
    await call;
    return null;
  } catch (error) {
    if (error instanceof DomainError) return error;
    throw error;
  }
}
