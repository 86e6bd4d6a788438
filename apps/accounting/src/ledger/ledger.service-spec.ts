import { Actor, SUBJECTS } from '@hotel/contracts';
import { DomainError } from '@hotel/platform';
import { ServiceHarness, startServiceHarness } from '@hotel/testing';
import { ACCOUNTING_ENTITIES, ACCOUNTING_MIGRATIONS } from '../accounting-app.module';
import { LedgerRepository } from './ledger.repository';
import { LedgerService, selfCreditPolicyFor } from './ledger.service';

// Service tier: LedgerService and its repository on a fresh PostgreSQL database with
// the accounting migrations (as AccountingAppModule lists them); the users service is a fake.

/** Made long before the accounting migrations ran: their accounts open with the `immediate` self-credit policy. */
const LONG_AGO = '2020-01-01T00:00:00.000Z';
/** Each test books for a client of its own: they share one database. Clients 5 to 8 are created now (after the policy change). */
const CLIENTS: Record<number, { creditLimit: string; currency?: string; createdAt?: string }> = {
  1: { creditLimit: '1000.00', createdAt: LONG_AGO },
  2: { creditLimit: '1000.00', createdAt: LONG_AGO },
  3: { creditLimit: '1000.00', createdAt: LONG_AGO },
  4: { creditLimit: '1000.00', createdAt: LONG_AGO },
  5: { creditLimit: '1000.00' },
  6: { creditLimit: '100000', currency: 'JPY' },
  7: { creditLimit: '1000.000', currency: 'KWD' },
  8: { creditLimit: '1000.00', currency: 'USD' },
};
const backend = (clientId: number): Actor => ({ clientId, userId: null, role: 'backend', sandbox: false });
const finance = (clientId: number): Actor => ({ clientId, userId: null, role: 'finance', sandbox: false });

