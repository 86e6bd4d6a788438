import { ConfigError } from '@hotel/platform';
import { TrustedProxies } from './trusted-proxies';

describe('TrustedProxies', () => {
  it('trusts the listed addresses and ranges only, IPv4-mapped peers included', () => {
    const proxies = TrustedProxies.parse('10.0.0.0/8, 192.168.1.7 ,::1/128,fd00::/8');
    expect(proxies.trusts('10.20.30.40')).toBe(true);
    expect(proxies.trusts('::ffff:10.1.2.3')).toBe(true);
    expect(proxies.trusts('192.168.1.7')).toBe(true);
    expect(proxies.trusts('192.168.1.8')).toBe(false);
    expect(proxies.trusts('::1')).toBe(true);
    expect(proxies.trusts('fd12:3456::1')).toBe(true);
    expect(proxies.trusts('11.0.0.1')).toBe(false);
    expect(proxies.trusts('2001:db8::1')).toBe(false);
    expect(proxies.trusts(undefined)).toBe(false);
    expect(proxies.trusts('not-an-address')).toBe(false);
  });

  it('trusts nobody when the list is empty', () => {
    expect(TrustedProxies.parse('').trusts('127.0.0.1')).toBe(false);
  });

  it.each(['10.0.0.0/33', 'fd00::/129', '999.1.1.1', '10.0.0.0/x', 'localhost'])('refuses %s, naming the variable', (value) => {
    expect(() => TrustedProxies.parse(value)).toThrow(ConfigError);
    expect(() => TrustedProxies.parse(value)).toThrow(/TRUSTED_PROXIES/);
  });
});
