import { mkdtempSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { loadEnv } from '@hotel/platform';
import { BookingEnv } from './booking.env';

describe('booking environment: the card processor', () => {
  const base = { DATABASE_URL: 'postgres://u@h/db' };

  it('uses the built-in test processor unless told otherwise', () => {
    expect(loadEnv(BookingEnv, base)).toMatchObject({ PAYMENT_PROCESSOR: 'sandbox', STRIPE_API_BASE_URL: 'https://api.stripe.com' });
  });

  it('refuses PAYMENT_PROCESSOR=stripe without a key, naming the variable', () => {
    expect(() => loadEnv(BookingEnv, { ...base, PAYMENT_PROCESSOR: 'stripe' })).toThrow(/STRIPE_SECRET_KEY \(or STRIPE_SECRET_KEY_FILE\) is required with PAYMENT_PROCESSOR=stripe/);
    expect(() => loadEnv(BookingEnv, { ...base, PAYMENT_PROCESSOR: 'stripe', STRIPE_SECRET_KEY: 'pk_live_123' })).toThrow(/STRIPE_SECRET_KEY must be a Stripe secret key/);
    expect(() => loadEnv(BookingEnv, { ...base, PAYMENT_PROCESSOR: 'paypal' })).toThrow(/PAYMENT_PROCESSOR/);
  });

  it('takes the key from STRIPE_SECRET_KEY_FILE (a mounted secret), in production too', () => {
    const file = join(mkdtempSync(join(tmpdir(), 'stripe-key-')), 'secret-key');
    writeFileSync(file, 'sk_live_51Habc\n');
    const production = { ...base, NODE_ENV: 'production', NATS_URL: 'nats://booking:pw@nats:4222', VOUCHER_SECRET: 'a-voucher-secret-of-our-very-own-making' };
    expect(loadEnv(BookingEnv, { ...production, PAYMENT_PROCESSOR: 'stripe', STRIPE_SECRET_KEY_FILE: file }).STRIPE_SECRET_KEY).toBe('sk_live_51Habc');
    // Production without a processor starts (live card bookings are then refused, with a warning at start).
    expect(loadEnv(BookingEnv, production).STRIPE_SECRET_KEY).toBeUndefined();
  });

  it('takes a base URL without a path (a stand-in for tests)', () => {
    expect(loadEnv(BookingEnv, { ...base, STRIPE_API_BASE_URL: 'http://127.0.0.1:12111' }).STRIPE_API_BASE_URL).toBe('http://127.0.0.1:12111');
    expect(() => loadEnv(BookingEnv, { ...base, STRIPE_API_BASE_URL: 'https://api.stripe.com/v1' })).toThrow(/STRIPE_API_BASE_URL/);
  });
});
