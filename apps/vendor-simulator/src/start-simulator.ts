import { NestFactory } from '@nestjs/core';
import { FastifyAdapter, NestFastifyApplication } from '@nestjs/platform-fastify';
import type { AddressInfo } from 'node:net';
import { JsonLogger } from '@hotel/platform';
import { SYSTEM_CLOCK, type SimulatorClock } from './clock';
import { FaultBoard } from './faults/fault-knobs';
import { installVendorWire } from './http/vendor-wire';
import { SimulatorAppModule } from './simulator-app.module';
import { SimulatorEnv, credentialsOf, faultsOf, vendorLatenciesOf } from './simulator.env';
import { configureHotelCodes } from './inventory/vendor-codes';

/** Request bodies above this are refused (a 2000-hotel availability request is about 20 KB). */
const BODY_LIMIT_BYTES = 1024 * 1024;

export interface RunningSimulator {
  app: NestFastifyApplication;
  /** http://host:port; each vendor's base URL is this plus `/<vendor>`. */
  url: string;
  faults: FaultBoard;
  close(): Promise<void>;
}

export interface SimulatorOptions {
  /** The simulator's time (a test's, to move between price steps). */
  clock?: SimulatorClock;
}

/**
 * Starts the simulated vendors on one HTTP listener: each vendor's Hotel Booking API and
 * Hotel Content API under its own prefix, the admin route and the health probes.
 */
export async function startSimulator(env: SimulatorEnv, options: SimulatorOptions = {}): Promise<RunningSimulator> {
  const clock = options.clock ?? SYSTEM_CLOCK;
  configureHotelCodes({ offset: env.SIMULATOR_HOTEL_CODE_OFFSET, vendorOnlyHotels: env.SIMULATOR_VENDOR_ONLY_HOTELS === 'true' });
  const faults = new FaultBoard(faultsOf(env), vendorLatenciesOf(env));
  const logger = new JsonLogger('vendor-simulator', env.LOG_LEVEL);
  const adapter = new FastifyAdapter({ bodyLimit: BODY_LIMIT_BYTES });
  // The body parser is the simulator's own (JSON only, read after the credentials are checked).
  const app = await NestFactory.create<NestFastifyApplication>(SimulatorAppModule.register(env, clock, faults), adapter, { logger, bodyParser: false });
  installVendorWire(app.getHttpAdapter().getInstance(), {
    credentials: credentialsOf(env),
    clock,
    faults,
    signatureSkewSeconds: env.SIGNATURE_SKEW_S,
    bodyLimitBytes: BODY_LIMIT_BYTES,
  });
  await app.listen(env.PORT, env.HOST);
  const address = app.getHttpServer().address() as AddressInfo;
  const host = address.family === 'IPv6' ? `[${address.address}]` : address.address;
  return { app, url: `http://${host}:${address.port}`, faults, close: () => app.close() };
}
