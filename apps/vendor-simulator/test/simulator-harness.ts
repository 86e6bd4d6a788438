import { HotelbedsClient, type AvailabilityRS, type Hotel, type HotelbedsClientOptions, type Rate, type Room } from '@hotel/hotelbeds';
import { createServer, request, type Server } from 'node:http';
import type { AddressInfo } from 'node:net';
import { loadEnv } from '@hotel/platform';
import { TestDatabase, createTestDatabase, queryTestDatabase } from '@hotel/testing';
import { vendorHotelCodes } from '../src/content/content-hotels';
import type { FaultSettings } from '../src/faults/fault-knobs';
import { VENDORS, type VendorCode } from '../src/inventory/simulated-inventory';
import { SimulatorEnv, credentialsOf } from '../src/simulator.env';
import { RunningSimulator, startSimulator } from '../src/start-simulator';

const DAY_MS = 86_400_000;

/** A clock the test moves: the simulator and its clients read the same one. */
export class TestClock {
  constructor(private time: number) {}

  now(): number {
    return this.time;
  }

  advance(ms: number): void {
    this.time += ms;
  }

  /** YYYY-MM-DD, `days` from the clock's day. */
  day(days = 0): string {
    return new Date(this.time + days * DAY_MS).toISOString().slice(0, 10);
  }
}

export interface SimulatorHarness {
  simulator: RunningSimulator;
  database: TestDatabase;
  clock: TestClock;
  env: SimulatorEnv;
  /** A documentation-based client of one vendor, or of the sandbox desk (no retries unless asked, no jitter). */
  client(vendor: VendorCode | 'sandbox', options?: Partial<HotelbedsClientOptions>): HotelbedsClient;
  /**
   * A client whose requests carry `X-Test-Scenario: <scenario>` (the simulator's extension;
   * HotelbedsClient sends no such header, so a loopback proxy adds it).
   */
  scenarioClient(vendor: VendorCode, scenario: string, options?: Partial<HotelbedsClientOptions>): Promise<HotelbedsClient>;
  /** POST /_simulator/faults. */
  setFaults(settings: FaultSettings | Record<string, unknown>): Promise<Response>;
  /** Rows of the simulator's schema. */
  query<T = Record<string, unknown>>(sql: string, params?: unknown[]): Promise<T[]>;
  close(): Promise<void>;
}

/**
 * The simulator on a fresh test database, on a free loopback port, with its vendors
 * answering at once (their own latencies set to 0) and a clock the test moves.
 */
export async function startSimulatorHarness(variables: Record<string, string> = {}, start = Date.UTC(2027, 2, 1, 10, 0, 0)): Promise<SimulatorHarness> {
  const database = await createTestDatabase();
  const clock = new TestClock(start);
  const env = loadEnv(SimulatorEnv, {
    DATABASE_URL: database.url,
    PORT: '0',
    VENDOR_LATENCY_MS: 'atlas=0,borealis=0,cobalt=0',
    LOG_LEVEL: 'fatal',
    ...variables,
  });
  const simulator = await startSimulator(env, { clock });
  const credentials = credentialsOf(env);
  const clients: HotelbedsClient[] = [];
  const proxies: Server[] = [];
  const client = (vendor: VendorCode | 'sandbox', options: Partial<HotelbedsClientOptions> = {}, baseUrl = simulator.url) => {
    const made = new HotelbedsClient({
      baseUrl: `${baseUrl}/${vendor}`,
      ...credentials[vendor],
      clock,
      ...options,
      retry: { maxAttempts: 1, random: () => 0, ...options.retry },
    });
    clients.push(made);
    return made;
  };
  return {
    simulator,
    database,
    clock,
    env,
    client: (vendor, options) => client(vendor, options),
    async scenarioClient(vendor, scenario, options) {
      const proxy = await headerProxy(simulator.url, { 'x-test-scenario': scenario });
      proxies.push(proxy.server);
      return client(vendor, options, proxy.url);
    },
    setFaults: (settings) =>
      fetch(`${simulator.url}/_simulator/faults`, { method: 'POST', headers: { 'content-type': 'application/json' }, body: JSON.stringify(settings) }),
    query: (sql, params = []) => queryTestDatabase(database.url, sql, params),
    async close() {
      for (const made of clients) made.close();
      for (const proxy of proxies) {
        proxy.closeAllConnections();
        await new Promise((resolve) => proxy.close(resolve));
      }
      await simulator?.close();
      await database?.drop();
    },
  };
}

/** A loopback HTTP proxy to `target` that adds `headers` to every request. */
async function headerProxy(target: string, headers: Record<string, string>): Promise<{ server: Server; url: string }> {
  const upstream = new URL(target);
  const server = createServer((incoming, outgoing) => {
    const forwarded = request(
      { host: upstream.hostname, port: upstream.port, method: incoming.method, path: incoming.url, headers: { ...incoming.headers, ...headers } },
      (answer) => {
        outgoing.writeHead(answer.statusCode ?? 502, answer.headers);
        answer.pipe(outgoing);
      },
    );
    forwarded.on('error', () => outgoing.destroy());
    incoming.pipe(forwarded);
  });
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
  return { server, url: `http://127.0.0.1:${(server.address() as AddressInfo).port}` };
}

/** The first `count` hotel codes a vendor carries. */
export function carriedCodes(vendor: VendorCode, count: number): number[] {
  return vendorHotelCodes(VENDORS[vendor]).slice(0, count);
}

export interface FoundRate {
  hotel: Hotel;
  room: Room;
  rate: Rate;
}

/** Every rate of an availability answer, with its hotel and room. */
export function allRates(answer: AvailabilityRS): FoundRate[] {
  return (answer.hotels.hotels ?? []).flatMap((hotel) => (hotel.rooms ?? []).flatMap((room) => (room.rates ?? []).map((rate) => ({ hotel, room, rate }))));
}

/** The first rate of an availability answer that passes `accept`. */
export function firstRate(answer: AvailabilityRS, accept: (found: FoundRate) => boolean = () => true): FoundRate {
  const found = allRates(answer).find(accept);
  if (!found) throw new Error('no rate in the answer passes');
  return found;
}
