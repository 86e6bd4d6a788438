import { loadEnv } from '@hotel/platform';
import { TestDatabase, createTestDatabase } from '@hotel/testing';
import { SimulatorEnv } from '../src/simulator.env';
import { RunningSimulator, startSimulator } from '../src/start-simulator';

/** The variables the platform's services and the simulator both read: the desks' credentials and the sandbox's pending time. */
const SHARED_VARIABLE = /^(VENDOR_(ATLAS|BOREALIS|COBALT|SANDBOX)_(API_KEY|SECRET)(_FILE)?|SUPPLIER_PENDING_S)$/;

export interface TestSimulator {
  simulator: RunningSimulator;
  /** The simulator's own database (its allotments and bookings). */
  database: TestDatabase;
  /** What the search and rates services need to reach it: VENDOR_SIMULATOR_URL. */
  platformEnv: Record<string, string>;
  /** Stops the simulator and drops its database. */
  close(): Promise<void>;
}

/**
 * The vendor simulator for a test that runs platform services: on a fresh test database,
 * on a free loopback port, its vendors answering at once unless `latency` says otherwise
 * (`atlas=…,borealis=…,cobalt=…` in ms). `platformVariables` are the services'
 * variables: the credentials and SUPPLIER_PENDING_S among them are given to the simulator
 * too, so both sides sign and play the sandbox alike.
 */
export async function startTestSimulator(options: { latency?: string; platformVariables?: Record<string, string>; variables?: Record<string, string> } = {}): Promise<TestSimulator> {
  const shared = Object.fromEntries(Object.entries(options.platformVariables ?? {}).filter(([name]) => SHARED_VARIABLE.test(name)));
  const database = await createTestDatabase();
  try {
    const env = loadEnv(SimulatorEnv, {
      ...shared,
      DATABASE_URL: database.url,
      PORT: '0',
      DB_POOL_SIZE: '4',
      VENDOR_LATENCY_MS: options.latency ?? 'atlas=0,borealis=0,cobalt=0',
      LOG_LEVEL: 'fatal',
      ...options.variables,
    });
    const simulator = await startSimulator(env);
    return {
      simulator,
      database,
      platformEnv: { VENDOR_SIMULATOR_URL: simulator.url },
      async close() {
        // Whoever called it has stopped: a request still open is dropped rather than waited for.
        simulator.app.getHttpServer().closeAllConnections();
        await simulator.close();
        await database.drop();
      },
    };
  } catch (error) {
    await database.drop();
    throw error;
  }
}

/**
 * A platform service's service-tier harness with the vendors it calls: `start` is given
 * `env` plus VENDOR_SIMULATOR_URL of a test simulator started for it (none when `env`
 * names one already), and the harness's `close` closes that simulator too.
 */
export async function withTestSimulator<H extends { close(): Promise<void> }>(
  env: Record<string, string>,
  start: (env: Record<string, string>) => Promise<H>,
): Promise<H & { vendors?: TestSimulator }> {
  if (env.VENDOR_SIMULATOR_URL) return start(env);
  const vendors = await startTestSimulator({ platformVariables: env });
  let harness: H;
  try {
    harness = await start({ ...env, ...vendors.platformEnv });
  } catch (error) {
    await vendors.close();
    throw error;
  }
  const closeHarness = harness.close.bind(harness);
  return Object.assign(harness, {
    vendors,
    async close() {
      await closeHarness();
      await vendors.close();
    },
  });
}
