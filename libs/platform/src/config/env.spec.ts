import { IsOptional, IsString } from 'class-validator';
import { ConfigError, PlatformEnv, RateIdEnv, Secret, ServiceEnv, loadEnv } from './env';

describe('loadEnv', () => {
  it('applies defaults and converts numbers', () => {
    const env = loadEnv(ServiceEnv, { DATABASE_URL: 'postgres://u@h/db', RPC_TIMEOUT_MS: '2500' });
    expect(env.NATS_URL).toBe('nats://127.0.0.1:4222');
    expect(env.RPC_TIMEOUT_MS).toBe(2500);
    expect(env.DB_POOL_SIZE).toBe(10);
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
