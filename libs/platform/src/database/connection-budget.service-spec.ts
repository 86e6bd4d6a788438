import { DataSource } from 'typeorm';
import { TestDatabase, createTestDatabase } from '@hotel/testing';
import { ConfigError, ServiceEnv, databasePoolSize, loadEnv } from '../config/env';
import { RpcErrorFilter } from '../rpc/rpc-error.filter';
import { serviceDataSourceOptions } from './service-data-source';

// Service tier: a replica's share of its service's connection budget, and what a request
// meets when every connection of its pool is taken (a real PostgreSQL).

describe('the database connection budget', () => {
  const env = (values: Record<string, string>) => loadEnv(ServiceEnv, { DATABASE_URL: 'postgres://x/y', ...values });

  it("gives each replica its share of the service's budget; DB_POOL_SIZE overrides it", () => {
    expect(databasePoolSize(env({}))).toBe(10);
    expect(databasePoolSize(env({ DB_MAX_CONNECTIONS: '20', DB_MAX_REPLICAS: '4' }))).toBe(5);
    expect(databasePoolSize(env({ DB_MAX_CONNECTIONS: '22', DB_MAX_REPLICAS: '4' }))).toBe(5);
    expect(databasePoolSize(env({ DB_MAX_CONNECTIONS: '20', DB_MAX_REPLICAS: '4', DB_POOL_SIZE: '3' }))).toBe(3);
    expect(() => databasePoolSize(env({ DB_MAX_CONNECTIONS: '3', DB_MAX_REPLICAS: '4' }))).toThrow(ConfigError);
  });

  describe('a pool whose every connection is taken', () => {
    let database: TestDatabase;
    let dataSource: DataSource;

    beforeAll(async () => {
      database = await createTestDatabase();
      dataSource = new DataSource(serviceDataSourceOptions({ schema: 'budget', url: database.url, poolSize: 1, acquireTimeoutMs: 200, entities: [], migrations: [] }));
      await dataSource.initialize();
    });
    afterAll(async () => {
      await dataSource?.destroy();
      await database?.drop();
    });

    it('fails a query that waited DB_ACQUIRE_TIMEOUT_MS as unavailable (503 with Retry-After), opening no connection more', async () => {
      const holding = dataSource.query('SELECT pg_sleep(1.5)');
      const error = await dataSource.query('SELECT 1').catch((caught: unknown) => caught);
      expect(error).toBeInstanceOf(Error);
      let wire: unknown;
      new RpcErrorFilter().catch(error, {} as never).subscribe({ error: (payload: unknown) => (wire = payload) });
      expect(wire).toMatchObject({ code: 'SERVICE_UNAVAILABLE', retryAfterSeconds: 1 });
      await holding;
      const [{ connections }] = await dataSource.query(`SELECT count(*)::int AS connections FROM pg_stat_activity WHERE datname = current_database() AND application_name = 'budget'`);
      expect(connections).toBe(1);
    });
  });
});
