import { nkeys } from 'nats';
import { BUS_IDENTITIES, BusIdentity, busPermissions } from '@hotel/contracts';

export interface BusKey {
  /** The secret an app connects with (NATS_NKEY_SEED). */
  seed: string;
  /** What the broker knows of the identity. */
  publicKey: string;
}

/** A new NKEY user for every identity on the bus. */
export function newBusKeys(): Record<BusIdentity, BusKey> {
  return Object.fromEntries(
    BUS_IDENTITIES.map((identity) => {
      const pair = nkeys.createUser();
      return [identity, { seed: new TextDecoder().decode(pair.getSeed()), publicKey: pair.getPublicKey() as string }];
    }),
  ) as Record<BusIdentity, BusKey>;
}

/** The public key of a seed (to check a seed file against the broker's configuration). */
export function publicKeyOf(seed: string): string {
  return nkeys.fromSeed(new TextEncoder().encode(seed)).getPublicKey();
}

export interface BrokerOptions {
  host: string;
  port: number;
  /** JetStream's store; JetStream is on when given. */
  storeDir?: string;
  publicKeys: Record<BusIdentity, string>;
  tls?: { certFile: string; keyFile: string; caFile?: string };
}

/**
 * The `authorization` block alone: every identity, its NKEY and its permissions. A
 * broker configured elsewhere (the NATS Helm chart) includes it as a file.
 */
export function brokerAuthorization(publicKeys: Record<BusIdentity, string>): string {
  const users = BUS_IDENTITIES.map((identity) => {
    const { publish, subscribe, respond } = busPermissions(identity);
    return {
      nkey: publicKeys[identity],
      permissions: {
        publish: { allow: publish.length ? publish : ['_NOTHING_'] },
        subscribe: { allow: subscribe },
        ...(respond && { allow_responses: { max: 10_000, expires: '5m' } }),
      },
    };
  });
  // A client has 10 s to authenticate: a loaded node can take seconds to sign the nonce.
  return `authorization: ${JSON.stringify({ users, timeout: 10 }, null, 2)}`;
}

/**
 * A nats-server configuration in which every identity authenticates with its
 * NKEY and may send and receive only what busPermissions allows it: no anonymous
 * connections, no identity reading another's replies or answering another's
 * subjects. Services may answer the requests they receive, in several messages
 * where a reply is chunked.
 */
export function brokerConfig(options: BrokerOptions): string {
  const lines = [
    `listen: ${JSON.stringify(`${options.host}:${options.port}`)}`,
    brokerAuthorization(options.publicKeys),
  ];
  if (options.storeDir) lines.push(`jetstream: ${JSON.stringify({ store_dir: options.storeDir })}`);
  if (options.tls) {
    lines.push(`tls: ${JSON.stringify({ cert_file: options.tls.certFile, key_file: options.tls.keyFile, ...(options.tls.caFile && { ca_file: options.tls.caFile }), timeout: 2 })}`);
  }
  return `# Generated: the platform's bus identities and their permissions.\n${lines.join('\n')}\n`;
}
