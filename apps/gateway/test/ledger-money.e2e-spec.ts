import { request as httpsRequest } from 'node:https';
import { inflateSync } from 'node:zlib';
import { bearer, bookV1, day, parseCsv, prebookV1, queryTestDatabase, repeatWhileUnavailable, settledBooking, staySequence } from '@hotel/testing';
import { groupedAmount } from '../src/backend/statement-pdf';
import { ClientKeys, TestSystem } from './system';

/** A decimal string as integer thousandths, exactly (bigint). */
function milli(amount: string): bigint {
  const [units, fraction = ''] = amount.replace('-', '').split('.');
  const value = BigInt(units) * 1000n + BigInt(fraction.padEnd(3, '0'));
  return amount.startsWith('-') ? -value : value;
}

/** Thousandths written with `decimals` decimals (exactly; the figures here never have finer ones). */
function written(value: bigint, decimals: number): string {
  const sign = value < 0n ? '-' : '';
  const absolute = value < 0n ? -value : value;
  const fraction = String(absolute % 1000n).padStart(3, '0').slice(0, decimals);
  return `${sign}${absolute / 1000n}${decimals ? `.${fraction}` : ''}`;
}

/** The text lines of a PDF that pdfkit wrote: its content streams inflated, each TJ array's hex strings decoded (WinAnsi: digits and ASCII as is). */
function pdfLines(pdf: Buffer): string[] {
  const lines: string[] = [];
  const binary = pdf.toString('latin1');
  // pdfkit writes `stream\n<data>\nendstream`: the data may end in any byte (a \r too), so exactly one \n is taken off each side.
  for (const [, data] of binary.matchAll(/stream\n([\s\S]*?)\nendstream/g)) {
    let content: string;
    try {
      content = inflateSync(Buffer.from(data, 'latin1')).toString('latin1');
    } catch {
      continue;
    }
    for (const [, array] of content.matchAll(/\[([^\]]*)\]\s*TJ/g)) {
      lines.push([...array.matchAll(/<([0-9a-fA-F]*)>/g)].map(([, hex]) => Buffer.from(hex, 'hex').toString('latin1')).join(''));
    }
  }
  return lines;
}

