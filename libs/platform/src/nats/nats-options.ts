import { readFileSync } from 'node:fs';
import { ConnectionOptions, nkeyAuthenticator } from 'nats';
import { BusIdentity, inboxPrefixOf } from '@hotel/contracts';
import { PlatformEnv } from '../config/env';
import { PlatformNatsServer } from './platform-nats-server';

/** How one app reaches the bus: the broker, the app's identity and its credentials. */
export interface BusCredentials {
  url: string;
  identity: BusIdentity;
  /** The identity's NKEY seed; without one the connection is anonymous (development brokers only). */
  seed?: string;
  tls?: { caFile?: string; certFile?: string; keyFile?: string };
}

/** An app's bus credentials from its environment (NATS_URL, NATS_NKEY_SEED[_FILE], NATS_TLS_*). */
export function busCredentials(env: PlatformEnv, identity: BusIdentity): BusCredentials {
  const seed = env.NATS_NKEY_SEED ?? (env.NATS_NKEY_SEED_FILE ? readFileSync(env.NATS_NKEY_SEED_FILE, 'utf8').trim() : undefined);
  const tls = env.NATS_TLS_CA_FILE || env.NATS_TLS_CERT_FILE ? { caFile: env.NATS_TLS_CA_FILE, certFile: env.NATS_TLS_CERT_FILE, keyFile: env.NATS_TLS_KEY_FILE } : undefined;
  return { url: env.NATS_URL, identity, seed, tls };
}

/** Connection options every NATS connection of the platform uses. */
export function natsConnectionOptions(bus: BusCredentials): ConnectionOptions {
  return {
    servers: bus.url.split(','),
    name: bus.identity,
    // Replies come back under the identity's own prefix, which only it may read.
    inboxPrefix: inboxPrefixOf(bus.identity),
    ...(bus.seed && { authenticator: nkeyAuthenticator(new TextEncoder().encode(bus.seed)) }),
    ...(bus.tls && { tls: bus.tls }),
    // Keep trying when the broker is not up yet or goes away; never give up.
    waitOnFirstConnect: true,
    maxReconnectAttempts: -1,
    reconnectTimeWait: 500,
    // nats.js otherwise builds an Error (with a stack) for every request up front,
    // a measurable share of the gateway's CPU.
    noAsyncTraces: true,
  };
}

/**
 * A service's NATS server: subscribed in the queue group named after the service,
 * so each message reaches exactly one replica (without it every replica would
 * handle every request, e.g. a double debit).
 */
export function natsServer(service: BusIdentity, bus: BusCredentials, gracePeriodMs: number): PlatformNatsServer {
  // The graceful close is PlatformNatsServer's own (it waits for the requests in hand, not the whole period): Nest's is off.
  return new PlatformNatsServer({ ...natsConnectionOptions(bus), queue: service, gracefulShutdown: false }, service, gracePeriodMs);
}
