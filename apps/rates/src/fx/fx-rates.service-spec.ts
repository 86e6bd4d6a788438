import { EVENTS } from '@hotel/contracts';
import { ServiceHarness, ecbDailyXml } from '@hotel/testing';
import { startRatesHarness } from '../../test/rates-fixtures';
import { RatesEnv } from '../rates.env';
import { FxRatesRepository } from './fx-rates.repository';
import { FX_RELOAD_INTERVAL_MS, FX_SETS_KEPT, FxRatesService } from './fx-rates.service';

// Service tier: FxRatesService with the rates app's providers on a fresh PostgreSQL
// database with the rates migrations; the bus is the harness's fake client (events recorded).

const DAY_MS = 86_400_000;
const dayAfter = (date: string, days: number) => new Date(Date.parse(`${date}T00:00:00Z`) + days * DAY_MS).toISOString().slice(0, 10);

/** Resolves once `check` holds (the reloads an event or the timer start run in the background). */
async function eventually(check: () => Promise<boolean>): Promise<void> {
  for (let tries = 0; tries < 100; tries++) {
    if (await check()) return;
    await new Promise((resolve) => setTimeout(resolve, 20));
  }
  throw new Error('the condition did not hold within 2 s');
}

describe('FxRatesService (service tier: real PostgreSQL, fake bus)', () => {
  let harness: ServiceHarness<RatesEnv>;
  let fx: FxRatesService;
  const updates = () => harness.client.events.filter((event) => event.subject === EVENTS.RATES_FX_RATES_UPDATED).map((event) => event.event);
  const stored = async () => {
    const [sets, rates] = await Promise.all([
      harness.dataSource.query(`SELECT reference_date::text AS date, source FROM rates.fx_rate_sets ORDER BY reference_date`),
      harness.dataSource.query(`SELECT reference_date::text AS date, currency, rate::text FROM rates.fx_rates ORDER BY reference_date, currency`),
    ]);
    return { sets, rates } as { sets: { date: string; source: string }[]; rates: { date: string; currency: string; rate: string }[] };
  };

  beforeAll(async () => {
    // Only the periodic reload's setInterval is faked: the database and the harness keep real time.
    jest.useFakeTimers({ doNotFake: ['Date', 'hrtime', 'nextTick', 'performance', 'queueMicrotask', 'setImmediate', 'clearImmediate', 'setTimeout', 'clearTimeout'] });
    harness = await startRatesHarness();
    fx = harness.get(FxRatesService);
  });

  afterAll(async () => {
    await harness?.close();
    jest.useRealTimers();
  });

  it('a database without rates takes in the shipped snapshot at start: the ECB rates of 26 May 2020, exact as written', async () => {
    const sets = await fx.sets();
    expect(sets).toHaveLength(1);
    expect(sets[0]).toMatchObject({ date: '2020-05-26', source: 'snapshot', importedAt: expect.stringMatching(/^\d{4}-\d\d-\d\dT/) });
    expect(Object.keys(sets[0].rates)).toHaveLength(32);
    expect(sets[0].rates).toMatchObject({ USD: '1.0975', JPY: '117.92', HUF: '349.60', CHF: '1.0600', IDR: '16193.61' });
    expect(updates()).toEqual([{ date: '2020-05-26' }]);
    // Stored as numerics that keep the ECB's writing.
    expect((await stored()).rates.find((rate) => rate.currency === 'HUF')).toEqual({ date: '2020-05-26', currency: 'HUF', rate: '349.60' });
  });

  it('imports a new reference date: it is in force, announced to every replica, and the older set follows it', async () => {
    harness.client.reset();
    const reply = await fx.import(ecbDailyXml('2020-05-27', { USD: '1.0990', JPY: '118.05', GBP: '0.89' }), 'file:may27.xml');
    expect(reply).toMatchObject({ imported: true, set: { date: '2020-05-27', source: 'file:may27.xml', rates: { GBP: '0.89', JPY: '118.05', USD: '1.0990' } }, inForce: { date: '2020-05-27' } });
    expect(updates()).toEqual([{ date: '2020-05-27' }]);
    expect((await fx.sets()).map((set) => set.date)).toEqual(['2020-05-27', '2020-05-26']);
  });

  it('the same date with the same rates changes nothing (imported: false), however the file writes them', async () => {
    harness.client.reset();
    const before = await stored();
    const reply = await fx.import(ecbDailyXml('2020-05-27', { GBP: '0.8900', USD: '1.099', JPY: '118.050' }), 'file:again.xml');
    expect(reply).toMatchObject({ imported: false, set: { date: '2020-05-27', source: 'file:may27.xml', rates: { USD: '1.0990' } }, inForce: { date: '2020-05-27' } });
    expect(updates()).toEqual([]);
    expect(await stored()).toEqual(before);
  });

  it.each([
    ['another rate', { USD: '1.1', JPY: '118.05', GBP: '0.89' }, /USD 1\.0990 stored, 1\.1 in the file/],
    ['a currency more', { USD: '1.0990', JPY: '118.05', GBP: '0.89', CHF: '1.06' }, /CHF absent stored, 1\.06 in the file/],
    ['a currency less', { USD: '1.0990', JPY: '118.05' }, /GBP 0\.89 stored, absent in the file/],
  ])('the same date with %s is a CONFLICT that says what differs, and nothing changes', async (_what, rates, difference) => {
    const before = await stored();
    const attempt = fx.import(ecbDailyXml('2020-05-27', rates), 'file:forged.xml');
    await expect(attempt).rejects.toMatchObject({ code: 'CONFLICT', message: expect.stringMatching(difference) });
    await expect(attempt).rejects.toMatchObject({ message: expect.stringMatching(/^the rates of 2020-05-27 are in already \(from file:may27\.xml, .*never change/) });
    expect(await stored()).toEqual(before);
  });

  it("refuses a file that is not the ECB's daily format with the parser's message (VALIDATION_FAILED)", async () => {
    await expect(fx.import(ecbDailyXml('2020-05-28', { EUR: '1' }), 'file:bad.xml')).rejects.toMatchObject({
      code: 'VALIDATION_FAILED',
      message: "not the ECB's daily reference rates file: line 9: EUR is listed; the rates are per euro, which is never listed",
    });
    await expect(fx.import('<!DOCTYPE x [<!ENTITY e SYSTEM "file:///etc/passwd">]><x>&e;</x>', 'file:xxe.xml')).rejects.toMatchObject({
      code: 'VALIDATION_FAILED',
      message: expect.stringContaining('DOCTYPE and entity declarations are refused'),
    });
  });

  it('race: replicas importing one file at once write one set and announce it once', async () => {
    harness.client.reset();
    // Two services over one database: as two replicas (each its own pool connections).
    const replicas = [fx, new FxRatesService(harness.get(FxRatesRepository), harness.client as never, { run: (_job: string, work: () => unknown) => work() } as never, { gauge: () => undefined } as never)];
    const xml = ecbDailyXml('2020-05-29', { USD: '1.1136', JPY: '119.63' });
    const replies = await Promise.all(Array.from({ length: 12 }, (_, index) => replicas[index % 2].import(xml, `file:race-${index}.xml`)));
    expect(replies.filter((reply) => reply.imported)).toHaveLength(1);
    const winner = replies.find((reply) => reply.imported)!.set;
    for (const reply of replies) expect(reply.set).toEqual(winner);
    expect(updates()).toEqual([{ date: '2020-05-29' }]);
    const { sets, rates } = await stored();
    expect(sets.filter((set) => set.date === '2020-05-29')).toEqual([{ date: '2020-05-29', source: winner.source }]);
    expect(rates.filter((rate) => rate.date === '2020-05-29')).toHaveLength(2);
  });

  it('race: two different files of one date at once: one is taken, the other is a CONFLICT', async () => {
    const results = await Promise.allSettled([
      fx.import(ecbDailyXml('2020-06-01', { USD: '1.1116' }), 'file:a.xml'),
      fx.import(ecbDailyXml('2020-06-01', { USD: '1.2000' }), 'file:b.xml'),
    ]);
    expect(results.filter((result) => result.status === 'fulfilled')).toHaveLength(1);
    expect(results.filter((result) => result.status === 'rejected').map((result) => (result as PromiseRejectedResult).reason.code)).toEqual(['CONFLICT']);
    expect((await stored()).rates.filter((rate) => rate.date === '2020-06-01')).toHaveLength(1);
  });

  it(`answers at most the ${FX_SETS_KEPT} newest reference dates, newest first, whatever the order they came in`, async () => {
    const dates = Array.from({ length: 45 }, (_, index) => dayAfter('2020-06-02', index));
    for (const date of [...dates].reverse()) await fx.import(ecbDailyXml(date, { USD: '1.12' }), 'file:backfill.xml');
    const sets = await fx.sets();
    expect(sets).toHaveLength(FX_SETS_KEPT);
    expect(sets.map((set) => set.date)).toEqual([...dates].reverse().slice(0, FX_SETS_KEPT));
    // Frozen: a caller cannot change another's rates.
    expect(() => {
      (sets[0].rates as Record<string, string>).USD = '2';
    }).toThrow(TypeError);
  });

  describe('every replica serves from memory and follows the others', () => {
    /** A set stored by "another replica": in the database, not announced to this one. */
    const storedElsewhere = (date: string) => harness.get(FxRatesRepository).insertIfAbsent({ date, rates: { USD: '1.13' } }, 'file:elsewhere.xml');
    const inForce = async () => (await fx.sets())[0].date;

    it('a set another replica stored is not seen until its event arrives', async () => {
      await storedElsewhere('2020-08-01');
      expect(await inForce()).toBe('2020-07-16');
      harness.client.emit(EVENTS.RATES_FX_RATES_UPDATED, { date: '2020-08-01' });
      await eventually(async () => (await inForce()) === '2020-08-01');
    });

    it('a missed event: the periodic reload picks the set up within 5 minutes', async () => {
      await storedElsewhere('2020-08-03');
      jest.advanceTimersByTime(FX_RELOAD_INTERVAL_MS - 1000);
      await new Promise((resolve) => setTimeout(resolve, 100));
      expect(await inForce()).toBe('2020-08-01');
      jest.advanceTimersByTime(1000);
      await eventually(async () => (await inForce()) === '2020-08-03');
    });
  });

  it('the in-force set is the newest reference date: an older file imported later does not displace it', async () => {
    const reply = await fx.import(ecbDailyXml('2020-05-25', { USD: '1.0900' }), 'file:older.xml');
    expect(reply).toMatchObject({ imported: true, set: { date: '2020-05-25' }, inForce: { date: '2020-08-03' } });
  });
});
