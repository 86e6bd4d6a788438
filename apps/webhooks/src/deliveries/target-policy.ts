import { LookupAddress, lookup as dnsLookup } from 'node:dns';
import { BlockList, isIP } from 'node:net';

/**
 * Where webhooks may go: `https` only, and only to public addresses, so that a
 * partner cannot aim the platform at its own network (loopback, private and
 * link-local ranges, the cloud metadata address, ...): a server-side request forgery
 * guard. The same in every environment, so that a development or staging deployment
 * cannot be used to scan its network either. Only local testing
 * (WEBHOOK_ALLOW_PRIVATE_TARGETS=1, refused with NODE_ENV=production) lets `http` and
 * non-public addresses through, for a receiver on the same machine.
 */
export class TargetPolicy {
  /** What every deployment enforces. */
  static readonly PUBLIC_HTTPS = new TargetPolicy(true, true);
  /** WEBHOOK_ALLOW_PRIVATE_TARGETS=1: local testing only. */
  static readonly LOCAL_TESTING = new TargetPolicy(false, false);

  constructor(
    readonly httpsOnly: boolean,
    readonly publicAddressesOnly: boolean,
  ) {}

  static of(env: { WEBHOOK_ALLOW_PRIVATE_TARGETS: '0' | '1' }): TargetPolicy {
    return env.WEBHOOK_ALLOW_PRIVATE_TARGETS === '1' ? TargetPolicy.LOCAL_TESTING : TargetPolicy.PUBLIC_HTTPS;
  }
}

/** Addresses that are not the public internet (IANA special-purpose registries). */
const NON_PUBLIC = new BlockList();
for (const [network, prefix] of [
  ['0.0.0.0', 8], // "this network"
  ['10.0.0.0', 8], // private
  ['100.64.0.0', 10], // carrier-grade NAT
  ['127.0.0.0', 8], // loopback
  ['169.254.0.0', 16], // link-local, with the cloud metadata address 169.254.169.254
  ['172.16.0.0', 12], // private
  ['192.0.0.0', 24], // IETF protocol assignments
  ['192.0.2.0', 24], // documentation
  ['192.88.99.0', 24], // 6to4 relay
  ['192.168.0.0', 16], // private
  ['198.18.0.0', 15], // benchmarking
  ['198.51.100.0', 24], // documentation
  ['203.0.113.0', 24], // documentation
  ['224.0.0.0', 4], // multicast
  ['240.0.0.0', 4], // reserved, and broadcast
] as const) {
  NON_PUBLIC.addSubnet(network, prefix, 'ipv4');
}
for (const [network, prefix] of [
  ['::', 96], // unspecified, loopback and the deprecated IPv4-compatible addresses (::a.b.c.d)
  ['::ffff:0:0:0', 96], // IPv4-translated addresses (not ::ffff:0:0/96, the IPv4-mapped ones: judged as their IPv4 address)
  ['2002::', 16], // 6to4: an IPv4 address inside, of any kind
  ['64:ff9b:1::', 48], // local-use NAT64
  ['100::', 64], // discard
  ['2001::', 23], // IETF protocol assignments
  ['2001:db8::', 32], // documentation
  ['fc00::', 7], // unique local, with fd00:ec2::254 (a cloud metadata address)
  ['fe80::', 10], // link-local
  ['fec0::', 10], // site-local (deprecated)
  ['ff00::', 8], // multicast
] as const) {
  NON_PUBLIC.addSubnet(network, prefix, 'ipv6');
}

/** Whether an IP address is on the public internet (an IPv4-mapped IPv6 address is judged as its IPv4 address). */
export function isPublicAddress(address: string): boolean {
  const mapped = /^::ffff:(\d+\.\d+\.\d+\.\d+)$/i.exec(address);
  if (mapped) return isPublicAddress(mapped[1]);
  const family = isIP(address);
  if (family === 0) return false;
  // NAT64 (64:ff9b::/96) carries an IPv4 address in its last 32 bits: judged as that address.
  if (family === 6 && /^64:ff9b::/i.test(address)) {
    const words = address.split(':');
    const last = words.slice(-2).map((word) => parseInt(word || '0', 16));
    if (words.length >= 2 && last.every((word) => Number.isFinite(word))) return isPublicAddress(`${last[0] >> 8}.${last[0] & 255}.${last[1] >> 8}.${last[1] & 255}`);
  }
  return !NON_PUBLIC.check(address, family === 4 ? 'ipv4' : 'ipv6');
}

/**
 * Why a URL is not an allowed target, or null when it is (as far as can be told
 * without resolving its name: the guarded lookup checks the addresses at delivery).
 */
export function targetProblem(url: string, policy: TargetPolicy): string | null {
  let parsed: URL;
  try {
    parsed = new URL(url);
  } catch {
    return 'url must be an absolute http or https URL';
  }
  if (parsed.protocol !== 'https:' && (policy.httpsOnly || parsed.protocol !== 'http:')) {
    return policy.httpsOnly ? 'url must be an https URL' : 'url must be an http or https URL';
  }
  if (parsed.username || parsed.password) return 'url must not contain a user name or password';
  if (!parsed.hostname) return 'url must name a host';
  const literal = parsed.hostname.replace(/^\[|\]$/g, '');
  if (policy.publicAddressesOnly && (isIP(literal) !== 0 ? !isPublicAddress(literal) : /^localhost$|\.localhost$/i.test(literal))) {
    return 'url must point to a public address';
  }
  return null;
}

type LookupCallback = (error: NodeJS.ErrnoException | null, address: string | LookupAddress[], family?: number) => void;

/**
 * A `lookup` for the HTTP request that resolves the host and refuses it when any of
 * its addresses is not public: checked when the connection is made, to the very
 * address connected to, so a name that resolved to a public address when the
 * endpoint was registered and to a private one now (DNS rebinding) is still refused.
 */
export function guardedLookup(policy: TargetPolicy) {
  return (hostname: string, options: { all?: boolean; family?: number }, callback: LookupCallback): void => {
    dnsLookup(hostname, { ...options, all: true }, (error, addresses) => {
      // One answer for "no such name" and "not public": the delivery log must not tell a
      // client which internal names exist.
      if (error && policy.publicAddressesOnly) return callback(Object.assign(new Error(`${hostname} does not resolve to a public address`), { code: 'ENOTPUBLIC' }), []);
      if (error) return callback(error, []);
      const list = addresses as LookupAddress[];
      if (policy.publicAddressesOnly && (list.length === 0 || list.some((entry) => !isPublicAddress(entry.address)))) {
        const refused = Object.assign(new Error(`${hostname} does not resolve to a public address`), { code: 'ENOTPUBLIC' });
        return callback(refused, []);
      }
      if (options.all) return callback(null, list);
      callback(null, list[0].address, list[0].family);
    });
  };
}
