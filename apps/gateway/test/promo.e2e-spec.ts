import { SUBJECTS } from '@hotel/contracts';
import { ServiceClient } from '@hotel/platform';
import { bearer, queryTestDatabase } from '@hotel/testing';
import { TestSystem } from './system';

/** Promo codes: created by operators, validated by POST /book/promocode, consumed atomically. */
describe('promo codes', () => {
  let system: TestSystem;
  let auth: { authorization: string };
  let services: ServiceClient;

  let sandboxAuth: { authorization: string };

  beforeAll(async () => {
    system = await TestSystem.start({}, ['users', 'promo']);
    const acme = await system.createClient('Acme Travel');
    auth = bearer(acme.api_key);
    sandboxAuth = bearer(acme.sandbox_api_key);
    // The booking service is the one that redeems codes.
    services = await system.busClient('booking');
  });
  afterAll(async () => {
    await system?.close();
  });

  const validate = (code: string, booking_amount: unknown) => system.request('POST', '/book/promocode', { headers: auth, json: { code, booking_amount } });

  it('create-promo prints the code; POST /book/promocode quotes percent and fixed discounts', async () => {
    const percent = await system.admin('create-promo', '--code', 'SUMMER10', '--percent', '10', '--min-amount', '100', '--max-uses', '100', '--expires', '2099-12-31');
    expect(percent.code).toBe(0);
    expect(percent.json).toEqual({ code: 'SUMMER10', kind: 'percent', value: '10.00', currency: 'USD', min_amount: '100.00', max_uses: 100, uses: 0, expires: '2099-12-31' });
    const amount = await system.admin('create-promo', '--code', 'WELCOME25', '--amount', '25');
    expect(amount.json).toMatchObject({ code: 'WELCOME25', kind: 'amount', value: '25.00', min_amount: null, max_uses: null, expires: null });

    const tenPercent = await validate('SUMMER10', 245.55);
    expect(tenPercent.status).toBe(200);
    expect(tenPercent.body).toEqual({ data: { price_discount_amount: 24.56, price_currency: 'USD' }, success: true, message: null });
    expect((await validate('summer10', 1000)).body.data.price_discount_amount).toBe(100);
    expect((await validate('WELCOME25', 80)).body.data.price_discount_amount).toBe(25);
    // A fixed discount never exceeds the booking.
    expect((await validate('WELCOME25', 10)).body.data.price_discount_amount).toBe(10);
  });

  it.each([
    ['an unknown code', 'NOPE', 100, /unknown/],
    ['a code below its minimum amount', 'SUMMER10', 99.99, /minimum amount/],
  ])('answers 400 for %s with the reason', async (_name, code, amount, reason) => {
    const response = await validate(code, amount);
    expect(response.status).toBe(400);
    expect(response.body).toMatchObject({ data: null, success: false, code: 'PROMO_CODE_INVALID', message: expect.stringMatching(reason) });
  });

  it('answers 400 for an expired code and a used-up code', async () => {
    await system.admin('create-promo', '--code', 'OLDIE', '--percent', '5');
    await queryTestDatabase(system.database.url, `UPDATE promo.codes SET expires = current_date - 1 WHERE code = 'OLDIE'`);
    expect((await validate('OLDIE', 100)).body).toMatchObject({ code: 'PROMO_CODE_INVALID', message: expect.stringMatching(/expired/) });

    await system.admin('create-promo', '--code', 'ONCE', '--amount', '5', '--max-uses', '1');
    await services.send(SUBJECTS.PROMO_CODE_REDEEM, { code: 'ONCE', amount: '100.00', currency: 'USD', clientId: 1, bookingId: 1, sandbox: false });
    expect((await validate('ONCE', 100)).body).toMatchObject({ code: 'PROMO_CODE_INVALID', message: expect.stringMatching(/used up/) });
  });

  it.each([
    [{ booking_amount: 100 }, 'code'],
    [{ code: 'SUMMER10' }, 'booking_amount'],
    [{ code: 'SUMMER10', booking_amount: '100' }, 'booking_amount'],
    [{ code: 'SUMMER10', booking_amount: -5 }, 'booking_amount'],
    [{ code: 'SUMMER10', booking_amount: 10.555 }, 'booking_amount'],
    [{ code: '', booking_amount: 100 }, 'code'],
  ])('answers 400 for the body %j', async (body, field) => {
    const response = await system.request('POST', '/book/promocode', { headers: auth, json: body });
    expect(response.status).toBe(400);
    expect(response.body.errors.map((error: { field: string }) => error.field)).toContain(field);
  });

  it('never consumes a limited code more often than it allows, even concurrently', async () => {
    await system.admin('create-promo', '--code', 'FLASH5', '--percent', '20', '--max-uses', '5');
    const attempts = await Promise.allSettled(
      Array.from({ length: 25 }, (_, i) => services.send(SUBJECTS.PROMO_CODE_REDEEM, { code: 'FLASH5', amount: '200.00', currency: 'USD', clientId: 7, bookingId: 500 + i, sandbox: false })),
    );
    expect(attempts.filter((attempt) => attempt.status === 'fulfilled')).toHaveLength(5);
    for (const attempt of attempts) {
      if (attempt.status === 'rejected') expect(attempt.reason).toMatchObject({ code: 'PROMO_CODE_INVALID', message: 'promo code used up' });
    }
    const [row] = await queryTestDatabase<{ uses: number; redemptions: number }>(
      system.database.url,
      `SELECT uses, (SELECT count(*)::int FROM promo.redemptions WHERE code = 'FLASH5') AS redemptions FROM promo.codes WHERE code = 'FLASH5'`,
    );
    expect(row).toEqual({ uses: 5, redemptions: 5 });
  });

  describe('uses per world: sandbox traffic never uses up a live code', () => {
    const redeem = (code: string, bookingId: number, sandbox: boolean) => services.send(SUBJECTS.PROMO_CODE_REDEEM, { code, amount: '100.00', currency: 'USD', clientId: 11, bookingId, sandbox });
    const uses = async (code: string) =>
      (await queryTestDatabase<{ uses: number; sandbox_uses: number }>(system.database.url, `SELECT uses, sandbox_uses FROM promo.codes WHERE code = $1`, [code]))[0];

    it('a code with max_uses 1 redeemed at once by a sandbox and a live booking: both succeed; a second of either world is used up', async () => {
      // Several codes, each redeemed by a sandbox and a live booking sent together: the two counters never cross.
      for (let round = 1; round <= 5; round++) {
        const code = `RACE${round}`;
        await system.admin('create-promo', '--code', code, '--amount', '5', '--max-uses', '1');
        const [sandbox, live] = await Promise.all([redeem(code, 1000 + round * 10, true), redeem(code, 1001 + round * 10, false)]);
        expect(sandbox).toEqual({ code, discount: '5.00', currency: 'USD' });
        expect(live).toEqual({ code, discount: '5.00', currency: 'USD' });
        expect(await uses(code)).toEqual({ uses: 1, sandbox_uses: 1 });
        await expect(redeem(code, 2000 + round, false)).rejects.toMatchObject({ code: 'PROMO_CODE_INVALID', message: 'promo code used up' });
        await expect(redeem(code, 2100 + round, true)).rejects.toMatchObject({ code: 'PROMO_CODE_INVALID', message: 'promo code used up' });
      }
    });

    it('many concurrent sandbox redemptions leave every live use to live bookings', async () => {
      await system.admin('create-promo', '--code', 'LIVE3', '--percent', '10', '--max-uses', '3');
      const attempts = await Promise.allSettled([
        ...Array.from({ length: 12 }, (_, i) => redeem('LIVE3', 3000 + i, true)),
        ...Array.from({ length: 6 }, (_, i) => redeem('LIVE3', 3100 + i, false)),
      ]);
      const succeeded = (from: number, to: number) => attempts.slice(from, to).filter((attempt) => attempt.status === 'fulfilled').length;
      expect([succeeded(0, 12), succeeded(12, 18)]).toEqual([3, 3]);
      expect(await uses('LIVE3')).toEqual({ uses: 3, sandbox_uses: 3 });
      const [{ worlds }] = await queryTestDatabase<{ worlds: string }>(
        system.database.url,
        `SELECT string_agg(sandbox::text || ':' || n, ',' ORDER BY sandbox) AS worlds FROM (SELECT sandbox, count(*) AS n FROM promo.redemptions WHERE code = 'LIVE3' GROUP BY sandbox) s`,
      );
      expect(worlds).toBe('false:3,true:3');
    });

    it('POST /book/promocode quotes against the key’s world: a code used up in sandbox is still valid live, and the reverse', async () => {
      await system.admin('create-promo', '--code', 'SOLO', '--amount', '7', '--max-uses', '1');
      await redeem('SOLO', 4000, true);
      const quote = (headers: { authorization: string }) => system.request('POST', '/book/promocode', { headers, json: { code: 'SOLO', booking_amount: 100 } });
      expect((await quote(sandboxAuth)).body).toMatchObject({ code: 'PROMO_CODE_INVALID', message: expect.stringMatching(/used up/) });
      expect((await quote(auth)).body.data).toEqual({ price_discount_amount: 7, price_currency: 'USD' });
      await redeem('SOLO', 4001, false);
      expect((await quote(auth)).body).toMatchObject({ code: 'PROMO_CODE_INVALID', message: expect.stringMatching(/used up/) });
    });
  });

  it('redeems once per booking: a repeat returns the first discount and uses nothing', async () => {
    await system.admin('create-promo', '--code', 'TWICE', '--amount', '10', '--max-uses', '2');
    const first = await services.send(SUBJECTS.PROMO_CODE_REDEEM, { code: 'TWICE', amount: '50.00', currency: 'USD', clientId: 9, bookingId: 1, sandbox: false });
    const again = await services.send(SUBJECTS.PROMO_CODE_REDEEM, { code: 'TWICE', amount: '50.00', currency: 'USD', clientId: 9, bookingId: 1, sandbox: false });
    expect(again).toEqual(first);
    const [row] = await queryTestDatabase<{ uses: number }>(system.database.url, `SELECT uses FROM promo.codes WHERE code = 'TWICE'`);
    expect(row.uses).toBe(1);
  });

  it.each([
    [['create-promo', '--percent', '10'], '--code'],
    [['create-promo', '--code', 'X1X', '--percent', '10', '--amount', '5'], 'exactly one'],
    [['create-promo', '--code', 'X1X', '--percent', '150'], 'at most 100'],
    [['create-promo', '--code', 'X1X', '--amount', 'lots'], '--amount'],
    [['create-promo', '--code', 'X1X', '--amount', '5', '--expires', '31/12/2027'], '--expires'],
    [['create-promo', '--code', 'X1X', '--amount', '5', '--max-uses', '0'], '--max-uses'],
  ])('create-promo %j: usage and exit code 2', async (argv, mention) => {
    const result = await system.admin(...argv);
    expect(result.code).toBe(2);
    expect(result.stderr).toContain(mention);
  });

  it('refuses a code that exists already', async () => {
    const result = await system.admin('create-promo', '--code', 'SUMMER10', '--percent', '15');
    expect(result.code).toBe(1);
    expect(JSON.parse(result.stderr).error.code).toBe('CONFLICT');
  });
});
