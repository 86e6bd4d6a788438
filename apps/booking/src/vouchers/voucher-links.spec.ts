import { BookingEnv } from '../booking.env';
import { voucherUrl } from './voucher-links';

const env = { PUBLIC_BASE_URL: 'https://hotels.example', VOUCHER_SECRET: 'a'.repeat(32), VOUCHER_TTL_S: 30 * 86400 } as BookingEnv;
const expiresOf = (url: string) => Number(new URL(url).searchParams.get('expires'));

describe('voucherUrl', () => {
  it('works for at least VOUCHER_TTL_S and at most an hour more, the same link all that hour', () => {
    const hour = Date.UTC(2027, 0, 10, 12);
    // Every second after one whole hour up to the next gives the link that expires TTL after the next.
    const links = [1_000, 1_800_000, 3_599_999, 3_600_000].map((ms) => voucherUrl(env, 7, hour + ms));
    expect(new Set(links).size).toBe(1);
    expect(expiresOf(links[0])).toBe(hour / 1000 + 3600 + env.VOUCHER_TTL_S);
    const next = voucherUrl(env, 7, hour + 3_601_000);
    expect(next).not.toBe(links[0]);
    for (const now of [hour + 1, hour + 3_599_999, hour + 3_600_001]) {
      const expires = expiresOf(voucherUrl(env, 7, now));
      expect(expires).toBeGreaterThanOrEqual(now / 1000 + env.VOUCHER_TTL_S);
      expect(expires).toBeLessThanOrEqual(now / 1000 + env.VOUCHER_TTL_S + 3600);
    }
  });

  it('rounds a life shorter than an hour to that life', () => {
    const short = { ...env, VOUCHER_TTL_S: 60 } as BookingEnv;
    const now = Date.UTC(2027, 0, 10, 12, 0, 30);
    const expires = expiresOf(voucherUrl(short, 7, now));
    expect(expires).toBeGreaterThanOrEqual(now / 1000 + 60);
    expect(expires).toBeLessThanOrEqual(now / 1000 + 120);
  });
});
