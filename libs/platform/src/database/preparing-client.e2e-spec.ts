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

  it('a statement naming its columns survives a migration that adds one; `SELECT *` would not', async () => {
    await dataSource.query('CREATE SCHEMA IF NOT EXISTS prepared');
    await dataSource.query('CREATE TABLE prepared.guests (id int PRIMARY KEY, name text)');
    await dataSource.query(`INSERT INTO prepared.guests VALUES (1, 'Ada')`);
    const named = 'SELECT id, name FROM prepared.guests WHERE id = $1';
    const star = 'SELECT * FROM prepared.guests WHERE id = $1';
    expect(await dataSource.query(named, [1])).toEqual([{ id: 1, name: 'Ada' }]);
    expect(await dataSource.query(star, [1])).toEqual([{ id: 1, name: 'Ada' }]);
    // A migration adds a column while this connection holds both statements prepared.
    await dataSource.query('ALTER TABLE prepared.guests ADD COLUMN loyalty_number text');
    expect(await dataSource.query(named, [1])).toEqual([{ id: 1, name: 'Ada' }]);
    await expect(dataSource.query(star, [1])).rejects.toThrow(/cached plan must not change result type/);
  });

  it('no query of the services selects `*` (a column added by a migration would break running replicas)', () => {
    const { readdirSync, readFileSync, statSync } = jest.requireActual<typeof import('node:fs')>('node:fs');
    const { join } = jest.requireActual<typeof import('node:path')>('node:path');
    const root = join(__dirname, '../../../..');
    const offenders: string[] = [];
    const walk = (dir: string) => {
      for (const name of readdirSync(dir)) {
        const path = join(dir, name);
        if (statSync(path).isDirectory()) {
          if (name !== 'migrations' && name !== 'node_modules') walk(path);
        } else if (name.endsWith('.ts') && !name.endsWith('spec.ts') && /SELECT\s+(\w+\.)?\*|[`'"]\*\s*,/i.test(readFileSync(path, 'utf8'))) {
          offenders.push(path.slice(root.length + 1));
        }
      }
    };
    for (const top of ['apps', 'libs']) walk(join(root, top));
    expect(offenders).toEqual([]);
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
