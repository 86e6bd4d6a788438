import { BlockList, isIP } from 'node:net';
import { ConfigError } from '@hotel/platform';

/** Who may speak for a client on the plain-HTTP listener: the TLS-terminating proxies. */
export class TrustedProxies {
  private constructor(private readonly list: BlockList) {}

  /** From TRUSTED_PROXIES: comma-separated addresses or CIDR ranges; a bad entry stops the start, naming it. */
  static parse(value: string): TrustedProxies {
    const list = new BlockList();
    for (const entry of value.split(',').map((part) => part.trim()).filter(Boolean)) {
      const [address, prefix] = entry.split('/');
      const family = isIP(address);
      const bits = prefix === undefined ? undefined : Number(prefix);
      if (family === 0 || (bits !== undefined && (!Number.isInteger(bits) || bits > (family === 4 ? 32 : 128)))) {
        throw new ConfigError([`TRUSTED_PROXIES: ${entry} is not an IP address or CIDR range`]);
      }
      const type = family === 4 ? 'ipv4' : 'ipv6';
      if (bits === undefined) list.addAddress(address, type);
      else list.addSubnet(address, bits, type);
    }
    return new TrustedProxies(list);
  }

  /** Whether a peer address (as a socket reports it, IPv4-mapped IPv6 included) is a trusted proxy. */
  trusts(peer: string | undefined): boolean {
    if (!peer) return false;
    const mapped = /^::ffff:(\d+\.\d+\.\d+\.\d+)$/i.exec(peer);
    if (mapped) return this.list.check(mapped[1], 'ipv4');
    const family = isIP(peer);
    return family !== 0 && this.list.check(peer, family === 4 ? 'ipv4' : 'ipv6');
  }
}
