import { DataSource } from 'typeorm';
import { TestDatabase, createTestDatabase } from '@hotel/testing';
import { serviceDataSourceOptions } from './service-data-source';

describe('PreparingClient (a real PostgreSQL)', () => {
  let database: TestDatabase;
  let dataSource: DataSource;

  beforeAll(async () => {
    database = await createTestDatabase();
    // One connection, so the statements below all meet the same server session.
    dataSource = new DataSource(serviceDataSourceOptions({ schema: 'prepared', url: database.url, poolSize: 1, entities: [], migrations: [] }));
    await dataSource.initialize();
  });

  afterAll(async () => {
    await dataSource?.destroy();
    await database?.drop();
  });

  it('prepares a statement with parameters once per connection and reuses it', async () => {
    expect(await dataSource.query('SELECT $1::int + 1 AS answer', [41])).toEqual([{ answer: 42 }]);
    expect(await dataSource.query('SELECT $1::int + 1 AS answer', [1])).toEqual([{ answer: 2 }]);
    await dataSource.query('SELECT 1 AS plain');
    const prepared: { name: string; statement: string }[] = await dataSource.query('SELECT name, statement FROM pg_prepared_statements');
    expect(prepared).toEqual([{ name: expect.stringMatching(/^s_/), statement: 'SELECT $1::int + 1 AS answer' }]);
  });

  it('sends statements unnamed when prepared statements are off', async () => {
    const unnamed = new DataSource(serviceDataSourceOptions({ schema: 'unnamed', url: database.url, poolSize: 1, entities: [], migrations: [], preparedStatements: false }));
    await unnamed.initialize();
    try {
      expect(await unnamed.query('SELECT $1::int * 2 AS doubled', [21])).toEqual([{ doubled: 42 }]);
      expect(await unnamed.query('SELECT count(*)::int AS prepared FROM pg_prepared_statements')).toEqual([{ prepared: 0 }]);
    } finally {
      await unnamed.destroy();
    }
  });

  it('keeps transactions and errors as they were', async () => {
    await expect(dataSource.query('SELECT $1::int AS broken', ['not a number'])).rejects.toThrow(/invalid input syntax/);
    const inserted = await dataSource.transaction(async (manager) => {
      await manager.query('CREATE TEMP TABLE notes (id int, body text)');
      await manager.query('INSERT INTO notes VALUES ($1, $2)', [1, 'kept']);
      return manager.query('SELECT body FROM notes WHERE id = $1', [1]);
    });
    expect(inserted).toEqual([{ body: 'kept' }]);
  });
});
