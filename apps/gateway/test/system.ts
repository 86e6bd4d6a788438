import { DynamicModule } from '@nestjs/common';
import { mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { Msg, NatsConnection, connect } from 'nats';
import { BusIdentity, SUBJECTS, ServiceName, SERVICE_NAMES } from '@hotel/contracts';
import { RunningService, ServiceClient, ServiceEnv, loadEnv, natsConnectionOptions, startService } from '@hotel/platform';
import { SystemUnderTest, TEST_FX_RATES, TestDatabase, TestNats, TestRequest, TestResponse, bearer, call, createTestDatabase, ecbDailyXml, startTestNats } from '@hotel/testing';
import { AccountingAppModule } from '../../accounting/src/accounting-app.module';
import { runAdmin } from '../../admin/src/admin-cli';
import { BookingAppModule } from '../../booking/src/booking-app.module';
import { BookingEnv } from '../../booking/src/booking.env';
import { PromoAppModule } from '../../promo/src/promo-app.module';
import { RatesAppModule } from '../../rates/src/rates-app.module';
import { RatesEnv } from '../../rates/src/rates.env';
import { SearchAppModule } from '../../search/src/search-app.module';
import { SearchEnv } from '../../search/src/search.env';
import { UsersAppModule } from '../../users/src/users-app.module';
import { UsersEnv } from '../../users/src/users.env';
import { WebhooksAppModule } from '../../webhooks/src/webhooks-app.module';
import { WebhooksEnv } from '../../webhooks/src/webhooks.env';
import { TestSimulator, startTestSimulator } from '../../vendor-simulator/test/test-simulator';
import { GatewayEnv } from '../src/gateway.env';
import { RunningGateway, startGateway } from '../src/start-gateway';
import { undeclaredSendsMet } from '../src/http/route';
import { OpenApiContract } from './openapi-contract';

type Env = Record<string, string>;

/** Each service's root module, built from its own validated environment class, as its main does. */
const SERVICE_FACTORIES: Record<ServiceName, (env: Env) => { module: DynamicModule; env: ServiceEnv }> = {
  users: (env) => withEnv(UsersEnv, env, (e) => UsersAppModule.register(e)),
  search: (env) => withEnv(SearchEnv, env, (e) => SearchAppModule.register(e)),
  rates: (env) => withEnv(RatesEnv, env, (e) => RatesAppModule.register(e)),
  booking: (env) => withEnv(BookingEnv, env, (e) => BookingAppModule.register(e)),
  promo: (env) => withEnv(ServiceEnv, env, (e) => PromoAppModule.register(e)),
  accounting: (env) => withEnv(ServiceEnv, env, (e) => AccountingAppModule.register(e)),
  webhooks: (env) => withEnv(WebhooksEnv, env, (e) => WebhooksAppModule.register(e)),
};

function withEnv<E extends ServiceEnv>(EnvClass: new () => E, env: Env, register: (env: E) => DynamicModule) {
  const serviceEnv = loadEnv(EnvClass, env);
  return { module: register(serviceEnv), env: serviceEnv };
}

export interface AdminResult {
  code: number;
  stdout: string;
  stderr: string;
  json: any;
}

export interface ClientKeys {
  client_id: number;
  api_key: string;
  sandbox_api_key: string;
  backend_token: string;
}

/** Vendors that answer at once, so a search's first answer holds every vendor's rates. */
export const INSTANT_VENDORS: Env = { VENDOR_LATENCY_MS: 'atlas=0,borealis=0,cobalt=0' };

/** A vendor's booking reference as the vendor simulator gives it: `<office>-<number>` (101-1000001; the sandbox desk's office is 900). */
export const VENDOR_REFERENCE = /^\d{3}-\d+$/;

/** The services that call the vendors (at the vendor simulator, VENDOR_SIMULATOR_URL). */
const VENDOR_CALLERS: readonly ServiceName[] = ['search', 'rates'];

/**
 * Each simulated vendor's answer time at the simulator when a test names none: quick,
 * and in a fixed order (the bulk cache latencies the search service once simulated).
 */
const DEFAULT_VENDOR_LATENCY_MS = 'atlas=10,borealis=20,cobalt=40';

export interface SystemWithClient {
  system: TestSystem;
  /** Acme Travel's keys. */
  acme: ClientKeys;
  /** Acme Travel's live API key, as an Authorization header. */
  auth: { authorization: string };
}

/**
 * One step of a test platform's start. A step still going after 15 s is named on standard
 * error every 15 s: a start that hangs (a CI run once met one that outlived its 60 s hook)
 * would otherwise end as a bare hook timeout that says nothing of where it stopped.
 */
async function startStep<T>(name: string, step: () => Promise<T>): Promise<T> {
  const started = Date.now();
  const report = setInterval(() => process.stderr.write(`[test system] ${name}: still going after ${Math.round((Date.now() - started) / 1000)} s\n`), 15_000);
  try {
    return await step();
  } finally {
    clearInterval(report);
  }
}

/**
 * The whole platform for one test file: a private NATS server, a fresh database,
 * every service and the gateway, started in this process through the same code
 * paths their `main` uses.
 */
export class TestSystem implements SystemUnderTest {
  readonly replicas = new Map<ServiceName, RunningService[]>();
  private readonly busClients: ServiceClient[] = [];
  gateway!: RunningGateway;
  /** Gateway replicas started beside the first (startGatewayReplica), on the same bus. */
  readonly gatewayReplicas: RunningGateway[] = [];
  /** The gateways' data directory (their TLS certificate, under tls/). */
  dataDir!: string;
  /** The vendor simulator the search and rates services call (none when a test names its own VENDOR_SIMULATOR_URL). */
  vendors?: TestSimulator;

  private constructor(
    readonly nats: TestNats,
    readonly database: TestDatabase,
    readonly env: Env,
  ) {}

  /**
   * `options.databaseUrl` changes the address the services use (a proxy the test
   * can cut); the test itself keeps `database.url`.
   */
  static async start(
    overrides: Env = {},
    services: readonly ServiceName[] = SERVICE_NAMES,
    options: { databaseUrl?: (url: string) => string; gateway?: boolean } = {},
  ): Promise<TestSystem> {
    const nats = await startStep('starting its NATS server', startTestNats);
    const database = await startStep('creating its database', createTestDatabase);
    const env: Env = {
      NATS_URL: nats.url,
      DATABASE_URL: options.databaseUrl ? options.databaseUrl(database.url) : database.url,
      LOG_LEVEL: 'warn',
      RPC_TIMEOUT_MS: '3000',
      SHUTDOWN_GRACE_MS: '0',
      DB_POOL_SIZE: '4',
      PORT: '0',
      // Probes and metrics on free ports: test files run side by side.
      HEALTH_PORT: '0',
      METRICS_PORT: '0',
      AUTH_CACHE_TTL_MS: '200',
      // Readiness is checked in the background: often here, so a test sees a change soon.
      READY_CHECK_INTERVAL_MS: '200',
      // Every test's requests come from one address: its own limit is tested on its own (slow-clients).
      ADDRESS_RATE_LIMIT_RPS: '100000',
      ADDRESS_RATE_LIMIT_BURST: '100000',
      ...overrides,
    };
    const system = new TestSystem(nats, database, env);
    system.dataDir = mkdtempSync(join(tmpdir(), 'hotel-test-gateway-'));
    try {
      // Side by side, as replicas start in a cluster, but webhooks after booking: booking
      // creates the stream of booking events that webhooks reads.
      const [first, then] = [services.filter((name) => name !== 'webhooks'), services.filter((name) => name === 'webhooks')];
      if (first.some((name) => VENDOR_CALLERS.includes(name))) await startStep('starting the vendor simulator', () => system.startVendors());
      // Every start settled before a failure is thrown, so that close() stops them all.
      const started = await startStep(`starting ${first.join(', ')}`, () => Promise.allSettled(first.map((name) => system.startReplica(name))));
      const failed = started.flatMap((result) => (result.status === 'rejected' ? [result.reason as unknown] : []));
      if (failed.length === 1) throw failed[0];
      if (failed.length > 1) throw new AggregateError(failed, `${failed.length} services did not start`);
      for (const name of then) await startStep(`starting ${name}`, () => system.startReplica(name));
      if (options.gateway !== false) await startStep('starting the gateway', () => system.startGateway());
    } catch (error) {
      await system.close();
      throw error;
    }
    return system;
  }

  /**
   * The vendor simulator, started when a vendor caller first starts: the vendors answer
   * in the test's VENDOR_LATENCY_MS (the simulator's variable), with the credentials and
   * SUPPLIER_PENDING_S the services read; its URL goes into `env`.
   */
  async startVendors(): Promise<void> {
    if (this.vendors || this.env.VENDOR_SIMULATOR_URL) return;
    this.vendors = await startTestSimulator({
      latency: this.env.VENDOR_LATENCY_MS ?? DEFAULT_VENDOR_LATENCY_MS,
      platformVariables: this.env,
    });
    Object.assign(this.env, this.vendors.platformEnv);
  }

  /**
   * The platform with vendors that answer at once (unless `env` says otherwise) and one
   * client, Acme Travel, with `creditLimit` (100000 unless said) to spend: what a test
   * that searches, prebooks and books starts from.
   */
  static async startWithClient(env: Env = {}, options: { creditLimit?: string; databaseUrl?: (url: string) => string } = {}): Promise<SystemWithClient> {
    const system = await TestSystem.start({ ...INSTANT_VENDORS, ...env }, SERVICE_NAMES, { databaseUrl: options.databaseUrl });
    try {
      const acme = await startStep('creating its client', () => system.createClient('Acme Travel', options.creditLimit ?? '100000'));
      return { system, acme, auth: bearer(acme.api_key) };
    } catch (error) {
      await system.close();
      throw error;
    }
  }

  get url(): string {
    return this.gateway.url;
  }

  /** The vendor simulator's database, where the vendors keep their allotments and bookings. */
  get vendorDatabase(): TestDatabase | undefined {
    return this.vendors?.database;
  }

  async startGateway(extra: Env = {}): Promise<RunningGateway> {
    this.gateway = await startGateway(loadEnv(GatewayEnv, { ...this.env, ...this.identityEnv('gateway'), DATA_DIR: this.dataDir, ...extra }));
    return this.gateway;
  }

  /**
   * One more gateway replica on a port of its own, beside `gateway` (which stays the one
   * `request` talks to): same bus, same services, same certificate; closed with the system.
   */
  async startGatewayReplica(extra: Env = {}): Promise<RunningGateway> {
    const replica = await startGateway(loadEnv(GatewayEnv, { ...this.env, ...this.identityEnv('gateway'), DATA_DIR: this.dataDir, ...extra }));
    this.gatewayReplicas.push(replica);
    return replica;
  }

  /**
   * Every vendor answers its booking calls only after `ms` (the simulator's latency fault
   * knob), as a slow vendor does; the answer takes the knob back for later calls (a call
   * already waiting still takes its time, then books).
   */
  async slowVendorBookings(ms: number): Promise<() => Promise<void>> {
    const setFaults = async (knobs: object) => {
      const response = await fetch(`${this.vendors!.simulator.url}/_simulator/faults`, {
        method: 'POST',
        headers: { 'content-type': 'application/json' },
        body: JSON.stringify({ atlas: knobs, borealis: knobs, cobalt: knobs }),
      });
      if (response.status !== 200) throw new Error(`the simulator refused the faults: ${response.status} ${await response.text()}`);
    };
    await setFaults({ latencyMs: ms, operations: ['booking'] });
    return () => setFaults({});
  }

  /** The variables that give an app its own identity on the bus. */
  identityEnv(identity: BusIdentity): Env {
    return { NATS_NKEY_SEED: this.nats.keys[identity].seed };
  }

  /**
   * A stand-in accounting replica taking ledger list requests in the service's queue group
   * (the only taker when the test runs no accounting service): `onList` is told the asking
   * client and decides whether and when to answer (answerNoEntries). The caller closes it.
   */
  async standInLedger(onList: (message: Msg, clientId: number) => void): Promise<NatsConnection> {
    const replica = await connect(natsConnectionOptions(this.nats.bus('accounting')));
    replica.subscribe(SUBJECTS.ACCOUNTING_ENTRY_LIST, {
      queue: 'accounting',
      callback: (_error, message) => onList(message, message.json<{ data: { actor: { clientId: number } } }>().data.actor.clientId),
    });
    await replica.flush();
    return replica;
  }

  /** A bus client speaking as `identity` (closed with the system): for tests that call a service directly. */
  async busClient(identity: BusIdentity): Promise<ServiceClient> {
    const client = new ServiceClient(this.nats.bus(identity), 10_000);
    await client.connect();
    this.busClients.push(client);
    return client;
  }

  /** Starts one more replica of a service (in its queue group). */
  async startReplica(name: ServiceName, extra: Env = {}): Promise<RunningService> {
    if (VENDOR_CALLERS.includes(name)) await this.startVendors();
    const { module, env } = SERVICE_FACTORIES[name]({ ...this.env, ...this.identityEnv(name), ...extra });
    const running = await startService(name, module, env);
    this.replicas.set(name, [...(this.replicas.get(name) ?? []), running]);
    return running;
  }

  /** Stops every replica of a service. */
  async stopService(name: ServiceName): Promise<void> {
    for (const replica of this.replicas.get(name) ?? []) await replica.close();
    this.replicas.delete(name);
  }

  /** Every answer is checked against the OpenAPI document the gateway serves (the contract test): one that differs fails the test. */
  async request<T = any>(method: string, path: string, options?: TestRequest): Promise<TestResponse<T>> {
    const response = await call<T>(this.url, method, path, options);
    OpenApiContract.served().assert(method, path, response);
    return response;
  }

  async admin(...argv: string[]): Promise<AdminResult> {
    const out: string[] = [];
    const err: string[] = [];
    const code = await runAdmin(argv, this.nats.bus('admin'), { out: (line) => out.push(line), err: (line) => err.push(line) });
    const stdout = out.join('\n');
    let json: any;
    try {
      json = JSON.parse(stdout);
    } catch {
      json = undefined;
    }
    return { code, stdout, stderr: err.join('\n'), json };
  }

  /** Imports a day's exchange rates (TEST_FX_RATES, dated today, unless said) with the admin command. */
  async importFxRates(rates: Record<string, string> = TEST_FX_RATES, date = new Date().toISOString().slice(0, 10)): Promise<AdminResult> {
    const file = join(this.dataDir, `eurofxref-${date}.xml`);
    writeFileSync(file, ecbDailyXml(date, rates));
    const imported = await this.admin('import-fx-rates', '--file', file);
    if (imported.code !== 0) throw new Error(`import-fx-rates failed: ${imported.stderr}`);
    return imported;
  }

  async createClient(name = 'Acme Travel', creditLimit = '10000'): Promise<ClientKeys> {
    const result = await this.admin('create-client', '--name', name, '--credit-limit', creditLimit);
    if (result.code !== 0) throw new Error(`create-client failed: ${result.stderr}`);
    return result.json;
  }

  async stopAll(): Promise<void> {
    for (const replica of this.gatewayReplicas.splice(0)) await replica.close();
    await this.gateway?.close();
    for (const name of [...this.replicas.keys()]) await this.stopService(name);
  }

  async close(): Promise<void> {
    for (const client of this.busClients) await client.close();
    await this.stopAll();
    await this.vendors?.close();
    await this.database.drop();
    await this.nats.stop();
    rmSync(this.dataDir, { recursive: true, force: true });
    // A bus call a route does not declare was refused (a 500 outside production), but a
    // helper that does without the answer (a client's name on a document) hides it.
    const undeclared = undeclaredSendsMet();
    if (undeclared.length) throw new Error(`calls the gateway's routes do not declare (ROUTES, sends):\n${undeclared.join('\n')}`);
  }
}

/** A stand-in ledger's answer to a list request: "no entries" (404). */
export function answerNoEntries(message: Msg): void {
  message.respond(JSON.stringify({ id: message.json<{ id: string }>().id, err: { code: 'NOT_FOUND', message: 'no entries here' }, isDisposed: true }));
}
