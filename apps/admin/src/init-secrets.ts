import { chmodSync, existsSync, mkdirSync, readFileSync, writeFileSync } from 'node:fs';
import { randomBytes } from 'node:crypto';
import { join, relative } from 'node:path';
import { BUS_IDENTITIES, BusIdentity } from '@hotel/contracts';
import { brokerAuthorization, brokerConfig, newBusKeys, publicKeyOf } from '@hotel/platform';

export interface InitSecretsOptions {
  /** host:port the broker listens on. */
  natsListen: string;
  /** JetStream's store, when the broker should run it. */
  jetstreamDir?: string;
}

/** The secrets of the platform, each a file, and the environment variable that names it. */
export const SECRET_FILES = {
  VOUCHER_SECRET: 'voucher-secret',
  RATE_ID_SECRET: 'rate-id-secret',
  WEBHOOK_SECRET_KEY: 'webhook-secret-key',
} as const;

/**
 * The vendor simulator's credentials, one pair per counter (its three vendors and the
 * sandbox desk): the simulator and the services that call it (search, rates) read the same
 * files, VENDOR_<COUNTER>_API_KEY_FILE and VENDOR_<COUNTER>_SECRET_FILE.
 */
export const VENDOR_COUNTERS = ['atlas', 'borealis', 'cobalt', 'sandbox'] as const;
export const vendorCredentialFile = (dir: string, counter: (typeof VENDOR_COUNTERS)[number], kind: 'api-key' | 'secret') => join(dir, 'vendor-simulator', `${counter}-${kind}`);

export const seedFile = (dir: string, identity: BusIdentity) => join(dir, 'nats', `${identity}.nk`);
export const brokerConfigFile = (dir: string) => join(dir, 'nats', 'nats.conf');
/** The authorization block alone, for a broker configured by the NATS Helm chart (deploy/nats). */
export const brokerAuthorizationFile = (dir: string) => join(dir, 'nats', 'auth.conf');

function writeOwnerOnly(file: string, content: string) {
  writeFileSync(file, content, { mode: 0o600 });
  chmodSync(file, 0o600); // an existing file keeps its mode otherwise
}

/**
 * Creates, where missing, every secret the platform needs, one owner-only file
 * each: an NKEY seed per bus identity, the signing secrets, the vendor simulator's
 * credentials; and (always, as it
 * holds only public keys and follows the permissions of this version) the broker's
 * configuration, whole and as its authorization block alone. Existing secrets are kept, so running it again changes nothing
 * that apps already use. Returns what it created.
 */
export function initSecrets(dir: string, options: InitSecretsOptions): string[] {
  const created: string[] = [];
  mkdirSync(join(dir, 'nats'), { recursive: true, mode: 0o700 });
  mkdirSync(join(dir, 'vendor-simulator'), { recursive: true, mode: 0o700 });
  chmodSync(dir, 0o700);
  const fresh = newBusKeys();
  const publicKeys = {} as Record<BusIdentity, string>;
  for (const identity of BUS_IDENTITIES) {
    const file = seedFile(dir, identity);
    if (!existsSync(file)) {
      writeOwnerOnly(file, `${fresh[identity].seed}\n`);
      created.push(`nats/${identity}.nk`);
    }
    publicKeys[identity] = publicKeyOf(readFileSync(file, 'utf8').trim());
  }
  const vendorCredentials = VENDOR_COUNTERS.flatMap((counter) => (['api-key', 'secret'] as const).map((kind) => vendorCredentialFile(dir, counter, kind)));
  for (const file of [...Object.values(SECRET_FILES).map((name) => join(dir, name)), ...vendorCredentials]) {
    if (existsSync(file)) continue;
    writeOwnerOnly(file, `${randomBytes(32).toString('base64url')}\n`);
    created.push(relative(dir, file));
  }
  const [host, port] = splitListen(options.natsListen);
  writeOwnerOnly(brokerConfigFile(dir), brokerConfig({ host, port, storeDir: options.jetstreamDir, publicKeys }));
  writeOwnerOnly(brokerAuthorizationFile(dir), `${brokerAuthorization(publicKeys)}\n`);
  return created;
}

function splitListen(listen: string): [string, number] {
  const match = /^(.+):(\d{1,5})$/.exec(listen);
  if (!match || Number(match[2]) > 65535) throw new Error(`--nats-listen must be host:port, not ${listen}`);
  return [match[1], Number(match[2])];
}
