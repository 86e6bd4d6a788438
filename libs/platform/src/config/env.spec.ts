import { randomBytes } from 'node:crypto';
import { IsOptional, IsString } from 'class-validator';
import { ConfigError, PlatformEnv, RateIdEnv, Secret, ServiceEnv, databasePoolSize, developmentSecrets, loadEnv, secretWeakness } from './env';

describe('loadEnv', () => {
  it('applies defaults and converts numbers', () => {
    const env = loadEnv(ServiceEnv, { DATABASE_URL: 'postgres://u@h/db', RPC_TIMEOUT_MS: '2500' });
    expect(env.NATS_URL).toBe('nats://127.0.0.1:4222');
    expect(env.RPC_TIMEOUT_MS).toBe(2500);
    expect(env.DB_POOL_SIZE).toBeUndefined();
    expect(databasePoolSize(env)).toBe(10);
  });

  it('names a missing required variable', () => {
    expect(() => loadEnv(ServiceEnv, {})).toThrow(ConfigError);
    expect(() => loadEnv(ServiceEnv, {})).toThrow(/DATABASE_URL/);
  });

  it('names every bad variable', () => {
    try {
      loadEnv(PlatformEnv, { NATS_URL: 'http://nope', RPC_TIMEOUT_MS: 'soon', LOG_LEVEL: 'chatty', OTEL_EXPORTER_OTLP_ENDPOINT: 'collector:4318', OTEL_SERVICE_NAME: 'a b' });
      throw new Error('expected a ConfigError');
    } catch (error) {
      expect(error).toBeInstanceOf(ConfigError);
      const problems = (error as ConfigError).problems.join('\n');
      expect(problems).toMatch(/NATS_URL/);
      expect(problems).toMatch(/RPC_TIMEOUT_MS/);
      expect(problems).toMatch(/LOG_LEVEL/);
      expect(problems).toMatch(/OTEL_EXPORTER_OTLP_ENDPOINT/);
      expect(problems).toMatch(/OTEL_SERVICE_NAME/);
    }
  });

  it('takes an OTLP collector address (tracing), off by default', () => {
    expect(loadEnv(PlatformEnv, {}).OTEL_EXPORTER_OTLP_ENDPOINT).toBeUndefined();
    expect(loadEnv(PlatformEnv, { OTEL_EXPORTER_OTLP_ENDPOINT: 'http://otel-collector.monitoring:4318' }).OTEL_EXPORTER_OTLP_ENDPOINT).toBe('http://otel-collector.monitoring:4318');
  });

  it('treats an empty variable as unset', () => {
    expect(loadEnv(PlatformEnv, { LOG_LEVEL: '' }).LOG_LEVEL).toBe('info');
  });
});

describe('secrets', () => {
  const base = { DATABASE_URL: 'postgres://u@h/db' };

  it('keeps development defaults outside production', () => {
    expect(loadEnv(RateIdEnv, base).RATE_ID_SECRET).toMatch(/^development-/);
  });

  it('refuses development secrets and an anonymous bus identity in production', () => {
    expect(() => loadEnv(RateIdEnv, { ...base, NODE_ENV: 'production' })).toThrow(/RATE_ID_SECRET.*NATS_NKEY_SEED/);
    const env = loadEnv(RateIdEnv, { ...base, NODE_ENV: 'production', RATE_ID_SECRET: 'a-real-secret-of-32-characters!!', NATS_URL: 'nats://app:pw@nats:4222' });
    expect(env.RATE_ID_SECRET).toBe('a-real-secret-of-32-characters!!');
  });

  it('reads a secret from <NAME>_FILE, and names a file it cannot read', () => {
    const { mkdtempSync, writeFileSync } = jest.requireActual('node:fs');
    const { join } = jest.requireActual('node:path');
    const { tmpdir } = jest.requireActual('node:os');
    const file = join(mkdtempSync(join(tmpdir(), 'secret-')), 'rate-id');
    writeFileSync(file, 'from-a-mounted-secret-file\n');
    expect(loadEnv(RateIdEnv, { ...base, RATE_ID_SECRET_FILE: file }).RATE_ID_SECRET).toBe('from-a-mounted-secret-file');
    expect(() => loadEnv(RateIdEnv, { ...base, RATE_ID_SECRET_FILE: '/nonexistent/secret' })).toThrow(/RATE_ID_SECRET_FILE: cannot read/);
  });

  it('lets an optional secret stay unset in production, and reads it from <NAME>_FILE like the others', () => {
    class ProcessorEnv extends ServiceEnv {
      @IsOptional()
      @IsString()
      @Secret({ optional: true })
      PROCESSOR_KEY?: string;
    }
    const production = { ...base, NODE_ENV: 'production', NATS_URL: 'nats://app:pw@nats:4222' };
    expect(loadEnv(ProcessorEnv, production).PROCESSOR_KEY).toBeUndefined();
    expect(() => loadEnv(ProcessorEnv, { ...production, PROCESSOR_KEY: 'development-key' })).toThrow(/PROCESSOR_KEY: must be set to a secret of your own/);
    expect(() => loadEnv(ProcessorEnv, { ...base, PROCESSOR_KEY_FILE: '/nonexistent/key' })).toThrow(/PROCESSOR_KEY_FILE: cannot read/);
  });
});