/** The ledger in the account's currency, bounded amounts, sums that cannot overflow, and how bookings' prices were converted. */
describe('ledger money', () => {
  let system: TestSystem;
  let acme: ClientKeys;
  let finance: { authorization: string };
  const today = day(0);
  const yesterday = day(-1);

  /** The answer's bytes (a PDF is not text). */
  const download = (path: string, headers: Record<string, string>) =>
    new Promise<{ status: number; body: Buffer; type: string }>((resolve, reject) => {
      const request = httpsRequest(new URL(path, system.url), { headers, rejectUnauthorized: false }, (response) => {
        const chunks: Buffer[] = [];
        response.on('data', (chunk: Buffer) => chunks.push(chunk));
        response.on('end', () => resolve({ status: response.statusCode ?? 0, body: Buffer.concat(chunks), type: String(response.headers['content-type']) }));
        response.on('error', reject);
      });
      request.on('error', reject);
      request.end();
    });

  const createClient = async (name: string, currency: string, creditLimit: string): Promise<ClientKeys> => {
    const created = await system.admin('create-client', '--name', name, '--credit-limit', creditLimit, '--currency', currency);
    if (created.code !== 0) throw new Error(`create-client failed: ${created.stderr}`);
    return created.json;
  };
  const post = (headers: Record<string, string>, clientId: number, body: Record<string, unknown>) =>
    system.request('POST', '/api/accounting', { headers, json: { debit: 0, credit: 0, name: 'Entry', clientId, ...body } });
  const get = (path: string, clientId: number, headers: Record<string, string> = finance) => system.request('GET', `${path}${path.includes('?') ? '&' : '?'}clientId=${clientId}`, { headers });

  beforeAll(async () => {
    ({ system, acme } = await TestSystem.startWithClient());
    // Rates that quote KWD (the shipped snapshot does not): a KWD client needs one.
    await system.importFxRates();
    const created = await system.admin('create-finance-token', '--name', 'Ledger money');
    finance = { authorization: created.json.finance_token };
  }, 60_000);
  afterAll(async () => {
    await system?.close();
  });

  describe('in the account currency: JPY none, USD two, KWD three decimals', () => {
    let yen: ClientKeys;
    let dinar: ClientKeys;
    let dollar: ClientKeys;
    beforeAll(async () => {
      [yen, dinar, dollar] = [await createClient('Yen Travel', 'JPY', '100000'), await createClient('Dinar Travel', 'KWD', '1000'), await createClient('Dollar Travel', 'USD', '1000')];
    });

    it.each([
      ['JPY', () => yen, [['credit', 1.5], ['debit', 0.5], ['credit', 100.1]]],
      ['USD', () => dollar, [['credit', 1.005], ['debit', 0.001]]],
      ['KWD', () => dinar, [['credit', 1.0005], ['debit', 0.0001]]],
    ] as const)('refuses an amount finer than %s allows: 400 VALIDATION_FAILED naming the field, whichever credential posts it', async (_currency, client, cases) => {
      for (const [field, amount] of cases) {
        for (const headers of [finance, { authorization: client().backend_token }]) {
          const response = await post(headers, client().client_id, { [field]: amount });
          expect(response.status).toBe(400);
          expect(response.body.code).toBe('VALIDATION_FAILED');
          expect(new Set(response.body.errors.map((error: { field: string }) => error.field))).toEqual(new Set([field]));
        }
      }
      expect((await get('/api/accounting', client().client_id)).body.total).toBe(0);
    });

    it('writes every figure with the currency’s decimals: entries, balance, statement (JSON, CSV, PDF), daily balance, ledger CSV', async () => {
      const cases = [
        { client: yen, currency: 'JPY', decimals: 0, limit: '100000', credit: 150000, debit: 1234 },
        { client: dinar, currency: 'KWD', decimals: 3, limit: '1000', credit: 10.5, debit: 0.125 },
        { client: dollar, currency: 'USD', decimals: 2, limit: '1000', credit: 250.5, debit: 0.3 },
      ];
      for (const { client, currency, decimals, limit, credit, debit } of cases) {
        const clientId = client.client_id;
        const amount = (value: bigint) => written(value, decimals);
        const [credited, debited] = [milli(String(credit)), milli(String(debit))];
        const closing = credited - debited;
        expect((await post(finance, clientId, { credit, name: 'Wire' })).body.data).toMatchObject({ credit, debit: 0 });
        expect((await post(finance, clientId, { debit, name: 'Fee' })).body.data).toMatchObject({ credit: 0, debit });

        expect((await get('/api/accounting', clientId)).body.data.map((entry: { debit: number; credit: number }) => [entry.debit, entry.credit])).toEqual([
          [debit, 0],
          [0, credit],
        ]);
        expect((await get('/api/accounting/balance', clientId)).body.data).toEqual({
          clientId,
          currency,
          creditLimit: Number(limit),
          credits: credit,
          debits: debit,
          holds: 0,
          available: Number(amount(milli(limit) + closing)),
        });

        const statement = (await get(`/api/accounting/statement?from=${today}&to=${today}`, clientId)).body.data;
        expect(statement).toMatchObject({ currency, openingBalance: 0, totalCredits: credit, totalDebits: debit, closingBalance: Number(amount(closing)), entryCount: 2 });
        expect(statement.entries.map((entry: { fx: unknown }) => entry.fx)).toEqual([null, null]);

        const csv = parseCsv((await get(`/api/accounting/statement?from=${today}&to=${today}&format=csv`, clientId)).text);
        expect(csv.map((row) => [row[2], row[3], row[4], row[5]])).toEqual([
          ['name', 'debit', 'credit', 'balance'],
          ['Opening balance', '', '', amount(0n)],
          ['Wire', amount(0n), amount(credited), amount(credited)],
          ['Fee', amount(debited), amount(0n), amount(closing)],
          ['Closing balance', amount(debited), amount(credited), amount(closing)],
        ]);

        const pdf = await download(`/api/accounting/statement?from=${today}&to=${today}&format=pdf&clientId=${clientId}`, finance);
        expect(pdf.type).toBe('application/pdf');
        const lines = pdfLines(pdf.body);
        // Grouped in thousands, as a reader writes them.
        const grouped = (value: bigint) => groupedAmount(amount(value));
        for (const figure of [grouped(credited), grouped(debited), grouped(closing)]) expect(lines).toContain(figure);
        expect(lines).toContain(`Credit limit ${grouped(milli(limit))} · available at the end ${grouped(milli(limit) + closing)} ${currency}`);

        expect((await get(`/api/accounting/balance/daily?from=${today}&to=${today}`, clientId)).body.data.days).toEqual([
          { day: today, credits: credit, debits: debit, closingBalance: Number(amount(closing)), available: Number(amount(milli(limit) + closing)) },
        ]);

        const ledger = parseCsv((await get('/api/accounting?format=csv', clientId)).text);
        expect(ledger.slice(1).map((row) => [row[3], row[4], row[9]])).toEqual([
          [amount(0n), amount(credited), currency],
          [amount(debited), amount(0n), currency],
        ]);
      }
    });
  });

  it('takes amounts up to 999,999,999.99 and no more (400 naming the field)', async () => {
    const client = await createClient('Edge Travel', 'USD', '0');
    expect((await post(finance, client.client_id, { credit: 999_999_999.99 })).status).toBe(201);
    for (const [field, amount] of [
      ['credit', 1_000_000_000],
      ['credit', 999_999_999.991],
      ['debit', 1_000_000_000],
      ['debit', 999_999_999.991],
    ] as const) {
      const response = await post(finance, client.client_id, { [field]: amount });
      expect(response.status).toBe(400);
      expect(new Set(response.body.errors.map((error: { field: string }) => error.field))).toEqual(new Set([field]));
    }
  });

  it('no figure overflows: hundreds of maximal credits through the API on top of ten thousand, read back exactly everywhere, then an account prebook and booking', async () => {
    const MAX = '999999999.99';
    const API_CREDITS = 300;
    const SEEDED = 10_000;
    const whale = await createClient('Whale Travel', 'USD', '1000');
    const clientId = whale.client_id;
    // Yesterday: ten thousand maximal credits written straight into the ledger (with the account's totals),
    // so the sums pass 2^53 thousandths; a JavaScript number of thousandths would no longer be exact.
    expect((await get('/api/accounting/balance', clientId)).status).toBe(200); // opens the account
    await queryTestDatabase(
      system.database.url,
      `WITH seeded AS (
         INSERT INTO accounting.entries (client_id, kind, debit, credit, name, created_at, updated_at)
         SELECT $1, 'manual', 0, $2::numeric, 'Seeded credit ' || i, $3::timestamptz + i * interval '1 ms', $3::timestamptz + i * interval '1 ms'
           FROM generate_series(1, $4::int) AS i RETURNING credit)
       UPDATE accounting.accounts SET total_credit = total_credit + (SELECT sum(credit) FROM seeded), entry_count = entry_count + $4::int WHERE client_id = $1`,
      [clientId, MAX, `${yesterday}T01:00:00Z`, SEEDED],
    );
    // Today: maximal credits through the API, by the finance credential and by the client's own backend token (under `immediate`), concurrently in batches.
    // Each as a client sends money: with an Idempotency-Key, repeated after a 503 (thirty writes to one
    // account queue on its row, and on a busy machine some outlive the call): still credited once (the sums below).
    expect((await system.admin('set-credit-policy', '--client-id', String(clientId), '--self-credits', 'immediate')).code).toBe(0);
    const started = Date.now();
    for (let batch = 0; batch < API_CREDITS; batch += 30) {
      const answers = await Promise.all(
        Array.from({ length: 30 }, (_, i) => {
          const credential = (batch + i) % 2 ? finance : { authorization: whale.backend_token };
          const headers = { ...credential, 'idempotency-key': `whale-wire-${batch + i}` };
          return repeatWhileUnavailable(() => post(headers, clientId, { credit: Number(MAX), name: `Wire ${batch + i}` }));
        }),
      );
      expect(answers.map((answer) => answer.status)).toEqual(Array(30).fill(201));
    }
    process.stdout.write(`${API_CREDITS} maximal credits posted in ${Date.now() - started} ms\n`);

    // What the figures must be, in bigint.
    const one = milli(MAX);
    const limit = milli('1000');
    const opening = one * BigInt(SEEDED);
    const todays = one * BigInt(API_CREDITS);
    const total = opening + todays;
    expect(total > BigInt(Number.MAX_SAFE_INTEGER)).toBe(true);
    const usd = (value: bigint) => written(value, 2);
    const number = (value: bigint) => Number(usd(value));

    const balance = await get('/api/accounting/balance', clientId);
    expect(balance.status).toBe(200);
    expect(balance.body.data).toEqual({ clientId, currency: 'USD', creditLimit: 1000, credits: number(total), debits: 0, holds: 0, available: number(limit + total) });

    const entries = await get('/api/accounting?limit=500', clientId);
    expect(entries.status).toBe(200);
    expect(entries.body.total).toBe(SEEDED + API_CREDITS);
    expect(entries.body.data).toHaveLength(500);
    expect(entries.body.data.every((entry: { credit: number }) => entry.credit === 999_999_999.99)).toBe(true);

    const statement = await get(`/api/accounting/statement?from=${today}&to=${today}`, clientId);
    expect(statement.status).toBe(200);
    expect(statement.body.data).toMatchObject({
      openingBalance: number(opening),
      totalCredits: number(todays),
      totalDebits: 0,
      closingBalance: number(total),
      availableAtEnd: number(limit + total),
      entryCount: API_CREDITS,
    });
    expect(statement.body.data.entries).toHaveLength(API_CREDITS);

    const csv = parseCsv((await get(`/api/accounting/statement?from=${today}&to=${today}&format=csv`, clientId)).text);
    expect(csv).toHaveLength(API_CREDITS + 3);
    expect(csv[1].slice(2)).toEqual(['Opening balance', '', '', usd(opening)]);
    // Each entry's running balance, exactly.
    csv.slice(2, -1).forEach((row, i) => expect([row[4], row[5]]).toEqual([usd(one), usd(opening + one * BigInt(i + 1))]));
    expect(csv[csv.length - 1].slice(2)).toEqual(['Closing balance', '0.00', usd(todays), usd(total)]);

    const pdf = await download(`/api/accounting/statement?from=${today}&to=${today}&format=pdf&clientId=${clientId}`, finance);
    expect(pdf.status).toBe(200);
    const lines = pdfLines(pdf.body);
    // Grouped in thousands (exactly: a string, however big).
    for (const figure of [usd(opening), usd(opening + one), usd(total), usd(todays)]) expect(lines).toContain(groupedAmount(figure));
    expect(lines).toContain(`Credit limit 1,000.00 \u00b7 available at the end ${groupedAmount(usd(limit + total))} USD`);

    const daily = await get(`/api/accounting/balance/daily?from=${yesterday}&to=${today}`, clientId);
    expect(daily.status).toBe(200);
    expect(daily.body.data).toMatchObject({ openingBalance: 0, creditLimit: 1000 });
    expect(daily.body.data.days).toEqual([
      { day: yesterday, credits: number(opening), debits: 0, closingBalance: number(opening), available: number(limit + opening) },
      { day: today, credits: number(todays), debits: 0, closingBalance: number(total), available: number(limit + total) },
    ]);

    const reconciliation = await get(`/api/accounting/reconciliation?from=${yesterday}&to=${today}`, clientId);
    expect(reconciliation.status).toBe(200);
    expect(reconciliation.body.data).toMatchObject({ currency: 'USD', mismatchCount: 0 });

    // The whole ledger as CSV: every credit, summed in bigint, is the balance.
    const ledger = await download(`/api/accounting?format=csv&clientId=${clientId}`, finance);
    expect(ledger.status).toBe(200);
    const rows = parseCsv(ledger.body.toString('utf8')).slice(1);
    expect(rows).toHaveLength(SEEDED + API_CREDITS);
    expect(usd(rows.reduce((sum, row) => sum + milli(row[4]) - milli(row[3]), 0n))).toBe(usd(total));

    // An account prebook (the funds check reads the available funds) and a booking (hold, debit).
    const live = bearer(whale.api_key);
    const stay = staySequence(40)();
    const { prebook } = await prebookV1(system, live, stay);
    expect(prebook.rate.payment_type).toBe('account');
    const booked = await bookV1(system, live, staySequence(60)());
    expect(await settledBooking(system, booked.id)).toMatchObject({ status: 'confirmed' });
    const price = milli(String(booked.price_chargeable));
    const after = (await get('/api/accounting/balance', clientId)).body.data;
    expect(after).toMatchObject({ debits: booked.price_chargeable, holds: 0, available: number(limit + total - price) });
  }, 180_000);

  describe('bookings: reconciliation per currency and the exchange rates in exports', () => {
    const nextStay = staySequence(90);
    let converted: { id: number; price_chargeable: number };
    let foreign: { id: number; price_chargeable: number };

    beforeAll(async () => {
      const live = bearer(acme.api_key);
      converted = await bookV1(system, live, nextStay());
      foreign = await bookV1(system, live, nextStay(), { hotelIndex: 1 });
      for (const booking of [converted, foreign]) expect(await settledBooking(system, booking.id)).toMatchObject({ status: 'confirmed' });
      // As prices converted from the vendor's currency record it (BookingFx), and a booking priced in another currency than the account's.
      await queryTestDatabase(
        system.database.url,
        `UPDATE booking.bookings SET vendor_currency = 'EUR', vendor_price = 180.5, fx_rate = 1.0975, fx_rate_date = '2026-11-20', fx_margin_percent = 1.5 WHERE id = $1`,
        [converted.id],
      );
      await queryTestDatabase(
        system.database.url,
        `UPDATE booking.bookings SET price_currency = 'JPY', vendor_currency = 'JPY', vendor_price = 36000, fx_rate = 1, fx_rate_date = NULL, fx_margin_percent = 0 WHERE id = $1`,
        [foreign.id],
      );
    }, 120_000);

    it('compares per currency: a booking in another currency is currency_differs, totalled apart, with its vendor price and rate', async () => {
      const result = await get(`/api/accounting/reconciliation?from=${today}&to=${today}`, acme.client_id);
      expect(result.status).toBe(200);
      const data = result.body.data;
      expect(data.currency).toBe('USD');
      expect(data.totals.confirmed).toEqual({ count: 1, amount: converted.price_chargeable, currency: 'USD' });
      expect(data.otherCurrencies).toEqual([
        {
          currency: 'JPY',
          totals: {
            pending: { count: 0, amount: 0, currency: 'JPY' },
            confirmed: { count: 1, amount: foreign.price_chargeable, currency: 'JPY' },
            cancelled: { count: 0, amount: 0, currency: 'JPY' },
            failed: { count: 0, amount: 0, currency: 'JPY' },
          },
        },
      ]);
      expect(data.mismatches).toEqual([
        expect.objectContaining({
          kind: 'currency_differs',
          bookingId: foreign.id,
          expected: foreign.price_chargeable,
          actual: foreign.price_chargeable,
          currency: 'JPY',
          vendorCurrency: 'JPY',
          vendorPrice: '36000',
          fxRate: '1',
          fxRateDate: null,
        }),
      ]);
      // A planted debit of another amount is listed with the booking's conversion.
      await queryTestDatabase(system.database.url, `UPDATE booking.bookings SET price_chargeable = price_chargeable + 1 WHERE id = $1`, [converted.id]);
      const again = (await get(`/api/accounting/reconciliation?from=${today}&to=${today}`, acme.client_id)).body.data;
      expect(again.mismatches).toContainEqual(
        expect.objectContaining({ kind: 'debit_amount_differs', bookingId: converted.id, currency: 'USD', vendorPrice: '180.50', vendorCurrency: 'EUR', fxRate: '1.0975', fxRateDate: '2026-11-20' }),
      );
      await queryTestDatabase(system.database.url, `UPDATE booking.bookings SET price_chargeable = price_chargeable - 1 WHERE id = $1`, [converted.id]);
    });

    it("exports show each booking entry's vendor price, currency, rate and its date: ledger CSV (new columns at the end) and statement JSON", async () => {
      const csv = parseCsv((await get('/api/accounting?format=csv', acme.client_id)).text);
      expect(csv[0].slice(9)).toEqual(['currency', 'vendorPrice', 'vendorCurrency', 'fxRate', 'fxRateDate']);
      const byBooking = (id: number) => csv.find((row) => row[5] === String(id))!;
      expect(byBooking(converted.id).slice(9)).toEqual(['USD', '180.50', 'EUR', '1.0975', '2026-11-20']);
      expect(byBooking(foreign.id).slice(9)).toEqual(['USD', '36000', 'JPY', '1', '']);

      const statement = (await get(`/api/accounting/statement?from=${today}&to=${today}`, acme.client_id)).body.data;
      const entry = statement.entries.find((item: { bookingId: number | null }) => item.bookingId === converted.id);
      expect(entry).toMatchObject({ debit: converted.price_chargeable, fx: { vendorPrice: '180.50', vendorCurrency: 'EUR', fxRate: '1.0975', fxRateDate: '2026-11-20' } });
    });
  });
});