describe('LedgerService (service tier: real PostgreSQL, fake users service)', () => {
  let harness: ServiceHarness;
  let ledger: LedgerService;

  beforeAll(async () => {
    harness = await startServiceHarness({
      name: 'accounting',
      providers: [LedgerRepository, LedgerService],
      migrations: ACCOUNTING_MIGRATIONS,
      entities: ACCOUNTING_ENTITIES,
      // Room for the race below: 12 holds in flight at once and the transaction holding them back.
      env: { DB_POOL_SIZE: '16' },
      handlers: {
        [SUBJECTS.USERS_CLIENT_GET]: ({ clientId }) => {
          const client = CLIENTS[clientId];
          if (!client) throw DomainError.notFound(`client ${clientId}`);
          return { clientId, creditLimit: client.creditLimit, currency: client.currency ?? 'EUR', createdAt: client.createdAt ?? new Date().toISOString() };
        },
      },
    });
    ledger = harness.get(LedgerService);
  });

  /** Until `count` statements of this database wait for a lock (or 20 s: the race then is only less sharp). */
  async function waitForLockWaits(count: number) {
    const deadline = Date.now() + 20_000;
    while (Date.now() < deadline) {
      const [{ waiting }] = await harness.dataSource.query(
        `SELECT count(*)::int AS waiting FROM pg_stat_activity WHERE datname = current_database() AND wait_event_type = 'Lock'`,
      );
      if (waiting >= count) return;
      await new Promise((resolve) => setTimeout(resolve, 20));
    }
  }

  afterAll(async () => {
    await harness?.close();
  });

  it('opens an account on first use with the credit terms from users; credits and debits move its balance', async () => {
    const actor = backend(1);
    expect(await ledger.balance(actor)).toEqual({ clientId: 1, currency: 'EUR', creditLimit: 1000, credits: 0, debits: 0, holds: 0, available: 1000 });
    expect(harness.client.callsTo(SUBJECTS.USERS_CLIENT_GET).map((call) => call.request)).toEqual([{ clientId: 1 }]);

    const { entry: credit } = await ledger.createEntry(actor, { clientId: 1, debit: 0, credit: 250.5, name: 'Bank transfer' });
    await ledger.createEntry(actor, { clientId: 1, debit: 100, credit: 0, name: 'Manual correction' });

    expect(credit).toMatchObject({ clientId: 1, credit: 250.5, debit: 0, name: 'Bank transfer' });
    expect(await ledger.balance(actor)).toMatchObject({ credits: 250.5, debits: 100, holds: 0, available: 1150.5 });
    expect((await ledger.listEntries(actor, 1, 10)).total).toBe(2);
  });

  it('concurrent holds never take the available funds below zero', async () => {
    const clientId = 2;
    await ledger.balance(backend(clientId)); // the account exists: the race is between the holds alone
    // Line the holds up: another transaction has the account row, so all 12 are in the
    // database, waiting, before any goes on (on a busy machine they would otherwise
    // arrive one after another and never race).
    const gate = harness.dataSource.createQueryRunner();
    await gate.connect();
    await gate.startTransaction();
    await gate.query(`SELECT 1 FROM accounting.accounts WHERE client_id = $1 FOR UPDATE`, [clientId]);
    // 12 holds of 150 against 1000 at once: 6 fit.
    const holds = Promise.allSettled(Array.from({ length: 12 }, (_, i) => ledger.placeHold({ currency: 'EUR', clientId, bookingId: 100 + i, amount: '150.00' })));
    try {
      await waitForLockWaits(12);
    } finally {
      await gate.commitTransaction();
      await gate.release();
    }
    const outcomes = await holds;

    const placed = outcomes.filter((outcome) => outcome.status === 'fulfilled');
    const refused = outcomes.filter((outcome): outcome is PromiseRejectedResult => outcome.status === 'rejected');
    expect(placed).toHaveLength(6);
    expect(refused.map((outcome) => (outcome.reason as DomainError).code)).toEqual(Array(6).fill('INSUFFICIENT_FUNDS'));
    expect(await ledger.balance(backend(clientId))).toMatchObject({ holds: 900, available: 100 });
  });

  it("a captured hold becomes the booking's one debit; a released one gives the funds back", async () => {
    const clientId = 3;
    const actor = backend(clientId);
    await ledger.placeHold({ currency: 'EUR', clientId, bookingId: 1, amount: '300.00' });
    await ledger.placeHold({ currency: 'EUR', clientId, bookingId: 2, amount: '200.00' });
    expect(await ledger.balance(actor)).toMatchObject({ holds: 500, available: 500 });

    const captured = await ledger.captureHold({ clientId, bookingId: 1, name: 'Booking 1' });
    // A repeated step (a saga retried) neither holds nor debits twice.
    await ledger.captureHold({ clientId, bookingId: 1, name: 'Booking 1' });
    await ledger.placeHold({ currency: 'EUR', clientId, bookingId: 1, amount: '300.00' });
    expect(captured).toMatchObject({ bookingId: 1, status: 'captured' });
    expect(await ledger.entriesForBooking(actor, 1)).toEqual([expect.objectContaining({ id: captured.entryId, debit: 300, credit: 0, name: 'Booking 1' })]);

    await ledger.releaseHold({ clientId, bookingId: 2 });
    expect(await ledger.releaseHold({ clientId, bookingId: 2 })).toMatchObject({ status: 'released' });
    expect(await ledger.balance(actor)).toMatchObject({ debits: 300, holds: 0, available: 700 });

    await expect(ledger.captureHold({ clientId, bookingId: 2 })).rejects.toMatchObject({ code: 'CONFLICT' });
    await expect(ledger.releaseHold({ clientId, bookingId: 1 })).rejects.toMatchObject({ code: 'CONFLICT' });
    await expect(ledger.placeHold({ currency: 'EUR', clientId, bookingId: 1, amount: '301.00' })).rejects.toMatchObject({ code: 'CONFLICT' });
  });

  it("the prebook's funds check and the hold apply one rule, a user's own limit included", async () => {
    const clientId = 4;
    expect(await ledger.checkFunds({ currency: 'EUR', clientId, amount: '1000.00' })).toEqual({ sufficient: true, available: '1000.00' });
    expect(await ledger.checkFunds({ currency: 'EUR', clientId, amount: '1000.01' })).toMatchObject({ sufficient: false });

    // User 7 may have 250 outstanding: 150 held leaves room for 100, not for 150.
    await ledger.placeHold({ currency: 'EUR', clientId, bookingId: 1, userId: 7, userLimit: '250.00', amount: '150.00' });
    expect(await ledger.checkFunds({ currency: 'EUR', clientId, userId: 7, userLimit: '250.00', amount: '100.00' })).toMatchObject({ sufficient: true });
    expect(await ledger.checkFunds({ currency: 'EUR', clientId, userId: 7, userLimit: '250.00', amount: '150.00' })).toMatchObject({ sufficient: false, available: '850.00' });
    await expect(ledger.placeHold({ currency: 'EUR', clientId, bookingId: 2, userId: 7, userLimit: '250.00', amount: '150.00' })).rejects.toMatchObject({
      code: 'INSUFFICIENT_FUNDS',
    });
    // Another user of the client is not held to user 7's limit.
    await expect(ledger.placeHold({ currency: 'EUR', clientId, bookingId: 3, userId: 8, userLimit: '250.00', amount: '150.00' })).resolves.toMatchObject({ status: 'active' });
  });

  describe('the self-credit policy an account opens with', () => {
    it('follows the default of the day the client was created: immediate before the policy change, pending since', () => {
      const defaults = [{ selfCredits: 'pending' as const, since: new Date('2026-12-01T00:00:00Z') }];
      expect(selfCreditPolicyFor('2026-11-30T23:59:59.999Z', defaults)).toBe('immediate');
      expect(selfCreditPolicyFor('2026-12-01T00:00:00.000Z', defaults)).toBe('pending');
      expect(selfCreditPolicyFor('2027-01-01T00:00:00.000Z', [])).toBe('immediate');
      // A client whose creation time the users service did not say: the strictest policy.
      expect(selfCreditPolicyFor(undefined, defaults)).toBe('pending');
      expect(selfCreditPolicyFor('not a date', defaults)).toBe('pending');
    });

    it("a client created before the migration keeps immediate when its account opens later; a new client's own credit is a request", async () => {
      const [{ since }] = await harness.dataSource.query(`SELECT since FROM accounting.self_credit_defaults WHERE self_credits = 'pending'`);
      expect(since).toBeInstanceOf(Date);
      // Client 1 (created in 2020) had its account opened by the first test, after the migration ran.
      expect((await ledger.createEntry(backend(1), { clientId: 1, debit: 0, credit: 5, name: 'Old client' })).entry).toMatchObject({ credit: 5 });

      const posted = await ledger.createEntry(backend(5), { clientId: 5, debit: 0, credit: 75, name: 'Wire' });
      expect(posted).toMatchObject({ entry: null, creditRequest: { status: 'pending', credit: 75, entryId: null } });
      expect(await ledger.balance(backend(5))).toMatchObject({ credits: 0, available: 1000 });
      // A debit, and the finance credential's credit, are booked at once.
      expect((await ledger.createEntry(backend(5), { clientId: 5, debit: 10, credit: 0, name: 'Fee' })).entry).toMatchObject({ debit: 10 });
      expect((await ledger.createEntry(finance(5), { clientId: 5, debit: 0, credit: 20, name: 'Wire by finance' })).entry).toMatchObject({ credit: 20 });

      // Confirmed by several finance calls at once: one entry, the money moves once.
      const id = posted.creditRequest!.id;
      const decisions = await Promise.all(Array.from({ length: 8 }, () => ledger.decideCreditRequest(finance(5), id, 'confirmed')));
      expect(new Set(decisions.map((decision) => decision.entryId)).size).toBe(1);
      expect(await ledger.balance(backend(5))).toMatchObject({ credits: 95, debits: 10, available: 1085 });
      expect((await ledger.listEntries(backend(5), 1, 10)).total).toBe(3);
    });
  });

  it.each([
    [6, 'JPY', 1.5, 1500, 'no decimals in JPY'],
    [7, 'KWD', 0, 1.234, ''],
    [8, 'USD', 1.005, 12.34, 'at most 2 decimals in USD'],
  ])("refuses amounts finer than the account currency's minor unit (client %i, %s)", async (clientId, currency, refused, accepted, message) => {
    if (refused) {
      for (const field of ['debit', 'credit'] as const) {
        const entry = { clientId, debit: 0, credit: 0, name: 'Too fine', [field]: refused };
        await expect(ledger.createEntry(finance(clientId), entry)).rejects.toMatchObject({ code: 'VALIDATION_FAILED', errors: [{ field, message: expect.stringContaining(message) }] });
      }
    }
    const posted = await ledger.createEntry(finance(clientId), { clientId, debit: 0, credit: accepted, name: 'Fits' });
    expect(posted.entry).toMatchObject({ credit: accepted });
    expect(await ledger.balance(finance(clientId))).toMatchObject({ currency, credits: accepted });
  });

  it("moves booking money only in the account's currency and its minor unit: a price in another is refused, nothing held or written", async () => {
    // Client 6's account is in JPY.
    const before = await ledger.balance(finance(6));
    await expect(ledger.placeHold({ currency: 'USD', clientId: 6, bookingId: 61, amount: '180.00' })).rejects.toMatchObject({ code: 'CURRENCY_MISMATCH', message: expect.stringContaining('JPY') });
    await expect(ledger.placeHold({ currency: 'JPY', clientId: 6, bookingId: 62, amount: '180.50' })).rejects.toMatchObject({ code: 'CURRENCY_MISMATCH' });
    await expect(ledger.checkFunds({ currency: 'EUR', clientId: 6, amount: '10.00' })).rejects.toMatchObject({ code: 'CURRENCY_MISMATCH' });
    await expect(ledger.refund({ currency: 'USD', clientId: 6, bookingId: 63, amount: '10.00', name: 'Refund' })).rejects.toMatchObject({ code: 'CURRENCY_MISMATCH' });
    await expect(ledger.recordCardPayment({ currency: 'USD', clientId: 6, bookingId: 64, amount: '10.00', name: 'Card', ccPaymentId: 'ch_1' })).rejects.toMatchObject({
      code: 'CURRENCY_MISMATCH',
    });
    expect(await ledger.balance(finance(6))).toEqual(before);
    await expect(ledger.placeHold({ currency: 'JPY', clientId: 6, bookingId: 65, amount: '180' })).resolves.toMatchObject({ status: 'active' });
  });

  it('a client the users service does not know gets no account', async () => {
    await expect(ledger.balance(backend(99))).rejects.toMatchObject({ code: 'NOT_FOUND' });
    await expect(ledger.placeHold({ currency: 'EUR', clientId: 99, bookingId: 1, amount: '10.00' })).rejects.toMatchObject({ code: 'NOT_FOUND' });
  });
});
