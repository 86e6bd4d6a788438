import { Column, DataSource, Entity, PrimaryColumn } from 'typeorm';
import { TestDatabase, createTestDatabase } from '@hotel/testing';
import { getPage } from './page-query';
import { serviceDataSourceOptions } from './service-data-source';

@Entity({ schema: 'paged', name: 'stays' })
class StayEntity {
  @PrimaryColumn({ type: 'integer' })
  id: number;

  @Column({ name: 'guest_name', type: 'text' })
  guestName: string;

  @Column({ name: 'check_in', type: 'date' })
  checkIn: string;

  @Column({ name: 'price', type: 'numeric', precision: 14, scale: 2 })
  price: string;
}

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

describe('getPage (a real PostgreSQL)', () => {
  let database: TestDatabase;
  let dataSource: DataSource;

  beforeAll(async () => {
    database = await createTestDatabase();
    dataSource = new DataSource(serviceDataSourceOptions({ schema: 'paged', url: database.url, poolSize: 1, entities: [StayEntity], migrations: [] }));
    await dataSource.initialize();
    await dataSource.query('CREATE SCHEMA IF NOT EXISTS paged');
    await dataSource.query('CREATE TABLE paged.stays (id int PRIMARY KEY, guest_name text NOT NULL, check_in date NOT NULL, price numeric(14,2) NOT NULL)');
    await dataSource.query(
      `INSERT INTO paged.stays SELECT i, 'Guest ' || i, date '2027-01-01' + i, i * 10.05 FROM generate_series(1, 23) AS i`,
    );
  });

  afterAll(async () => {
    await dataSource?.destroy();
    await database?.drop();
  });

  const newestFirst = () => dataSource.getRepository(StayEntity).createQueryBuilder('s').where('s.id > :above', { above: 2 }).orderBy('s.id', 'DESC');

  it('maps rows to entities exactly as getMany does, page by page', async () => {
    const first = await getPage(newestFirst(), 5, 0);
    expect(first).toEqual(await newestFirst().take(5).getMany());
    expect(first[0]).toBeInstanceOf(StayEntity);
    expect(first[0]).toEqual({ id: 23, guestName: 'Guest 23', checkIn: '2027-01-24', price: '231.15' });
    const pages = [];
    for (let page = 0; page < 5; page++) pages.push(...(await getPage(newestFirst(), 5, page * 5)));
    expect(pages.map((stay) => stay.id)).toEqual(Array.from({ length: 21 }, (_, index) => 23 - index));
    expect(await getPage(newestFirst(), 5, 100)).toEqual([]);
  });

  it('binds LIMIT and OFFSET as parameters: every page of a query is one prepared statement', async () => {
    for (let page = 0; page < 6; page++) await getPage(newestFirst(), 4, page * 4);
    const prepared: { statement: string }[] = await dataSource.query(`SELECT statement FROM pg_prepared_statements WHERE statement LIKE '%paged%stays%'`);
    // (The getMany of the test above left its own statement, with LIMIT 5 written in.)
    expect(prepared.filter(({ statement }) => /LIMIT \$2 OFFSET \$3$/.test(statement))).toHaveLength(1);
    expect(prepared.filter(({ statement }) => /LIMIT 4/.test(statement))).toEqual([]);
  });

  it('refuses a query with a join (paging one would need two queries)', async () => {
    const joined = newestFirst().leftJoin(StayEntity, 'other', 'other.id = s.id');
    await expect(getPage(joined, 5, 0)).rejects.toThrow(/single-table/);
  });
});
