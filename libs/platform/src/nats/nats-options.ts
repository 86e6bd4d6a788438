import { KeyObject, createHash, createPrivateKey, sign } from 'node:crypto';
import { readFileSync } from 'node:fs';
import { Authenticator, ConnectionOptions, nkeys } from 'nats';
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

/** The DER (PKCS #8, RFC 8410) of an Ed25519 private key up to its 32-byte seed. */
const ED25519_PKCS8_PREFIX = Buffer.from('302e020100300506032b657004220420', 'hex');

/**
 * Per identity (keyed by a hash of its seed, not by the seed itself): its public NKEY
 * and its private key as Node's crypto holds it. An app has a few identities at most.
 */
const nkeySigners = new Map<string, { nkey: string; privateKey: KeyObject }>();

/**
 * The NKEY challenge answer (the public key and the nonce signed with Ed25519), as
 * nats.js's nkeyAuthenticator gives it, signed by Node's crypto: nats.js signs in
 * JavaScript (tweetnacl), which took about 15 ms of CPU per connection in Node (the key
 * derived twice, then the signature; about 90 ms under Jest), and an app opens several
 * connections at every start and reconnection. Native signing takes a few microseconds; the signature is the same
 * (Ed25519 is deterministic).
 */
export function nkeyChallengeAnswer(seed: string): Authenticator {
  const id = createHash('sha256').update(seed).digest('base64');
  let signer = nkeySigners.get(id);
  if (!signer) {
    const pair = nkeys.fromSeed(new TextEncoder().encode(seed));
    const raw = pair.getRawSeed();
    const der = Buffer.alloc(ED25519_PKCS8_PREFIX.length + raw.length);
    ED25519_PKCS8_PREFIX.copy(der);
    der.set(raw, ED25519_PKCS8_PREFIX.length);
    try {
      signer = { nkey: pair.getPublicKey(), privateKey: createPrivateKey({ key: der, format: 'der', type: 'pkcs8' }) };
    } finally {
      // Node's key object holds the key now: no other copy is left to linger.
      der.fill(0);
      raw.fill(0);
      pair.clear();
    }
    nkeySigners.set(id, signer);
  }
  const { nkey, privateKey } = signer;
  return (nonce?: string) => ({ nkey, sig: nonce ? sign(null, Buffer.from(nonce), privateKey).toString('base64') : '' });
}

/** Connection options every NATS connection of the platform uses. */
export function natsConnectionOptions(bus: BusCredentials): ConnectionOptions {
  return {
    servers: bus.url.split(','),
    name: bus.identity,
    // Replies come back under the identity's own prefix, which only it may read.
    inboxPrefix: inboxPrefixOf(bus.identity),
    ...(bus.seed && { authenticator: nkeyChallengeAnswer(bus.seed) }),
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
