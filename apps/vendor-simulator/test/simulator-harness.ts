import { HotelbedsClient, type AvailabilityRS, type Hotel, type HotelbedsClientOptions, type Rate, type Room } from '@hotel/hotelbeds';
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
  /** A documentation-based client of one vendor (no retries unless asked, no jitter). */
  client(vendor: VendorCode, options?: Partial<HotelbedsClientOptions>): HotelbedsClient;
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
  return {
    simulator,
    database,
    clock,
    env,
    client(vendor, options = {}) {
      const client = new HotelbedsClient({
        baseUrl: `${simulator.url}/${vendor}`,
        ...credentials[vendor],
        clock,
        ...options,
        retry: { maxAttempts: 1, random: () => 0, ...options.retry },
      });
      clients.push(client);
      return client;
    },
    setFaults: (settings) =>
      fetch(`${simulator.url}/_simulator/faults`, { method: 'POST', headers: { 'content-type': 'application/json' }, body: JSON.stringify(settings) }),
    query: (sql, params = []) => queryTestDatabase(database.url, sql, params),
    async close() {
      for (const client of clients) client.close();
      await simulator?.close();
      await database?.drop();
    },
  };
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

/** The first rate of an availability answer that passes `accept`. */
export function firstRate(answer: AvailabilityRS, accept: (found: FoundRate) => boolean = () => true): FoundRate {
  for (const hotel of answer.hotels.hotels ?? []) {
    for (const room of hotel.rooms ?? []) {
      for (const rate of room.rates ?? []) if (accept({ hotel, room, rate })) return { hotel, room, rate };
    }
  }
  throw new Error('no rate in the answer passes');
}