describe('secret strength (NODE_ENV=production)', () => {
  const PATTERN = /an obvious pattern/;

  it.each([
    ['32 random bytes in base64url, as init-secrets makes them', randomBytes(32).toString('base64url')],
    ['32 random bytes in base64 (openssl rand -base64 32)', randomBytes(32).toString('base64')],
    ['16 random bytes in hex (openssl rand -hex 16: 32 characters)', randomBytes(16).toString('hex')],
    ['32 random bytes in hex', randomBytes(32).toString('hex')],
    ['a passphrase of 32 bytes or more', 'correct horse battery staple, and more'],
    ['a sentence of 32 characters', 'a-real-secret-of-32-characters!!'],
  ])('accepts %s', (_what, value) => {
    expect(secretWeakness(value)).toBeNull();
  });

  it('accepts a thousand values of each random form (no false refusals)', () => {
    for (let index = 0; index < 1000; index++) {
      for (const value of [randomBytes(32).toString('base64url'), randomBytes(16).toString('hex'), randomBytes(24).toString('base64')]) expect([value, secretWeakness(value)]).toEqual([value, null]);
    }
  });

  it.each([
    ['a development value', 'development-rate-id-secret-change-me-please', /a development value/],
    ['16 characters (the old minimum)', 'k3Jq9xLmP2vR8tW4', /shorter than 32 bytes/],
    ['31 random bytes of base64 characters', randomBytes(32).toString('base64url').slice(0, 31), /shorter than 32 bytes/],
    ['one character repeated', 'a'.repeat(40), PATTERN],
    ['one character repeated but the last', `${'a'.repeat(39)}b`, PATTERN],
    ['a short unit repeated', 'abc'.repeat(12), PATTERN],
    ['a word repeated', 'password'.repeat(5), PATTERN],
    ['a random unit repeated', 'k3Jq9xLm'.repeat(5), PATTERN],
    ['a random unit repeated with one change', `${'k3Jq9xLm'.repeat(4)}!`, PATTERN],
    ['digits in order', '0123456789'.repeat(4), PATTERN],
    ['the alphabet', 'abcdefghijklmnopqrstuvwxyzABCDEFGHIJ', PATTERN],
    ['the alphabet backwards', 'zyxwvutsrqponmlkjihgfedcba9876543210', PATTERN],
    ['a keyboard walk', 'qwertyuiopasdfghjklzxcvbnm1234567890', PATTERN],
    ['blocks of one character', '11111111222222223333333344444444', PATTERN],
    ['two characters in turn', 'AbAbAbAbAbAbAbAbAbAbAbAbAbAbAbAbAbAb', PATTERN],
    // Every three characters new (a de Bruijn sequence), but of four characters only: 64 bits at most.
    ['four characters, in no pattern', 'kkk3kkQkk%k33k3Qk3%kQ3kQQkQ%k%3k%Qk%', /too few different characters/],
  ])('refuses %s', (_what, value, reason) => {
    expect(secretWeakness(value)).toMatch(reason);
  });

  it('judges a vendor\'s credential by its patterns only: its length is the vendor\'s', () => {
    expect(secretWeakness('sk_live_51Habc', { vendorCredential: true })).toBeNull();
    expect(secretWeakness('q7Xk2PzL9w', { vendorCredential: true })).toBeNull();
    expect(secretWeakness('aaaaaaaaaa', { vendorCredential: true })).toMatch(PATTERN);
    expect(secretWeakness('1234567890', { vendorCredential: true })).toMatch(PATTERN);
    expect(secretWeakness('development-atlas-secret', { vendorCredential: true })).toMatch(/a development value/);
  });

  it('stops a production start on a weak secret, naming it and why, and takes a strong one', () => {
    const production = { DATABASE_URL: 'postgres://u@h/db', NODE_ENV: 'production', NATS_URL: 'nats://app:pw@nats:4222' };
    expect(() => loadEnv(RateIdEnv, { ...production, RATE_ID_SECRET: 'aaaaaaaaaaaaaaaa' })).toThrow(/RATE_ID_SECRET: too weak for NODE_ENV=production: shorter than 32 bytes/);
    expect(() => loadEnv(RateIdEnv, { ...production, RATE_ID_SECRET: 'a'.repeat(64) })).toThrow(/RATE_ID_SECRET: too weak for NODE_ENV=production: an obvious pattern/);
    expect(() => loadEnv(RateIdEnv, { ...production, RATE_ID_SECRET: '0123456789'.repeat(4) })).toThrow(/RATE_ID_SECRET: too weak/);
    const strong = randomBytes(32).toString('base64url');
    expect(loadEnv(RateIdEnv, { ...production, RATE_ID_SECRET: strong }).RATE_ID_SECRET).toBe(strong);
    // Outside production a weak value is the operator's business (tests use short ones).
    expect(loadEnv(RateIdEnv, { DATABASE_URL: 'postgres://u@h/db', RATE_ID_SECRET: 'aaaaaaaaaaaaaaaa' }).RATE_ID_SECRET).toBe('aaaaaaaaaaaaaaaa');
  });

  it('takes a short vendor credential in production, not a pattern; a test tool\'s credential is not checked there', () => {
    class VendorEnv extends ServiceEnv {
      @IsOptional()
      @IsString()
      @Secret({ optional: true, vendorCredential: true })
      VENDOR_SECRET?: string;

      @IsOptional()
      @IsString()
      @Secret({ vendorCredential: true, checkedInProduction: false })
      SIMULATOR_KEY = 'development-simulator-key';
    }
    const production = { DATABASE_URL: 'postgres://u@h/db', NODE_ENV: 'production', NATS_URL: 'nats://app:pw@nats:4222' };
    expect(loadEnv(VendorEnv, { ...production, VENDOR_SECRET: 'q7Xk2PzL9w' }).VENDOR_SECRET).toBe('q7Xk2PzL9w');
    expect(() => loadEnv(VendorEnv, { ...production, VENDOR_SECRET: 'xxxxxxxxxx' })).toThrow(/VENDOR_SECRET: too weak for NODE_ENV=production: an obvious pattern/);
    expect(developmentSecrets(loadEnv(VendorEnv, production))).toEqual(['SIMULATOR_KEY']);
  });

  it('names the secrets left at development values (what a running system should have none of)', () => {
    expect(developmentSecrets(loadEnv(RateIdEnv, { DATABASE_URL: 'postgres://u@h/db' }))).toEqual(['RATE_ID_SECRET']);
    expect(developmentSecrets(loadEnv(RateIdEnv, { DATABASE_URL: 'postgres://u@h/db', RATE_ID_SECRET: randomBytes(32).toString('base64url') }))).toEqual([]);
    expect(developmentSecrets(loadEnv(ServiceEnv, { DATABASE_URL: 'postgres://u@h/db' }))).toEqual([]);
  });
});
