import { FxRateSet, fxRatesAgeDays, toMilli } from '@hotel/contracts';
import { FxConversion, FxRatesCache, FxTable, conversionAt } from './fx';

/** The ECB's reference rates of 26 May 2020 (a few of them), plus a KWD rate for three decimals. */
const ECB: FxRateSet = {
  date: '2020-05-26',
  rates: { USD: '1.0975', JPY: '117.92', GBP: '0.88878', KWD: '0.3378', IDR: '16193.61' },
  source: 'snapshot',
  importedAt: '2020-05-26T16:00:00Z',
};
const pricing = (currency: string, fxMarginPercent = '0') => ({ currency, fxMarginPercent });

describe('exchange rates', () => {
  it('converts through the euro at ten significant digits, the rate recorded being the rate used', () => {
    expect(conversionAt(ECB, 'USD', pricing('EUR')).rate).toBe('0.9111617312');
    expect(conversionAt(ECB, 'GBP', pricing('USD')).rate).toBe('1.234838768');
    expect(conversionAt(ECB, 'GBP', pricing('JPY')).rate).toBe('132.6762528');
    expect(conversionAt(ECB, 'EUR', pricing('JPY')).rate).toBe('117.92');
    expect(conversionAt(ECB, 'EUR', pricing('JPY')).date).toBe('2020-05-26');
  });

  it('adds the client margin to the rate', () => {
    expect(conversionAt(ECB, 'EUR', pricing('JPY', '2.5')).rate).toBe('120.868');
    // A price in the client's own currency changes no currency: no rate, no margin.
    expect(conversionAt(null, 'USD', pricing('USD', '1.5'))).toMatchObject({ rate: '1', date: null, marginPercent: '0', identity: true });
  });

  it('rounds each amount half up to the minor unit of the client currency', () => {
    const toJpy = conversionAt(ECB, 'EUR', pricing('JPY'));
    expect(toJpy.convert(toMilli('100.00'))).toBe(11_792_000);
    expect(toJpy.convert(toMilli('0.05'))).toBe(6_000); // 5.896 yen
    const toKwd = conversionAt(ECB, 'EUR', pricing('KWD'));
    expect(toKwd.convert(toMilli('123.45'))).toBe(41_701); // 41.70141
    expect(conversionAt(ECB, 'USD', pricing('EUR')).convert(toMilli('109.75'))).toBe(100_000);
  });

  it('converts the same with and without bigints, for any amount', () => {
    const conversion = conversionAt(ECB, 'GBP', pricing('IDR', '3.25'));
    const reference = new FxConversion('GBP', 'IDR', conversion.rate, ECB.date, '3.25');
    for (let i = 0; i < 2000; i++) {
      // Up to 10^8 pounds: 2·10^12 rupiah, within what the platform stores.
      const milli = Math.floor(Math.random() * 10 ** (3 + (i % 9))) * 10;
      const slow = Number((BigInt(milli) * BigInt(conversion.rate.replace('.', '')) * 2n + 10n ** BigInt(conversion.rate.split('.')[1]?.length ?? 0) * 10n) / (10n ** BigInt(conversion.rate.split('.')[1]?.length ?? 0) * 10n * 2n)) * 10;
      expect(reference.convert(milli)).toBe(slow);
    }
  });

  it('says which currency has no rate', () => {
    expect(() => conversionAt(ECB, 'EUR', pricing('RUB'))).toThrow(expect.objectContaining({ code: 'FX_RATE_UNAVAILABLE', message: expect.stringContaining('RUB') }));
    expect(() => conversionAt(null, 'EUR', pricing('USD'))).toThrow(expect.objectContaining({ code: 'FX_RATE_UNAVAILABLE' }));
  });

  it('refuses stale rates when the policy says so, and prices with the set in force at a moment', () => {
    const newer: FxRateSet = { ...ECB, date: '2020-06-02', rates: { ...ECB.rates, USD: '1.1' }, importedAt: '2020-06-02T16:00:00Z' };
    const now = Date.parse('2020-06-04T12:00:00Z');
    const strict = new FxTable([newer, ECB], { maxAgeDays: 4, refuseStale: true });
    expect(strict.priced('EUR', pricing('USD'), null, now).date).toBe('2020-06-02');
    // The set of 26 May is 9 days old on 4 June: refused for a price given now.
    expect(() => strict.priced('EUR', pricing('USD'), '2020-05-26', now)).toThrow(expect.objectContaining({ code: 'FX_RATES_STALE' }));
    // A date the table does not have is not priced at another set.
    expect(() => strict.priced('EUR', pricing('USD'), '2020-06-03', now)).toThrow(expect.objectContaining({ code: 'SERVICE_UNAVAILABLE' }));
    // What was shown then can still be recomputed, and a price needing no conversion is never stale.
    expect(strict.shown('EUR', pricing('USD'), new Date('2020-05-30T00:00:00Z')).date).toBe('2020-05-26');
    expect(strict.priced('USD', pricing('USD'), '2020-05-26', now).identity).toBe(true);
    const lenient = new FxTable([ECB], { maxAgeDays: 4, refuseStale: false });
    expect(lenient.priced('EUR', pricing('USD'), null, now).rate).toBe('1.0975');
    expect(fxRatesAgeDays('2020-05-26', now)).toBe(9);
  });

  it('counts no TARGET holiday in the age of a set: Easter and Christmas are no reason to stop selling', () => {
    // Thursday 2 April 2026's rates on the Tuesday after Easter (Good Friday and Easter Monday closed).
    expect(fxRatesAgeDays('2026-04-02', Date.parse('2026-04-07T09:00:00Z'))).toBe(3);
    // Wednesday 24 December 2025's rates on Monday 29 December (25 and 26 closed).
    expect(fxRatesAgeDays('2025-12-24', Date.parse('2025-12-29T09:00:00Z'))).toBe(3);
    // 31 December's on 2 January (New Year's Day closed), and Friday's on a Monday (weekends count).
    expect(fxRatesAgeDays('2026-12-31', Date.parse('2027-01-02T09:00:00Z'))).toBe(1);
    expect(fxRatesAgeDays('2026-11-20', Date.parse('2026-11-23T09:00:00Z'))).toBe(3);
    // Easter 2027 is 28 March: Good Friday 26 March, Easter Monday 29 March.
    expect(fxRatesAgeDays('2027-03-25', Date.parse('2027-03-30T09:00:00Z'))).toBe(3);
  });
});

