import { bearer } from '@hotel/testing';
import { TestSystem } from './system';

/** The operators' command line: one JSON object on stdout, usage and non-zero exit on bad input. */
describe('admin command line', () => {
  let system: TestSystem;

  beforeAll(async () => {
    system = await TestSystem.start({}, ['users']);
  });
  afterAll(async () => {
    await system?.close();
  });

  it('create-client prints exactly the documented JSON object, and the key authenticates', async () => {
    const result = await system.admin('create-client', '--name', 'Acme Travel', '--credit-limit', '10000', '--currency', 'EUR');
    expect(result.code).toBe(0);
    expect(result.stdout.split('\n')).toHaveLength(1);
    expect(Object.keys(result.json).sort()).toEqual(['api_key', 'backend_token', 'client_id', 'sandbox_api_key']);
    expect(result.json.api_key).toMatch(/^hb_live_[\w-]{43}$/);
    expect(result.json.sandbox_api_key).toMatch(/^hb_test_[\w-]{43}$/);
    expect(result.json.backend_token).toMatch(/^hb_back_[\w-]{43}$/);
    const me = await system.request('GET', '/me', { headers: bearer(result.json.api_key) });
    expect(me.status).toBe(200);
    expect(me.body.data.client_id).toBe(result.json.client_id);
  });

  it('stores secrets only as hashes', async () => {
    const created = await system.admin('create-client', '--name', 'Hashed Ltd');
    const { queryTestDatabase } = await import('@hotel/testing');
    const rows = await queryTestDatabase<{ secret_hash: string }>(
      system.database.url,
      'SELECT secret_hash FROM users.credentials WHERE client_id = $1',
      [created.json.client_id],
    );
    expect(rows).toHaveLength(3);
    const stored = JSON.stringify(rows);
    for (const secret of [created.json.api_key, created.json.sandbox_api_key, created.json.backend_token]) {
      expect(stored).not.toContain(secret);
    }
  });

  it('list-clients shows clients with their limits and active credentials', async () => {
    const created = await system.admin('create-client', '--name', 'Listed Co', '--credit-limit', '2500.50');
    const listed = await system.admin('list-clients');
    expect(listed.code).toBe(0);
    expect(listed.json.clients).toEqual(
      expect.arrayContaining([
        {
          client_id: created.json.client_id,
          name: 'Listed Co',
          credit_limit: '2500.50',
          currency: 'USD',
          created_at: expect.any(String),
          active_credentials: { live: 1, sandbox: 1, backend: 1 },
          deleted_at: null,
        },
      ]),
    );
  });

  it.each([
    [[], 'no command'],
    [['frobnicate'], 'unknown command'],
    [['create-client'], '--name'],
    [['create-client', '--name', 'X', '--credit-limit', '-5'], '--credit-limit'],
    [['create-client', '--name', 'X', '--credit-limit', 'lots'], '--credit-limit'],
    [['create-client', '--name', 'X', '--currency', 'dollars'], '--currency'],
    [['create-client', '--name', 'X', '--bogus', '1'], 'bogus'],
    [['rotate-key'], '--client-id'],
    [['revoke-key', '--client-id', 'abc'], '--client-id'],
    [['revoke-key', '--client-id', '1', '--kind', 'master'], '--kind'],
    [['rotate-key', '--client-id', '1', '--kind', 'all', '--keep-user-tokens'], '--keep-user-tokens contradicts --kind all'],
    [['revoke-key', '--client-id', '1', '--keep-user-tokens'], '--keep-user-tokens contradicts --kind all'],
    [['rotate-key', '--client-id', '1', '--kind', 'user-tokens', '--keep-user-tokens'], '--keep-user-tokens contradicts --kind user-tokens'],
    [['rotate-key', '--client-id', '1', '--kind', 'live', '--keep-user-tokens'], '--keep-user-tokens is for the backend token'],
    [['rotate-key', '--client-id', '1', '--keep-user-tokens', 'yes'], 'usage'],
    [['import-fx-rates'], 'import-fx-rates needs --file'],
    [['import-fx-rates', '--file', '/nonexistent/eurofxref-daily.xml'], 'cannot read --file /nonexistent/eurofxref-daily.xml (ENOENT)'],
    [['set-fx-margin', '--percent', '1'], '--client-id must be a positive integer'],
    [['set-fx-margin', '--client-id', '0', '--percent', '1'], '--client-id must be a positive integer'],
    [['set-fx-margin', '--client-id', '1'], 'set-fx-margin needs --percent'],
    [['reconcile-vendors', '--from', '2027-02-30'], '--from must be a date YYYY-MM-DD, not after today'],
    [['reconcile-vendors', '--to', '2999-01-01'], '--to must be a date YYYY-MM-DD, not after today'],
    [['reconcile-vendors', '--from', '2026-03-10', '--to', '2026-03-09'], '--to (2026-03-09) is before --from (2026-03-10)'],
    [['reconcile-vendors', '--from', '2026-01-01', '--to', '2026-02-01'], 'the period is at most 31 days (both ends counted): 2026-01-01 to 2026-02-01 is longer'],
    [['reconcile-vendors', '--vendor', 'Hotel Beds'], '--vendor must be a vendor code such as hotelbeds or atlas'],
    [['import-content', '--vendor', 'Hotel Beds'], '--vendor must be a vendor code such as hotelbeds'],
    [['import-content', '--full', 'yes'], 'usage'],
    ...[['25'], ['20.01'], ['1.234'], ['abc'], ['1,5'], [''], [' 1'], []].map((percent) => [
      // [] is --percent=-1 (a separate "-1" would read as an option).
      ['set-fx-margin', '--client-id', '1', ...(percent.length ? ['--percent', ...percent] : ['--percent=-1'])],
      '--percent must be a percentage from 0 to 20 with at most two decimals',
    ]),
  ])('%j: usage message and exit code 2', async (argv, mention) => {
    const result = await system.admin(...(argv as string[]));
    expect(result.code).toBe(2);
    expect(result.stdout).toBe('');
    expect(result.stderr).toContain(mention);
    expect(result.stderr).toContain('usage: npm run --silent admin');
  });

  it('reports an unknown client as an error with exit code 1', async () => {
    const result = await system.admin('rotate-key', '--client-id', '999999');
    expect(result.code).toBe(1);
    expect(JSON.parse(result.stderr)).toEqual({ error: { code: 'NOT_FOUND', message: 'client 999999 not found' } });
  });

  it('says when the system is not running', async () => {
    const { runAdmin } = await import('../../admin/src/admin-cli');
    const errors: string[] = [];
    const code = await runAdmin(['list-clients'], { url: 'nats://127.0.0.1:1', identity: 'admin' }, { out: () => undefined, err: (line) => errors.push(line) });
    expect(code).toBe(1);
    expect(errors.join('\n')).toMatch(/npm start/);
  });
});
