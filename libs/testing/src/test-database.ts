import { randomBytes } from 'node:crypto';
import { Client } from 'pg';

export interface TestDatabase {
  url: string;
  name: string;
  drop(): Promise<void>;
}

/** The server tests create their databases on; never a production one. */
export function testServerUrl(): string {
  return process.env.TEST_DATABASE_URL ?? 'postgres://postgres@127.0.0.1:5432/postgres';
}

export function assertTestDatabaseName(name: string): void {
  if (!/test/i.test(name)) {
    throw new Error(`refusing to run tests against database "${name}": its name must contain "test"`);
  }
}

/** A fresh database per test file, dropped afterwards: tests never share state. */
export async function createTestDatabase(): Promise<TestDatabase> {
  const serverUrl = testServerUrl();
  const name = `hotel_test_${process.pid}_${randomBytes(4).toString('hex')}`;
  assertTestDatabaseName(name);
  const admin = new Client({ connectionString: serverUrl });
  await admin.connect();
  try {
    await admin.query(`CREATE DATABASE "${name}"`);
  } finally {
    await admin.end();
  }
  const url = new URL(serverUrl);
  url.pathname = `/${name}`;
  return {
    url: url.toString(),
    name,
    drop: async () => {
      const client = new Client({ connectionString: serverUrl });
      await client.connect();
      try {
        await client.query(`DROP DATABASE IF EXISTS "${name}" WITH (FORCE)`);
      } finally {
        await client.end();
      }
    },
  };
}

/** Runs one SQL statement against a test database (for arranging expired tokens and the like). */
export async function queryTestDatabase<T = Record<string, unknown>>(url: string, sql: string, params: unknown[] = []): Promise<T[]> {
  assertTestDatabaseName(new URL(url).pathname.slice(1));
  const client = new Client({ connectionString: url });
  await client.connect();
  try {
    return (await client.query(sql, params)).rows as T[];
  } finally {
    await client.end();
  }
}
