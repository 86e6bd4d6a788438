import { request as httpsRequest } from 'node:https';
import { setFlagsFromString } from 'node:v8';
import { runInNewContext } from 'node:vm';
import { CARD, GUEST, bearer, bookV1, parseCsv, prebookV1, queryTestDatabase, settledBooking, staySequence, userToken } from '@hotel/testing';
import { ClientKeys, TestSystem } from './system';

/** The garbage collector, to measure what stays alive rather than what waits to be collected. */
function collector(): () => void {
  setFlagsFromString('--expose-gc');
  return runInNewContext('gc') as () => void;
}

/** Finance workspace: the finance credential, credit requests, statements, exports, daily balances, reconciliation. */
describe('finance', () => {
  let system: TestSystem;
  let acme: ClientKeys;
  let finance: { authorization: string };
  let financeTokenId: number;
  const backend = (keys: ClientKeys) => ({ authorization: keys.backend_token });

  beforeAll(async () => {
    ({ system, acme } = await TestSystem.startWithClient());
    const created = await system.admin('create-finance-token', '--name', 'Grace (finance)');
    expect(created.code).toBe(0);
    expect(created.json).toEqual({ finance_token_id: expect.any(Number), name: 'Grace (finance)', finance_token: expect.stringMatching(/^hb_fin_/) });
    finance = { authorization: created.json.finance_token };
    financeTokenId = created.json.finance_token_id;
  }, 60_000);
  afterAll(async () => {
    await system?.close();
  });

  /** Entries written straight into the ledger at given times (the API writes them now). */
  async function seed(clientId: number, entries: { at: string; debit?: string; credit?: string; name?: string }[]) {
    await system.request('GET', `/api/accounting/balance?clientId=${clientId}`, { headers: finance }); // opens the account
    for (const entry of entries) {
      await queryTestDatabase(
        system.database.url,
        `INSERT INTO accounting.entries (client_id, kind, debit, credit, name, created_at, updated_at) VALUES ($1, 'manual', $2, $3, $4, $5, $5)`,
        [clientId, entry.debit ?? '0', entry.credit ?? '0', entry.name ?? 'Seeded', entry.at],
      );
    }
  }

  describe('the finance credential', () => {
    it("reads every client's ledger with clientId; a backend token only its own (another is 404); a user token gets 403", async () => {
      const globex = await system.createClient('Globex', '500');
      const balance = await system.request('GET', `/api/accounting/balance?clientId=${globex.client_id}`, { headers: finance });
      expect(balance.status).toBe(200);
      expect(balance.body.data).toMatchObject({ clientId: globex.client_id, creditLimit: 500 });
      expect((await system.request('GET', `/api/accounting?clientId=${acme.client_id}`, { headers: finance })).status).toBe(200);
      // Without a client named: 400.
      expect((await system.request('GET', '/api/accounting/balance', { headers: finance })).status).toBe(400);
      // A client that does not exist: 404.
      expect((await system.request('GET', '/api/accounting/balance?clientId=999999', { headers: finance })).status).toBe(404);

      expect((await system.request('GET', `/api/accounting/balance?clientId=${acme.client_id}`, { headers: backend(acme) })).status).toBe(200);
      expect((await system.request('GET', `/api/accounting/balance?clientId=${globex.client_id}`, { headers: backend(acme) })).status).toBe(404);
      expect((await system.request('GET', `/api/accounting/statement?from=2026-01-01&to=2026-01-31&clientId=${globex.client_id}`, { headers: backend(acme) })).status).toBe(404);

      const { token } = await userToken(system, acme.backend_token);
      expect((await system.request('GET', '/api/accounting/statement?from=2026-01-01&to=2026-01-31', { headers: { authorization: token } })).status).toBe(403);
      expect((await system.request('GET', '/api/accounting/reconciliation?from=2026-01-01&to=2026-01-31', { headers: { authorization: token } })).status).toBe(403);
    });

    it('reaches nothing but the ledger: users, backend bookings and the booking API are 403', async () => {
      expect((await system.request('GET', '/api/user/1', { headers: finance })).status).toBe(403);
      expect((await system.request('GET', '/api/booking', { headers: finance })).status).toBe(403);
      expect((await system.request('GET', '/book', { headers: bearer(finance.authorization) })).status).toBe(403);
    });

    it('stops working at once when revoked', async () => {
      const other = await system.admin('create-finance-token', '--name', 'Temp');
      const headers = { authorization: other.json.finance_token };
      expect((await system.request('GET', `/api/accounting/balance?clientId=${acme.client_id}`, { headers })).status).toBe(200);
      const revoked = await system.admin('revoke-finance-token', '--token-id', String(other.json.finance_token_id));
      expect(revoked).toMatchObject({ code: 0, json: { finance_token_id: other.json.finance_token_id, revoked_at: expect.any(String) } });
      expect((await system.request('GET', `/api/accounting/balance?clientId=${acme.client_id}`, { headers })).status).toBe(401);
      expect((await system.request('GET', `/api/accounting/balance?clientId=${acme.client_id}`, { headers: finance })).status).toBe(200);
      expect((await system.admin('revoke-finance-token', '--token-id', '999999')).code).toBe(1);
      expect(financeTokenId).toBeGreaterThan(0);
    });
  });

  describe('the credit policy', () => {
    it("a new client starts pending: its own credit is a request (202) until the finance credential confirms it, exactly once", async () => {
      // No set-credit-policy: `pending` is where a new client starts.
      const client = await system.createClient('Pending Travel', '1000');
      const post = (body: Record<string, unknown>, headers = backend(client)) =>
        system.request('POST', '/api/accounting', { headers, json: { debit: 0, credit: 0, name: 'Bank transfer', clientId: client.client_id, ...body } });

      const requested = await post({ credit: 250.5, bankPaymentId: 77 });
      expect(requested.status).toBe(202);
      expect(requested.body.data).toMatchObject({ id: expect.any(Number), status: 'pending', credit: 250.5, entryId: null, bankPaymentId: 77 });
      const id = requested.body.data.id;
      const balance = () => system.request('GET', '/api/accounting/balance', { headers: backend(client) }).then((response) => response.body.data);
      // No money moved: no entry, no credit.
      expect(await balance()).toMatchObject({ credits: 0, available: 1000 });
      expect((await system.request('GET', '/api/accounting', { headers: backend(client) })).body.total).toBe(0);
      // A debit is booked at once.
      expect((await post({ debit: 10 })).status).toBe(201);

      const queue = await system.request('GET', '/api/accounting/requests?status=pending', { headers: finance });
      expect(queue.body.data.map((request: { id: number }) => request.id)).toContain(id);
      const own = await system.request('GET', '/api/accounting/requests', { headers: backend(client) });
      expect(own.body).toMatchObject({ total: 1, data: [{ id }] });

      expect((await system.request('POST', `/api/accounting/requests/${id}/confirm`, { headers: backend(client) })).status).toBe(403);
      const confirms = await Promise.all(Array.from({ length: 6 }, () => system.request('POST', `/api/accounting/requests/${id}/confirm`, { headers: finance })));
      expect(confirms.map((response) => response.status)).toEqual(Array(6).fill(200));
      const entryIds = new Set(confirms.map((response) => response.body.data.entryId));
      expect(entryIds.size).toBe(1);
      const [{ count }] = await queryTestDatabase<{ count: number }>(system.database.url, `SELECT count(*)::int AS count FROM accounting.entries WHERE client_id = $1 AND credit > 0`, [client.client_id]);
      expect(count).toBe(1);
      expect(await balance()).toMatchObject({ credits: 250.5, debits: 10, available: 1240.5 });

      const second = (await post({ credit: 99 })).body.data.id;
      const rejected = await system.request('POST', `/api/accounting/requests/${second}/reject`, { headers: finance });
      expect(rejected.body.data).toMatchObject({ status: 'rejected', entryId: null, decidedAt: expect.any(String) });
      expect((await system.request('POST', `/api/accounting/requests/${second}/confirm`, { headers: finance })).status).toBe(409);
      expect((await system.request('POST', `/api/accounting/requests/999999/confirm`, { headers: finance })).status).toBe(404);
      expect(await balance()).toMatchObject({ credits: 250.5 });

      // Back to immediate: credits are entries again; the finance credential's own credits always are.
      await system.admin('set-credit-policy', '--client-id', String(client.client_id), '--self-credits', 'immediate');
      expect((await post({ credit: 1 })).status).toBe(201);
      expect((await post({ credit: 2 }, finance)).status).toBe(201);
      expect((await system.admin('set-credit-policy', '--client-id', String(client.client_id), '--self-credits', 'later')).code).toBe(2);
      // And back to pending, by the same command.
      expect(await system.admin('set-credit-policy', '--client-id', String(client.client_id), '--self-credits', 'pending')).toMatchObject({
        code: 0,
        json: { client_id: client.client_id, self_credits: 'pending' },
      });
      expect((await post({ credit: 3 })).status).toBe(202);
    });

    it('a client created before the policy change keeps immediate, even when its account opens only now', async () => {
      // Simulated: clients whose accounts were never opened (accounts open on first use), one made before the recorded moment.
      const [older, newer] = [await system.createClient('Old Travel', '1000'), await system.createClient('New Travel', '1000')];
      await queryTestDatabase(
        system.database.url,
        `UPDATE users.clients SET created_at = (SELECT since FROM accounting.self_credit_defaults WHERE self_credits = 'pending') - interval '1 day' WHERE id = $1`,
        [older.client_id],
      );
      const [{ accounts }] = await queryTestDatabase<{ accounts: number }>(system.database.url, `SELECT count(*)::int AS accounts FROM accounting.accounts WHERE client_id = ANY($1)`, [
        [older.client_id, newer.client_id],
      ]);
      expect(accounts).toBe(0);
      const credit = (client: ClientKeys) => system.request('POST', '/api/accounting', { headers: backend(client), json: { debit: 0, credit: 40, name: 'Wire', clientId: client.client_id } });
      const [old, fresh] = await Promise.all([credit(older), credit(newer)]);
      expect([old.status, fresh.status]).toEqual([201, 202]);
      expect(old.body.data).toMatchObject({ credit: 40, clientId: older.client_id });
      const [{ policies }] = await queryTestDatabase<{ policies: string }>(
        system.database.url,
        `SELECT string_agg(self_credits, ',' ORDER BY client_id) AS policies FROM accounting.accounts WHERE client_id = ANY($1)`,
        [[older.client_id, newer.client_id]],
      );
      expect(policies).toBe('immediate,pending');
    });
  });

  describe('an Idempotency-Key on a manual post', () => {
    it('makes one entry however many posts race with the key; a repeat answers it, another entry under the key is 409, and a credit request is kept the same way', async () => {
      const client = await system.createClient('Keyed Travel', '1000');
      const post = (headers: Record<string, string>, body: Record<string, unknown>, key = 'wire-2026-11-27-001') =>
        system.request('POST', '/api/accounting', { headers: { ...headers, 'idempotency-key': key }, json: { debit: 0, clientId: client.client_id, ...body } });
      const wire = { credit: 250.5, name: 'Wire 2026-11-27' };
      const raced = await Promise.all(Array.from({ length: 10 }, () => post(finance, wire)));
      expect(raced.map((answer) => answer.status)).toEqual(Array(10).fill(201));
      const ids = new Set(raced.map((answer) => answer.body.data.id));
      expect(ids.size).toBe(1);
      const [{ entries }] = await queryTestDatabase<{ entries: number }>(system.database.url, `SELECT count(*)::int AS entries FROM accounting.entries WHERE client_id = $1`, [client.client_id]);
      expect(entries).toBe(1);
      expect((await system.request('GET', `/api/accounting/balance?clientId=${client.client_id}`, { headers: finance })).body.data.credits).toBe(250.5);
      // Later, the same: the same answer, nothing written.
      const again = await post(finance, wire);
      expect({ status: again.status, id: again.body.data.id }).toEqual({ status: 201, id: [...ids][0] });
      // Another entry under the key: refused.
      const other = await post(finance, { ...wire, credit: 25 });
      expect({ status: other.status, code: other.body.code }).toEqual({ status: 409, code: 'IDEMPOTENCY_CONFLICT' });
      // The client's own credit under the pending policy: one credit request, answered again.
      const own = backend(client);
      const requests = await Promise.all(Array.from({ length: 5 }, () => post(own, { credit: 40, name: 'Own wire' }, 'own-1')));
      expect(requests.map((answer) => answer.status)).toEqual(Array(5).fill(202));
      expect(new Set(requests.map((answer) => answer.body.data.id)).size).toBe(1);
      const [{ pending }] = await queryTestDatabase<{ pending: number }>(system.database.url, `SELECT count(*)::int AS pending FROM accounting.credit_requests WHERE client_id = $1`, [client.client_id]);
      expect(pending).toBe(1);
      // Keys are the client's: another client may use the same one.
      const globex = await system.createClient('Keyed Globex', '1000');
      const theirs = await system.request('POST', '/api/accounting', { headers: { ...finance, 'idempotency-key': 'wire-2026-11-27-001' }, json: { debit: 0, credit: 250.5, name: 'Wire 2026-11-27', clientId: globex.client_id } });
      expect(theirs.status).toBe(201);
      expect(theirs.body.data.id).not.toBe([...ids][0]);
      // A key that is not one: 400.
      const bad = await post(finance, wire, 'has space');
      expect({ status: bad.status, code: bad.body.code }).toEqual({ status: 400, code: 'VALIDATION_FAILED' });
    });
  });

  describe('statements and the daily balance', () => {
    let client: ClientKeys;
    beforeAll(async () => {
      client = await system.createClient('Statement Travel', '1000');
      await seed(client.client_id, [
        { at: '2026-03-31T23:59:59.999Z', credit: '100.10' },
        { at: '2026-03-31T10:00:00Z', debit: '0.30' },
        { at: '2026-04-01T00:00:00Z', debit: '40.05' },
        { at: '2026-04-15T12:00:00Z', credit: '0.10', name: 'Bank, "April"' },
        { at: '2026-04-30T23:59:59Z', debit: '1000.00' },
        { at: '2026-05-01T00:00:00Z', credit: '7.00' },
      ]);
    });

    it('the ledger filters on the server: days, a part of the name, a booking, an amount range; the total counts what matches', async () => {
      const ledger = async (filter: string) => system.request('GET', `/api/accounting?clientId=${client.client_id}&limit=2${filter}`, { headers: finance });
      const april = await ledger('&from=2026-04-01&to=2026-04-30');
      expect(april.status).toBe(200);
      expect(april.body.total).toBe(3);
      expect(april.body.data.map((entry: any) => [entry.debit, entry.credit])).toEqual([
        [1000, 0],
        [0, 0.1],
      ]);
      expect((await ledger('&from=2026-04-01&to=2026-04-30&page=2')).body.data.map((entry: any) => entry.debit)).toEqual([40.05]);
      const named = await ledger('&name=april');
      expect(named.body).toMatchObject({ total: 1, data: [{ name: 'Bank, "April"', credit: 0.1 }] });
      expect((await ledger('&minAmount=40&maxAmount=100.10')).body.data.map((entry: any) => entry.debit || entry.credit)).toEqual([40.05, 100.1]);
      expect((await ledger('&bookingId=999999')).body).toMatchObject({ total: 0, data: [] });
      // The client's own backend token filters its ledger alike; bad filters are 400.
      expect((await system.request('GET', '/api/accounting?name=april', { headers: backend(client) })).body.total).toBe(1);
      for (const bad of ['&from=2026-02-30', '&minAmount=1e3', '&bookingId=0', `&name=${'x'.repeat(101)}`]) {
        const answer = await ledger(bad);
        expect({ bad, status: answer.status, code: answer.body.code }).toEqual({ bad, status: 400, code: 'VALIDATION_FAILED' });
      }
    });

    it('the finance credential finds clients by a part of their name or their id; a client credential cannot list them', async () => {
      const found = await system.request('GET', '/api/accounting/clients?search=statement', { headers: finance });
      expect(found.status).toBe(200);
      expect(found.body.data).toEqual([{ clientId: client.client_id, name: 'Statement Travel', currency: 'USD', deletedAt: null }]);
      expect((await system.request('GET', `/api/accounting/clients?search=${client.client_id}`, { headers: finance })).body.data.map((c: any) => c.clientId)).toContain(client.client_id);
      expect((await system.request('GET', '/api/accounting/clients?limit=2', { headers: finance })).body.data).toHaveLength(2);
      expect((await system.request('GET', '/api/accounting/clients', { headers: backend(client) })).status).toBe(403);
      // Its statements name it, in the file name too.
      const pdf = await system.request('GET', `/api/accounting/statement?from=2026-04-01&to=2026-04-30&format=pdf&clientId=${client.client_id}`, { headers: finance });
      expect(pdf.headers['content-disposition']).toBe(`attachment; filename="statement-statement-travel-${client.client_id}-2026-04-01-2026-04-30.pdf"`);
    });

    it('opening + credits − debits = closing, across a period boundary', async () => {
      const april = await system.request('GET', `/api/accounting/statement?from=2026-04-01&to=2026-04-30&clientId=${client.client_id}`, { headers: finance });
      expect(april.status).toBe(200);
      expect(april.body.data).toMatchObject({
        clientId: client.client_id,
        currency: 'USD',
        openingBalance: 99.8,
        totalDebits: 1040.05,
        totalCredits: 0.1,
        closingBalance: -940.15,
        creditLimit: 1000,
        availableAtEnd: 59.85,
        entryCount: 3,
      });
      expect(april.body.data.entries.map((entry: { debit: number; credit: number }) => [entry.debit, entry.credit])).toEqual([
        [40.05, 0],
        [0, 0.1],
        [1000, 0],
      ]);
      const may = await system.request('GET', `/api/accounting/statement?from=2026-05-01&to=2026-05-31`, { headers: backend(client) });
      expect(may.body.data).toMatchObject({ openingBalance: -940.15, totalCredits: 7, closingBalance: -933.15, entryCount: 1 });
      const both = await system.request('GET', `/api/accounting/statement?from=2026-03-01&to=2026-05-31`, { headers: backend(client) });
      expect(both.body.data).toMatchObject({ openingBalance: 0, closingBalance: -933.15, entryCount: 6 });
    });

    it('refuses from after to, and periods over 366 days (400)', async () => {
      const ask = (query: string) => system.request('GET', `/api/accounting/statement?${query}`, { headers: backend(client) });
      expect((await ask('from=2026-04-02&to=2026-04-01')).status).toBe(400);
      expect((await ask('from=2026-01-01&to=2027-01-02')).status).toBe(400);
      expect((await ask('from=2024-01-01&to=2024-12-31')).status).toBe(200); // 366 days, a leap year
      expect((await ask('from=2026-02-30&to=2026-03-01')).status).toBe(400);
      expect((await ask('from=2026-01-01&to=2026-01-02&format=xml')).status).toBe(400);
      expect((await system.request('GET', `/api/accounting/balance/daily?from=2026-01-01&to=2027-01-02`, { headers: backend(client) })).status).toBe(400);
    });

    it('as CSV (format or Accept) with the running balance, and as PDF', async () => {
      const csv = await system.request('GET', `/api/accounting/statement?from=2026-04-01&to=2026-04-30`, { headers: { ...backend(client), accept: 'text/csv' } });
      expect(csv.status).toBe(200);
      expect(csv.headers['content-type']).toMatch(/^text\/csv/);
      expect(parseCsv(csv.text)).toEqual([
        ['date', 'entryId', 'name', 'debit', 'credit', 'balance'],
        ['2026-04-01', '', 'Opening balance', '', '', '99.80'],
        ['2026-04-01', expect.any(String), 'Seeded', '40.05', '0.00', '59.75'],
        ['2026-04-15', expect.any(String), 'Bank, "April"', '0.00', '0.10', '59.85'],
        ['2026-04-30', expect.any(String), 'Seeded', '1000.00', '0.00', '-940.15'],
        ['2026-04-30', '', 'Closing balance', '1040.05', '0.10', '-940.15'],
      ]);
      const pdf = await system.request('GET', `/api/accounting/statement?from=2026-04-01&to=2026-04-30&format=pdf&clientId=${client.client_id}`, { headers: finance });
      expect(pdf.status).toBe(200);
      expect(pdf.headers['content-type']).toBe('application/pdf');
      expect(pdf.text.startsWith('%PDF-')).toBe(true);
      expect(pdf.text.trimEnd().endsWith('%%EOF')).toBe(true);
    });

    it('the daily balance: credits, debits, closing balance and available funds per day', async () => {
      const daily = await system.request('GET', `/api/accounting/balance/daily?from=2026-04-30&to=2026-05-02&clientId=${client.client_id}`, { headers: finance });
      expect(daily.status).toBe(200);
      expect(daily.body.data).toEqual({
        clientId: client.client_id,
        currency: 'USD',
        creditLimit: 1000,
        from: '2026-04-30',
        to: '2026-05-02',
        openingBalance: 59.85,
        days: [
          { day: '2026-04-30', credits: 0, debits: 1000, closingBalance: -940.15, available: 59.85 },
          { day: '2026-05-01', credits: 7, debits: 0, closingBalance: -933.15, available: 66.85 },
          { day: '2026-05-02', credits: 0, debits: 0, closingBalance: -933.15, available: 66.85 },
        ],
      });
    });
  });

  describe('CSV exports', () => {
    it('escapes cells a spreadsheet would run as formulas, and keeps amounts exact and numeric', async () => {
      const client = await system.createClient('Injection Travel', '1000');
      // Each name and the cell a spreadsheet gets: a formula anywhere a locale could start a cell is escaped, numbers and text are not.
      const cells: [name: string, cell: string][] = [
        ['=HYPERLINK("http://evil.example","x")', `'=HYPERLINK("http://evil.example","x")`],
        ['+1+1', "'+1+1"],
        ['-2+3', "'-2+3"],
        ['@SUM(A1:A2)', "'@SUM(A1:A2)"],
        ['\tTabbed', "'\tTabbed"],
        [' =1+1', "' =1+1"],
        ['a;=1+1', "a;'=1+1"],
        ['a,=1+1', "a,'=1+1"],
        ['a\t@SUM(A1)', "a\t'@SUM(A1)"],
        ['two\n-1+1', "two\n'-1+1"],
        ['Refund; -12.50', 'Refund; -12.50'],
        ['-12.50', '-12.50'],
        ['Plain, with "quotes"', 'Plain, with "quotes"'],
      ];
      const names = cells.map(([name]) => name);
      for (const name of names) {
        await system.request('POST', '/api/accounting', { headers: backend(client), json: { debit: 0.1, credit: 0, name, clientId: client.client_id } });
      }
      const csv = await system.request('GET', '/api/accounting?format=csv', { headers: backend(client) });
      expect(csv.status).toBe(200);
      // Named by the client and the day, and readable by Excel (a byte-order mark first).
      expect(csv.headers['content-disposition']).toBe(`attachment; filename="ledger-injection-travel-${client.client_id}-${new Date().toISOString().slice(0, 10)}.csv"`);
      expect(csv.text.startsWith('\uFEFFid,')).toBe(true);
      const [header, ...rows] = parseCsv(csv.text);
      // The first nine columns as they were; new ones at the end (the account's currency, then how a booking's price was converted).
      expect(header).toEqual(['id', 'createdAt', 'name', 'debit', 'credit', 'bookingId', 'ccPaymentId', 'userId', 'bankPaymentId', 'currency', 'vendorPrice', 'vendorCurrency', 'fxRate', 'fxRateDate']);
      expect(rows.map((row) => row[2])).toEqual(cells.map(([, cell]) => cell));
      expect(rows.every((row) => row[3] === '0.10' && row[4] === '0.00' && row[9] === 'USD' && row.slice(10).every((cell) => cell === ''))).toBe(true);

      // The statement escapes the same way, and its negative running balance stays a plain number.
      const today = new Date().toISOString().slice(0, 10);
      const statement = await system.request('GET', `/api/accounting/statement?from=${today}&to=${today}&format=csv`, { headers: backend(client) });
      const entries = parseCsv(statement.text).slice(2, -1);
      expect(entries.map((row) => row[2])).toEqual(cells.map(([, cell]) => cell));
      expect(entries.map((row) => row[5])).toEqual(cells.map((_, index) => `-${((index + 1) / 10).toFixed(2)}`));
    });

    it('exports 100,000 entries in flat memory, streamed page by page', async () => {
      const client = await system.createClient('Big Ledger', '1000');
      await system.request('GET', '/api/accounting/balance', { headers: backend(client) });
      // Seeded in SQL: 100,000 entries of about 260 bytes of CSV each (26 MB in all).
      await queryTestDatabase(
        system.database.url,
        `INSERT INTO accounting.entries (client_id, kind, debit, credit, name)
         SELECT $1, 'manual', CASE WHEN i % 2 = 0 THEN 12.34 ELSE 0 END, CASE WHEN i % 2 = 1 THEN 0.01 ELSE 0 END, 'Seeded entry ' || i || ' ' || repeat('x', 200)
           FROM generate_series(1, 100000) AS i`,
        [client.client_id],
      );
      const gc = collector();
      gc();
      const baseline = process.memoryUsage().heapUsed;
      let peak = 0;
      let bytes = 0;
      let records = 0;
      let nextSample = 0;
      let tail = '';
      const started = Date.now();
      const status = await new Promise<number>((resolve, reject) => {
        const request = httpsRequest(new URL('/api/accounting?format=csv', system.url), { headers: backend(client), rejectUnauthorized: false }, (response) => {
          response.on('data', (chunk: Buffer) => {
            bytes += chunk.length;
            const text = tail + chunk.toString('latin1');
            records += text.split('\r\n').length - 1;
            tail = text.slice(text.lastIndexOf('\r\n') + 2);
            if (bytes >= nextSample) {
              nextSample += 2 * 1024 * 1024;
              gc();
              peak = Math.max(peak, process.memoryUsage().heapUsed - baseline);
            }
          });
          response.on('end', () => resolve(response.statusCode ?? 0));
          response.on('error', reject);
        });
        request.on('error', reject);
        request.end();
      });
      expect(status).toBe(200);
      expect(records).toBe(100_001); // the header and every entry
      expect(bytes).toBeGreaterThan(25_000_000);
      // What stays alive while the export runs: pages in flight, not the export.
      process.stdout.write(
        `CSV export: ${records - 1} entries, ${(bytes / 1e6).toFixed(1)} MB in ${Date.now() - started} ms (a full collection every 2 MB), peak live heap growth ${(peak / 1e6).toFixed(1)} MB\n`,
      );
      expect(peak).toBeLessThan(8 * 1024 * 1024);
    }, 120_000);
  });

  describe('reconciliation', () => {
    const nextStay = staySequence(30);
    let client: ClientKeys;
    const today = new Date().toISOString().slice(0, 10);
    const reconcile = (from = today) => system.request('GET', `/api/accounting/reconciliation?from=${from}&to=${today}&clientId=${client.client_id}`, { headers: finance });

    beforeAll(async () => {
      client = await system.createClient('Mixed Travel', '100000');
    });

    it('is empty after a mixed run: account and card bookings, a declined card, cancellations', async () => {
      const live = bearer(client.api_key);
      const account = await bookV1(system, live, nextStay());
      const card = await bookV1(system, live, nextStay(), { method: 'credit_card' });
      const cancelledAccount = await bookV1(system, live, nextStay(), { hotelIndex: 1 });
      const cancelledCard = await bookV1(system, live, nextStay(), { method: 'credit_card', hotelIndex: 1 });
      const { path } = await prebookV1(system, live, nextStay(), { method: 'credit_card', hotelIndex: 2 });
      const declined = await system.request('POST', path, { headers: live, json: { ...GUEST, ...CARD, payment_token: 'tok_declined' } });
      expect(declined.status).toBe(400);
      for (const booking of [cancelledAccount, cancelledCard]) expect((await system.request('POST', `/book/cancel/${booking.id}`, { headers: live })).status).toBe(200);
      for (const booking of [account, card, cancelledAccount, cancelledCard]) await settledBooking(system, booking.id);

      const result = await reconcile();
      expect(result.status).toBe(200);
      expect(result.body.data).toMatchObject({ clientId: client.client_id, from: today, to: today, mismatches: [], mismatchCount: 0 });
      expect(result.body.data.totals).toMatchObject({ confirmed: { count: 2 }, cancelled: { count: 2 }, failed: { count: 1 }, pending: { count: 0 } });
      expect(result.body.data.totals.confirmed.amount).toBeCloseTo(account.price_chargeable + card.price_chargeable, 2);
    }, 120_000);

    it('lists what the test plants in the database: a debit without a booking, a stale hold', async () => {
      await queryTestDatabase(
        system.database.url,
        `INSERT INTO accounting.entries (client_id, kind, debit, credit, name, booking_id) VALUES ($1, 'booking_debit', 55.50, 0, 'Booking 987654', 987654)`,
        [client.client_id],
      );
      await queryTestDatabase(
        system.database.url,
        `INSERT INTO accounting.holds (client_id, booking_id, amount, status, created_at) VALUES ($1, 876543, 12.00, 'active', now() - interval '1 hour')`,
        [client.client_id],
      );
      // The hold an hour old is yesterday's in the first hour of a UTC day: reconcile from its day.
      const plantedDay = new Date(Date.now() - 3_600_000).toISOString().slice(0, 10);
      const result = await reconcile(plantedDay);
      expect(result.body.data.mismatchCount).toBe(2);
      expect(result.body.data.mismatches).toEqual(
        expect.arrayContaining([
          expect.objectContaining({ kind: 'debit_without_booking', bookingId: 987654, actual: 55.5 }),
          expect.objectContaining({ kind: 'stale_hold', bookingId: 876543, actual: 12 }),
        ]),
      );
      // A backend token reconciles its own client.
      expect((await system.request('GET', `/api/accounting/reconciliation?from=${plantedDay}&to=${today}`, { headers: backend(client) })).body.data.mismatchCount).toBe(2);
    });
  });
});
