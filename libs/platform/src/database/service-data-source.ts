import { DataSource, DataSourceOptions, MixedList, EntitySchema } from 'typeorm';
import { Client } from 'pg';
import { tracingEnabled } from '../tracing/tracing';
import { PreparingClient } from './preparing-client';
import { tracedClient } from './traced-client';

export interface ServiceDatabaseOptions {
  /** The PostgreSQL schema the service owns; nothing else writes to it. */
  schema: string;
  url: string;
  poolSize: number;
  /** How long a query waits for a free connection of the pool (or a new one to open) before it fails as unavailable. */
  acquireTimeoutMs?: number;
  /** Off: statements go unnamed (see PreparingClient). On unless said otherwise. */
  preparedStatements?: boolean;
  // eslint-disable-next-line @typescript-eslint/no-unsafe-function-type -- TypeORM's own type for entity classes
  entities: MixedList<Function | string | EntitySchema>;
  // eslint-disable-next-line @typescript-eslint/no-unsafe-function-type -- TypeORM's own type for migration classes
  migrations: MixedList<Function | string>;
}

export function serviceDataSourceOptions(options: ServiceDatabaseOptions): DataSourceOptions {
  const base = options.preparedStatements !== false ? PreparingClient : undefined;
  // Chosen once, at start: with tracing off the pool's client is not wrapped at all.
  const client = tracingEnabled() ? tracedClient(base ?? Client, options.schema) : base;
  return {
    type: 'postgres',
    url: options.url,
    schema: options.schema,
    entities: options.entities,
    migrations: options.migrations,
    // The schema changes only through migrations, with the table in the service's schema.
    synchronize: false,
    migrationsRun: false,
    migrationsTableName: 'migrations',
    extra: {
      max: options.poolSize,
      application_name: options.schema,
      // A database that does not answer fails the request (503) instead of queueing it forever.
      connectionTimeoutMillis: options.acquireTimeoutMs ?? 5000,
      keepAlive: true,
      ...(client && { Client: client }),
    },
  };
}

/**
 * Connects, creates the service's schema if needed and runs its pending
 * migrations. Replicas starting together take a PostgreSQL advisory lock so only
 * one of them migrates at a time.
 */
export async function openServiceDataSource(dataSource: DataSource, schema: string): Promise<DataSource> {
  if (!dataSource.isInitialized) await dataSource.initialize();
  const lock = dataSource.createQueryRunner();
  await lock.connect();
  try {
    await lock.query('SELECT pg_advisory_lock(hashtext($1))', [`migrations:${schema}`]);
    await lock.query(`CREATE SCHEMA IF NOT EXISTS "${schema}"`);
    await dataSource.runMigrations({ transaction: 'each' });
  } finally {
    await lock.query('SELECT pg_advisory_unlock(hashtext($1))', [`migrations:${schema}`]).catch(() => undefined);
    await lock.release();
  }
  return dataSource;
}

export async function isDatabaseUp(dataSource: DataSource): Promise<boolean> {
  try {
    await dataSource.query('SELECT 1');
    return true;
  } catch {
    return false;
  }
}

/**
 * The rows of a raw query. TypeORM's PostgreSQL driver answers UPDATE and DELETE
 * with `[rows, affectedCount]` but SELECT and INSERT with the rows alone.
 */
export function rowsOf<T>(result: unknown): T[] {
  if (Array.isArray(result) && result.length === 2 && Array.isArray(result[0]) && typeof result[1] === 'number') {
    return result[0] as T[];
  }
  return result as T[];
}