describe('the exchange rates a service keeps', () => {
  const lenient = { maxAgeDays: 4, refuseStale: false };

  it('loads once, keeps the sets until invalidated, and builds no new table for the same sets', async () => {
    const sets = [ECB];
    const load = jest.fn(async () => sets);
    const cache = new FxRatesCache(load, lenient, () => undefined, 60_000);
    const first = await cache.current();
    expect(await cache.current()).toBe(first);
    expect(load).toHaveBeenCalledTimes(1);
    cache.invalidate();
    expect(await cache.current()).toBe(first);
    expect(load).toHaveBeenCalledTimes(2);
  });

  it('warns of stale rates outside production, once an hour, and keeps converting at them', async () => {
    const warn = jest.fn();
    const cache = new FxRatesCache(async () => [ECB], lenient, warn, 0);
    const table = await cache.current();
    await cache.current();
    expect(warn).toHaveBeenCalledTimes(1);
    expect(warn).toHaveBeenCalledWith(expect.stringContaining('stale'), expect.objectContaining({ date: '2020-05-26', maxAgeDays: 4 }));
    expect(table.priced('EUR', pricing('USD')).rate).toBe('1.0975');
  });

  it('in production refuses stale rates instead of warning', async () => {
    const warn = jest.fn();
    const table = await new FxRatesCache(async () => [ECB], { maxAgeDays: 4, refuseStale: true }, warn, 0).current();
    expect(warn).not.toHaveBeenCalled();
    expect(() => table.priced('EUR', pricing('USD'))).toThrow(expect.objectContaining({ code: 'FX_RATES_STALE' }));
  });

  it('asks again at once for a reference date it does not have, whatever its ttl', async () => {
    const newer: FxRateSet = { ...ECB, date: '2020-05-27', importedAt: '2020-05-27T16:00:00Z' };
    let sets = [ECB];
    const cache = new FxRatesCache(async () => sets, lenient, () => undefined, 60_000);
    expect((await cache.current()).inForce?.date).toBe('2020-05-26');
    sets = [newer, ECB];
    expect((await cache.current('2020-05-26')).inForce?.date).toBe('2020-05-26'); // known: kept
    expect((await cache.current('2020-05-27')).inForce?.date).toBe('2020-05-27'); // unknown: asked again
  });

  it('keeps the sets it has when their owner does not answer; with none yet, converting is unavailable', async () => {
    const warn = jest.fn();
    let answer: () => Promise<FxRateSet[]> = async () => [ECB];
    const cache = new FxRatesCache(() => answer(), lenient, warn, 0);
    const kept = await cache.current();
    answer = async () => {
      throw new Error('no responders');
    };
    cache.invalidate();
    expect(await cache.current()).toBe(kept);
    expect(warn).toHaveBeenCalledWith(expect.stringContaining('could not be reloaded'), expect.objectContaining({ error: 'Error: no responders' }));
    const empty = new FxRatesCache(() => answer(), lenient, () => undefined, 0);
    await expect(empty.current()).rejects.toMatchObject({ code: 'SERVICE_UNAVAILABLE' });
  });
});
