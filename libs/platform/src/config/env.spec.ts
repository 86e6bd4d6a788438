import { ConfigError, PlatformEnv, ServiceEnv, loadEnv } from './env';

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
      loadEnv(PlatformEnv, { NATS_URL: 'http://nope', RPC_TIMEOUT_MS: 'soon', LOG_LEVEL: 'chatty' });
      throw new Error('expected a ConfigError');
    } catch (error) {
      expect(error).toBeInstanceOf(ConfigError);
      const problems = (error as ConfigError).problems.join('\n');
      expect(problems).toMatch(/NATS_URL/);
      expect(problems).toMatch(/RPC_TIMEOUT_MS/);
      expect(problems).toMatch(/LOG_LEVEL/);
    }
  });

  it('treats an empty variable as unset', () => {
    expect(loadEnv(PlatformEnv, { LOG_LEVEL: '' }).LOG_LEVEL).toBe('info');
  });
});
