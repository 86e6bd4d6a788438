import { spawnSync } from 'node:child_process';
import { join, resolve } from 'node:path';

const ROOT = resolve(__dirname, '..');
const SERVICES = ['users', 'accounting', 'promo', 'search', 'rates', 'booking', 'webhooks'];

/** A missing or bad variable stops the built app at start, naming the variable. */
describe('configuration at start', () => {
  const run = (app: string, env: Record<string, string>) =>
    spawnSync(process.execPath, [join(ROOT, 'dist/apps', app, 'src/main.js')], {
      env: { PATH: process.env.PATH ?? '', ...env },
      encoding: 'utf8',
      timeout: 20_000,
    });

  it.each(SERVICES)('%s stops without DATABASE_URL', (service) => {
    const result = run(service, {});
    expect(result.status).toBe(1);
    expect(result.stderr).toContain(`${service}: invalid configuration`);
    expect(result.stderr).toContain('DATABASE_URL');
  });

  it('booking stops with PAYMENT_PROCESSOR=stripe and no Stripe key, naming STRIPE_SECRET_KEY', () => {
    const result = run('booking', { DATABASE_URL: 'postgres://u@127.0.0.1:1/db', PAYMENT_PROCESSOR: 'stripe' });
    expect(result.status).toBe(1);
    expect(result.stderr).toContain('STRIPE_SECRET_KEY (or STRIPE_SECRET_KEY_FILE) is required with PAYMENT_PROCESSOR=stripe');
  });

  it('the gateway stops on a bad PORT and NATS_URL', () => {
    const result = run('gateway', { PORT: 'eighty', NATS_URL: 'http://localhost' });
    expect(result.status).toBe(1);
    expect(result.stderr).toContain('PORT');
    expect(result.stderr).toContain('NATS_URL');
  });

  describe('NODE_ENV=production', () => {
    const production = { NODE_ENV: 'production', DATABASE_URL: 'postgres://u@127.0.0.1:1/db' };

    it.each([
      ['booking', ['VOUCHER_SECRET', 'NATS_NKEY_SEED']],
      ['search', ['RATE_ID_SECRET', 'NATS_NKEY_SEED']],
      ['rates', ['RATE_ID_SECRET', 'NATS_NKEY_SEED']],
      ['users', ['NATS_NKEY_SEED']],
      ['gateway', ['NATS_NKEY_SEED']],
      ['webhooks', ['WEBHOOK_SECRET_KEY', 'NATS_NKEY_SEED']],
    ])('%s refuses to start on development secrets', (app, missing) => {
      const result = run(app, production);
      expect(result.status).toBe(1);
      for (const name of missing) expect(result.stderr).toContain(name);
    });

    it('refuses a secret left at its development value', () => {
      const result = run('booking', { ...production, VOUCHER_SECRET: 'development-voucher-secret-change-me', NATS_NKEY_SEED_FILE: '/run/secrets/booking.nk' });
      expect(result.status).toBe(1);
      expect(result.stderr).toContain('VOUCHER_SECRET: must be set to a secret of your own');
      expect(result.stderr).not.toContain('NATS_NKEY_SEED');
    });

    it.each([
      ['booking', 'VOUCHER_SECRET', 'aaaaaaaaaaaaaaaa', 'shorter than 32 bytes'],
      ['booking', 'VOUCHER_SECRET', 'a'.repeat(48), 'an obvious pattern'],
      ['search', 'RATE_ID_SECRET', '0123456789'.repeat(4), 'an obvious pattern'],
      ['webhooks', 'WEBHOOK_SECRET_KEY', 'abc'.repeat(16), 'an obvious pattern'],
    ])('%s refuses a weak %s (%s)', (app, name, value, why) => {
      const result = run(app, { ...production, [name]: value, NATS_NKEY_SEED_FILE: '/run/secrets/app.nk' });
      expect(result.status).toBe(1);
      expect(result.stderr).toContain(`${name}: too weak for NODE_ENV=production: ${why}`);
    });

    it('webhooks refuses WEBHOOK_ALLOW_PRIVATE_TARGETS=1 (local testing only)', () => {
      const result = run('webhooks', { ...production, WEBHOOK_SECRET_KEY: 'Zq3v9LkX0pR7sT2mW8nB4cY6dF1gH5jK-_aE', NATS_NKEY_SEED_FILE: '/run/secrets/webhooks.nk', WEBHOOK_ALLOW_PRIVATE_TARGETS: '1' });
      expect(result.status).toBe(1);
      expect(result.stderr).toContain('WEBHOOK_ALLOW_PRIVATE_TARGETS=1 is for local testing only: refused with NODE_ENV=production');
      expect(result.stderr).not.toContain('WEBHOOK_SECRET_KEY');
    });
  });

  it('an app started on a development secret outside production warns, naming it', () => {
    // Nothing answers there: the warning comes first, then the app is stopped.
    const result = spawnSync(process.execPath, [join(ROOT, 'dist/apps/booking/src/main.js')], {
      env: { PATH: process.env.PATH ?? '', DATABASE_URL: 'postgres://u@127.0.0.1:1/db', NATS_URL: 'nats://127.0.0.1:1', LOG_LEVEL: 'warn' },
      encoding: 'utf8',
      timeout: 5000,
    });
    const warning = `${result.stdout}${result.stderr}`.split('\n').find((line) => line.includes('running with development secrets'));
    expect(JSON.parse(warning!)).toMatchObject({ level: 'warn', secrets: ['VOUCHER_SECRET'] });
  });
});
