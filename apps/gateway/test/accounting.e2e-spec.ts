import { SUBJECTS } from '@hotel/contracts';
import { ServiceClient } from '@hotel/platform';
import { bearer, queryTestDatabase, userToken } from '@hotel/testing';
import { ClientKeys, TestSystem } from './system';

const ENTRY = { debit: 0, credit: 250.5, name: 'Bank transfer', clientId: 0 };

/** The accounting service and /api/accounting: ledger, balance, holds under concurrency. */
describe('accounting', () => {
  let system: TestSystem;
  let acme: ClientKeys;
  let auth: { authorization: string };
  let services: ServiceClient;
  let rates: ServiceClient;

  /** New clients' own credits wait for the finance team (the `pending` policy): these tests book them at once, as the finance team may allow. */
  const immediate = async (client: ClientKeys) => {
    const set = await system.admin('set-credit-policy', '--client-id', String(client.client_id), '--self-credits', 'immediate');
    if (set.code !== 0) throw new Error(`set-credit-policy failed: ${set.stderr}`);
    return client;
  };

  beforeAll(async () => {
    system = await TestSystem.start({}, ['users', 'accounting']);
    acme = await immediate(await system.createClient('Acme Travel', '10000'));
    auth = { authorization: acme.backend_token };
    // The saga's calls come from the booking service, the advisory funds check from rates.
    services = await system.busClient('booking');
    rates = await system.busClient('rates');
  });
  afterAll(async () => {
    await system?.close();
  });

  const post = (body: Record<string, unknown>, headers = auth) =>
    system.request('POST', '/api/accounting', { headers, json: { ...ENTRY, clientId: acme.client_id, ...body } });

  it('creates an entry (201) with every field of the specification', async () => {
    const response = await post({ bookingId: 12, ccPaymentId: 'ch_123', userId: 7, bankPaymentId: 99 });
    expect(response.status).toBe(201);
    expect(response.body).toEqual({
      success: true,
      message: null,
      data: {
        id: expect.any(Number),
        debit: 0,
        credit: 250.5,
        name: 'Bank transfer',
        clientId: acme.client_id,
        bookingId: 12,
        ccPaymentId: 'ch_123',
        userId: 7,
        bankPaymentId: 99,
        createdAt: expect.any(String),
        updatedAt: expect.any(String),
        deletedAt: null,
      },
    });
    const minimal = await post({});
    expect(minimal.body.data).toMatchObject({ bookingId: null, ccPaymentId: null, userId: null, bankPaymentId: null });
  });

  it.each([
    ['a negative debit', { debit: -1 }, 'debit'],
    // Three decimals pass the gateway (KWD has them); the account is in USD, which has two.
    ['a credit with three decimals', { credit: 1.005 }, 'credit'],
    ['a debit with three decimals', { debit: 0.001 }, 'debit'],
    ['a credit over 999,999,999.99', { credit: 1_000_000_000 }, 'credit'],
    ['a credit of 999,999,999.991', { credit: 999_999_999.991 }, 'credit'],
    ['a debit over 999,999,999.99', { debit: 999_999_999.999 }, 'debit'],
    ['a debit as text', { debit: '10' }, 'debit'],
    ['an empty name', { name: '' }, 'name'],
    ['no clientId', { clientId: undefined }, 'clientId'],
    ['a fractional clientId', { clientId: 1.5 }, 'clientId'],
    ['a bookingId as text', { bookingId: 'x' }, 'bookingId'],
    ['an unknown field', { memo: 'x' }, 'memo'],
  ])('answers 400 for %s', async (_name, body, field) => {
    const response = await post(body);
    expect(response.status).toBe(400);
    expect(response.body.code).toBe('VALIDATION_FAILED');
    expect(response.body.errors.map((error: { field: string }) => error.field)).toContain(field);
  });

  it('takes the largest amount, 999,999,999.99, in either field', async () => {
    const credit = await post({ credit: 999_999_999.99 });
    expect(credit.status).toBe(201);
    expect(credit.body.data).toMatchObject({ credit: 999_999_999.99, debit: 0 });
    const debit = await post({ credit: 0, debit: 999_999_999.99 });
    expect(debit.status).toBe(201);
    expect(debit.body.data).toMatchObject({ credit: 0, debit: 999_999_999.99 });
  });

  it("answers 403 for another client's clientId, and for credentials other than the backend token", async () => {
    const other = await post({ clientId: acme.client_id + 1000 });
    expect(other.status).toBe(403);
    expect((await post({}, bearer(acme.api_key))).status).toBe(403);
    const { token } = await userToken(system, acme.backend_token, { clientAccountLimit: 1 });
    expect((await system.request('GET', '/api/accounting', { headers: { authorization: token } })).status).toBe(403);
  });

  it('lists entries newest first, paginated, with the total', async () => {
    const client = await system.createClient('Paged Travel');
    const headers = { authorization: client.backend_token };
    for (let i = 1; i <= 7; i++) {
      await system.request('POST', '/api/accounting', { headers, json: { debit: i, credit: 0, name: `Invoice ${i}`, clientId: client.client_id } });
    }
    const first = await system.request('GET', '/api/accounting?page=1&limit=3', { headers });
    expect(first.body).toMatchObject({ success: true, total: 7 });
    expect(first.body.data.map((entry: any) => entry.name)).toEqual(['Invoice 7', 'Invoice 6', 'Invoice 5']);
    const third = await system.request('GET', '/api/accounting?page=3&limit=3', { headers });
    expect(third.body.data.map((entry: any) => entry.name)).toEqual(['Invoice 1']);
    expect((await system.request('GET', '/api/accounting?limit=501', { headers })).status).toBe(400);
    expect((await system.request('GET', '/api/accounting?page=0', { headers })).status).toBe(400);
  });

  it("reads one entry and a booking's entries; another client's are 404", async () => {
    const created = await post({ bookingId: 4242 });
    const id = created.body.data.id;
    expect((await system.request('GET', `/api/accounting/${id}`, { headers: auth })).body.data.id).toBe(id);
    const forBooking = await system.request('GET', '/api/accounting/booking/4242', { headers: auth });
    expect(forBooking.body.data.map((entry: any) => entry.id)).toContain(id);
    const globex = await system.createClient('Globex');
    const hidden = await system.request('GET', `/api/accounting/${id}`, { headers: { authorization: globex.backend_token } });
    expect(hidden.status).toBe(404);
    const none = await system.request('GET', '/api/accounting/booking/4242', { headers: { authorization: globex.backend_token } });
    expect(none.body.data).toEqual([]);
  });

  it('keeps the ledger append-only', async () => {
    const created = await post({});
    await expect(queryTestDatabase(system.database.url, 'UPDATE accounting.entries SET credit = 1000000 WHERE id = $1', [created.body.data.id])).rejects.toThrow(/append-only/);
    await expect(queryTestDatabase(system.database.url, 'DELETE FROM accounting.entries WHERE id = $1', [created.body.data.id])).rejects.toThrow(/append-only/);
    expect((await system.request('PUT', `/api/accounting/${created.body.data.id}`, { headers: auth, json: ENTRY })).status).toBe(404);
    expect((await system.request('DELETE', `/api/accounting/${created.body.data.id}`, { headers: auth })).status).toBe(404);
  });

  it('reports the balance: credit limit + credits − debits − holds', async () => {
    const client = await immediate(await system.createClient('Balanced Ltd', '1000'));
    const headers = { authorization: client.backend_token };
    const empty = await system.request('GET', '/api/accounting/balance', { headers });
    expect(empty.body.data).toEqual({ clientId: client.client_id, currency: 'USD', creditLimit: 1000, credits: 0, debits: 0, holds: 0, available: 1000 });
    await system.request('POST', '/api/accounting', { headers, json: { debit: 0, credit: 200.1, name: 'Payment', clientId: client.client_id } });
    await system.request('POST', '/api/accounting', { headers, json: { debit: 50.05, credit: 0, name: 'Fee', clientId: client.client_id } });
    await services.send(SUBJECTS.ACCOUNTING_HOLD_PLACE, { currency: 'USD', clientId: client.client_id, bookingId: 1, amount: '100.00' });
    const balance = await system.request('GET', '/api/accounting/balance', { headers });
    expect(balance.body.data).toMatchObject({ creditLimit: 1000, credits: 200.1, debits: 50.05, holds: 100, available: 1050.05 });
  });

  describe('holds for the booking saga', () => {
    it('never lets concurrent holds take available funds below zero', async () => {
      const client = await system.createClient('Racer Travel', '1000');
      const attempts = await Promise.allSettled(
        Array.from({ length: 40 }, (_, i) => services.send(SUBJECTS.ACCOUNTING_HOLD_PLACE, { currency: 'USD', clientId: client.client_id, bookingId: 100 + i, amount: '70.00' })),
      );
      const placed = attempts.filter((attempt) => attempt.status === 'fulfilled');
      const refused = attempts.filter((attempt) => attempt.status === 'rejected') as PromiseRejectedResult[];
      expect(placed).toHaveLength(14); // 14 × 70 = 980 ≤ 1000 < 15 × 70
      for (const refusal of refused) expect(refusal.reason).toMatchObject({ code: 'INSUFFICIENT_FUNDS', message: 'insufficient funds' });
      const balance = await system.request('GET', '/api/accounting/balance', { headers: { authorization: client.backend_token } });
      expect(balance.body.data).toMatchObject({ holds: 980, available: 20 });
    });

    it('is idempotent by booking, captures into one debit entry and releases', async () => {
      const client = await system.createClient('Saga Travel', '500');
      const clientId = client.client_id;
      const holds = await Promise.all(
        Array.from({ length: 10 }, () => services.send(SUBJECTS.ACCOUNTING_HOLD_PLACE, { currency: 'USD', clientId, bookingId: 1, amount: '120.00' })),
      );
      for (const hold of holds) expect(hold).toEqual({ bookingId: 1, amount: '120.00', status: 'active', entryId: null });
      await expect(services.send(SUBJECTS.ACCOUNTING_HOLD_PLACE, { currency: 'USD', clientId, bookingId: 1, amount: '99.00' })).rejects.toMatchObject({ code: 'CONFLICT' });

      const captures = await Promise.all(
        Array.from({ length: 5 }, () => services.send(SUBJECTS.ACCOUNTING_HOLD_CAPTURE, { clientId, bookingId: 1, name: 'Booking 1' })),
      );
      expect(new Set(captures.map((capture) => capture.entryId)).size).toBe(1);
      const entries = await system.request('GET', '/api/accounting/booking/1', { headers: { authorization: client.backend_token } });
      expect(entries.body.data).toEqual([expect.objectContaining({ debit: 120, credit: 0, bookingId: 1, name: 'Booking 1' })]);
      await expect(services.send(SUBJECTS.ACCOUNTING_HOLD_RELEASE, { clientId, bookingId: 1 })).rejects.toMatchObject({ code: 'CONFLICT' });

      await services.send(SUBJECTS.ACCOUNTING_HOLD_PLACE, { currency: 'USD', clientId, bookingId: 2, amount: '300.00' });
      const released = await services.send(SUBJECTS.ACCOUNTING_HOLD_RELEASE, { clientId, bookingId: 2 });
      expect(released.status).toBe('released');
      expect((await services.send(SUBJECTS.ACCOUNTING_HOLD_RELEASE, { clientId, bookingId: 2 })).status).toBe('released');
      const balance = await system.request('GET', '/api/accounting/balance', { headers: { authorization: client.backend_token } });
      expect(balance.body.data).toMatchObject({ debits: 120, holds: 0, available: 380 });

      const refunds = await Promise.all(
        Array.from({ length: 5 }, () => services.send(SUBJECTS.ACCOUNTING_REFUND_CREATE, { currency: 'USD', clientId, bookingId: 1, amount: '100.00', name: 'Cancellation of booking 1' })),
      );
      expect(new Set(refunds.map((refund) => refund.id)).size).toBe(1);
      const after = await system.request('GET', '/api/accounting/balance', { headers: { authorization: client.backend_token } });
      expect(after.body.data).toMatchObject({ credits: 100, available: 480 });
    });

    it('the advisory funds check and the binding hold apply one rule, to the cent', async () => {
      const client = await system.createClient('Edge Travel', '100');
      const clientId = client.client_id;
      await services.send(SUBJECTS.ACCOUNTING_HOLD_PLACE, { currency: 'USD', clientId, bookingId: 1, amount: '40.01' });
      const available = '59.99';
      const over = '60.00';
      expect(await rates.send(SUBJECTS.ACCOUNTING_FUNDS_CHECK, { currency: 'USD', clientId, amount: available })).toEqual({ sufficient: true, available });
      expect((await rates.send(SUBJECTS.ACCOUNTING_FUNDS_CHECK, { currency: 'USD', clientId, amount: over })).sufficient).toBe(false);
      await expect(services.send(SUBJECTS.ACCOUNTING_HOLD_PLACE, { currency: 'USD', clientId, bookingId: 2, amount: over })).rejects.toMatchObject({ code: 'INSUFFICIENT_FUNDS' });
      await services.send(SUBJECTS.ACCOUNTING_HOLD_PLACE, { currency: 'USD', clientId, bookingId: 3, amount: available });
      expect(await rates.send(SUBJECTS.ACCOUNTING_FUNDS_CHECK, { currency: 'USD', clientId, amount: '0.01' })).toEqual({ sufficient: false, available: '0.00' });
      const balance = await system.request('GET', '/api/accounting/balance', { headers: { authorization: client.backend_token } });
      expect(balance.body.data).toMatchObject({ holds: 100, available: 0 });
    });

    it("caps a user's outstanding account bookings at the user's clientAccountLimit", async () => {
      const client = await system.createClient('Limited Travel', '10000');
      const clientId = client.client_id;
      const hold = (bookingId: number, amount: string) =>
        services.send(SUBJECTS.ACCOUNTING_HOLD_PLACE, { currency: 'USD', clientId, bookingId, amount, userId: 5, userLimit: '300.00' });
      await hold(1, '200.00');
      await expect(hold(2, '150.00')).rejects.toMatchObject({ code: 'INSUFFICIENT_FUNDS' });
      await hold(3, '100.00');
      const check = await rates.send(SUBJECTS.ACCOUNTING_FUNDS_CHECK, { currency: 'USD', clientId, amount: '1.00', userId: 5, userLimit: '300.00' });
      expect(check.sufficient).toBe(false);
      // Another user of the client is not affected.
      await services.send(SUBJECTS.ACCOUNTING_HOLD_PLACE, { currency: 'USD', clientId, bookingId: 4, amount: '250.00', userId: 6, userLimit: '300.00' });
    });
  });

  it('keeps the ledger sums equal to the balance after a mixed concurrent run', async () => {
    const client = await immediate(await system.createClient('Mixed Travel', '5000'));
    const clientId = client.client_id;
    const headers = { authorization: client.backend_token };
    const work: Promise<unknown>[] = [];
    for (let i = 0; i < 30; i++) {
      work.push(system.request('POST', '/api/accounting', { headers, json: { debit: i % 3 === 0 ? 12.34 : 0, credit: i % 3 === 1 ? 56.78 : 0, name: `Mixed ${i}`, clientId } }));
      work.push(
        services
          .send(SUBJECTS.ACCOUNTING_HOLD_PLACE, { currency: 'USD', clientId, bookingId: 1000 + i, amount: '99.99' })
          .then(() =>
            i % 2 === 0
              ? services.send(SUBJECTS.ACCOUNTING_HOLD_CAPTURE, { clientId, bookingId: 1000 + i })
              : services.send(SUBJECTS.ACCOUNTING_HOLD_RELEASE, { clientId, bookingId: 1000 + i }),
          )
          .then(() => (i % 4 === 0 ? services.send(SUBJECTS.ACCOUNTING_REFUND_CREATE, { currency: 'USD', clientId, bookingId: 1000 + i, amount: '49.99', name: 'Refund' }) : null))
          .catch(() => null),
      );
    }
    await Promise.all(work);
    const [sums] = await queryTestDatabase<{ debits: string; credits: string; count: number }>(
      system.database.url,
      `SELECT coalesce(sum(debit), 0)::text AS debits, coalesce(sum(credit), 0)::text AS credits, count(*)::int AS count FROM accounting.entries WHERE client_id = $1`,
      [clientId],
    );
    const [held] = await queryTestDatabase<{ held: string }>(
      system.database.url,
      `SELECT coalesce(sum(amount), 0)::text AS held FROM accounting.holds WHERE client_id = $1 AND status = 'active'`,
      [clientId],
    );
    const balance = (await system.request('GET', '/api/accounting/balance', { headers })).body.data;
    expect(balance.debits).toBe(Number(sums.debits));
    expect(balance.credits).toBe(Number(sums.credits));
    expect(balance.holds).toBe(Number(held.held));
    expect(balance.holds).toBe(0);
    expect(balance.available).toBe(Number((5000 + Number(sums.credits) - Number(sums.debits)).toFixed(2)));
    const listed = await system.request('GET', '/api/accounting?limit=1', { headers });
    expect(listed.body.total).toBe(sums.count);
  });
});
