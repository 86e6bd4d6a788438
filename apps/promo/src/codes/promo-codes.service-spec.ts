import { RedeemPromoRequest } from '@hotel/contracts';
import { DomainError, ServiceEnv } from '@hotel/platform';
import { ServiceHarness, startServiceHarness } from '@hotel/testing';
import { PROMO_ENTITIES, PROMO_MIGRATIONS, PromoAppModule } from '../promo-app.module';
import { PromoCodesService } from './promo-codes.service';

// Service tier: PromoCodesService with the promo app's providers and migrations on a fresh
// PostgreSQL database: what a code gives, and its uses under racing redemptions.

describe('PromoCodesService (service tier: real PostgreSQL)', () => {
  let harness: ServiceHarness;
  let promo: PromoCodesService;
  let nextBooking = 1;

  const redeem = (code: string, changes: Partial<RedeemPromoRequest> = {}): Promise<unknown> =>
    promo.redeem({ code, amount: '200.00', currency: 'EUR', sandbox: false, clientId: 1, bookingId: nextBooking++, ...changes }).catch((error: unknown) => error);
  const uses = async (code: string) =>
    ((await harness.dataSource.query(`SELECT uses, sandbox_uses FROM promo.codes WHERE code = $1`, [code])) as { uses: number; sandbox_uses: number }[])[0];

  beforeAll(async () => {
    harness = await startServiceHarness({
      name: 'promo',
      providers: (env: ServiceEnv) => PromoAppModule.register(env).providers ?? [],
      entities: PROMO_ENTITIES,
      migrations: PROMO_MIGRATIONS,
    });
    promo = harness.get(PromoCodesService);
  });
  afterAll(async () => {
    await harness?.close();
  });

  it('gives exactly maxUses redemptions to 20 bookings racing for them; the others are told it is used up', async () => {
    await promo.create({ code: 'RACE5', kind: 'percent', value: '10', currency: 'EUR', maxUses: 5 });
    const answers = await Promise.all(Array.from({ length: 20 }, () => redeem('RACE5')));
    const redeemed = answers.filter((answer) => !(answer instanceof Error));
    expect(redeemed).toHaveLength(5);
    for (const answer of redeemed) expect(answer).toEqual({ code: 'RACE5', discount: '20.00', currency: 'EUR' });
    const refused = answers.filter((answer) => answer instanceof Error);
    expect(refused).toHaveLength(15);
    for (const error of refused) expect(error).toMatchObject({ code: 'PROMO_CODE_INVALID', message: 'promo code used up' });
    expect(await uses('RACE5')).toEqual({ uses: 5, sandbox_uses: 0 });
    expect(Number((await harness.dataSource.query(`SELECT count(*) AS n FROM promo.redemptions WHERE code = 'RACE5'`))[0].n)).toBe(5);
  });

  it('uses a code once per booking however often the booking redeems it at once, and answers every repeat alike', async () => {
    await promo.create({ code: 'ONCE', kind: 'amount', value: '15.00', currency: 'EUR', maxUses: 3 });
    const bookingId = nextBooking++;
    const answers = await Promise.all(Array.from({ length: 10 }, () => redeem('ONCE', { bookingId })));
    expect(answers).toEqual(Array.from({ length: 10 }, () => ({ code: 'ONCE', discount: '15.00', currency: 'EUR' })));
    expect(await uses('ONCE')).toEqual({ uses: 1, sandbox_uses: 0 });
  });

  it('counts sandbox uses apart: sandbox traffic never uses up a live code', async () => {
    await promo.create({ code: 'WORLDS', kind: 'percent', value: '5', currency: 'EUR', maxUses: 2 });
    for (let i = 0; i < 2; i++) expect(await redeem('WORLDS', { sandbox: true })).toMatchObject({ discount: '10.00' });
    expect(await redeem('WORLDS', { sandbox: true })).toMatchObject({ code: 'PROMO_CODE_INVALID' });
    expect(await redeem('WORLDS')).toMatchObject({ discount: '10.00' });
    expect(await uses('WORLDS')).toEqual({ uses: 1, sandbox_uses: 2 });
  });

  it('rounds a percentage half up to the currency\'s minor unit, caps it at the amount, and refuses what does not apply', async () => {
    await promo.create({ code: 'PCT15', kind: 'percent', value: '15', currency: 'EUR' });
    // 15 % of 1001 yen is 150.15 yen: 150 (no minor unit); of 0.99 euro, 0.1485: 0.15.
    expect(await promo.quote({ code: 'pct15 ', amount: '1001', currency: 'JPY', sandbox: false })).toEqual({ code: 'PCT15', discount: '150.00', currency: 'JPY' });
    expect(await promo.quote({ code: 'PCT15', amount: '0.99', currency: 'EUR', sandbox: false })).toEqual({ code: 'PCT15', discount: '0.15', currency: 'EUR' });
    await promo.create({ code: 'FLAT50', kind: 'amount', value: '50.00', currency: 'EUR', minAmount: '20.00' });
    expect(await promo.quote({ code: 'FLAT50', amount: '30.00', currency: 'EUR', sandbox: false })).toMatchObject({ discount: '30.00' });
    const refusal = (amount: string, currency: string) => promo.quote({ code: 'FLAT50', amount, currency, sandbox: false }).catch((error: DomainError) => error.message);
    expect(await refusal('19.99', 'EUR')).toBe('booking amount is below the minimum amount of 20.00 EUR');
    expect(await refusal('30.00', 'USD')).toBe('promo code is for EUR bookings');
    expect(await promo.quote({ code: 'NOPE', amount: '1.00', currency: 'EUR', sandbox: false }).catch((error: DomainError) => error.code)).toBe('PROMO_CODE_INVALID');
  });

  it('refuses a second code of the same name (409) and values it cannot give', async () => {
    await expect(promo.create({ code: 'PCT15', kind: 'percent', value: '20', currency: 'EUR' })).rejects.toMatchObject({ code: 'CONFLICT' });
    await expect(promo.create({ code: 'TOOMUCH', kind: 'percent', value: '100.01', currency: 'EUR' })).rejects.toMatchObject({ code: 'VALIDATION_FAILED' });
    await expect(promo.create({ code: 'HALFYEN', kind: 'amount', value: '10.5', currency: 'JPY' })).rejects.toMatchObject({ code: 'VALIDATION_FAILED' });
  });
});
