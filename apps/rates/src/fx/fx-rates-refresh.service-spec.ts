import { Logger } from '@nestjs/common';
import { Server, createServer } from 'node:http';
import { AddressInfo } from 'node:net';
import { EVENTS } from '@hotel/contracts';
import { ConfigError, SERVICE_INSTANCE, loadEnv } from '@hotel/platform';
import { ServiceHarness, ecbDailyXml } from '@hotel/testing';
import { startRatesHarness } from '../../test/rates-fixtures';
import { RatesEnv } from '../rates.env';
import { ECB_DAILY_URL, FX_FETCH_MAX_BYTES, FX_REFRESH_JOB, FxRatesRefresh } from './fx-rates-refresh';
import { JobLeasesRepository } from '../jobs/job-leases.repository';
import { FxRatesService } from './fx-rates.service';

// Service tier: the daily refresh of a rates replica against a local HTTP server
// standing in for the ECB (development and tests never reach the internet), on a fresh
// PostgreSQL database with the rates migrations; the bus is the harness's fake client.

/** What the stand-in ECB answers next; every request is counted. */
let answer: { status: number; body: string; delayMs?: number } = { status: 200, body: ecbDailyXml('2020-05-27', { USD: '1.0990', JPY: '118.05', GBP: '0.89' }) };
let requests = 0;

describe('FxRatesRefresh (service tier: a local HTTP server as the ECB)', () => {
  let server: Server;
  let url: string;
  let harness: ServiceHarness<RatesEnv>;
  let refresh: FxRatesRefresh;
  let fx: FxRatesService;
  const logged = { log: [] as string[], warn: [] as string[] };
  const updates = () => harness.client.events.filter((event) => event.subject === EVENTS.RATES_FX_RATES_UPDATED).map((event) => event.event);
  const inForce = async () => (await fx.sets())[0].date;

  beforeAll(async () => {
    server = createServer((_request, response) => {
      requests++;
      const { status, body, delayMs } = answer;
      setTimeout(() => response.writeHead(status, { 'content-type': 'text/xml' }).end(body), delayMs ?? 0);
    });
    await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
    url = `http://127.0.0.1:${(server.address() as AddressInfo).port}/stats/eurofxref/eurofxref-daily.xml`;
    for (const level of ['log', 'warn'] as const) {
      jest.spyOn(Logger.prototype, level).mockImplementation((...[message]: unknown[]) => {
        logged[level].push(String((message as { msg?: string }).msg ?? message));
      });
    }
    harness = await startRatesHarness({ env: { FX_RATES_URL: url, FX_FETCH_TIMEOUT_MS: '500', FX_REFRESH_INTERVAL_MIN: '60' } });
    refresh = harness.get(FxRatesRefresh);
    fx = harness.get(FxRatesService);
  });

  afterAll(async () => {
    await harness?.close();
    server?.closeAllConnections();
    await new Promise((resolve) => server?.close(resolve));
    jest.restoreAllMocks();
  });

  it('fetches at start and takes in a new reference date: in force, announced, logged with its source and size', async () => {
    // The start's fetch runs in the background: in force first, announced right after.
    const announced = () => updates().some((event) => (event as { date: string }).date === '2020-05-27');
    for (let tries = 0; tries < 250 && ((await inForce()) !== '2020-05-27' || !announced()); tries++) await new Promise((resolve) => setTimeout(resolve, 20));
    expect(await inForce()).toBe('2020-05-27');
    expect(requests).toBe(1);
    expect(updates()).toContainEqual({ date: '2020-05-27' });
    expect(logged.log).toContain(`fx rates of 2020-05-27 imported from ${url}, 3 currencies`);
    expect((await fx.sets())[0].source).toBe(url);
  });

  it('the same date again changes nothing and announces nothing', async () => {
    harness.client.reset();
    await expect(refresh.refresh()).resolves.toEqual({ outcome: 'unchanged', date: '2020-05-27', inForce: '2020-05-27' });
    expect(updates()).toEqual([]);
  });

  it('the next day is imported and announced', async () => {
    harness.client.reset();
    answer = { status: 200, body: ecbDailyXml('2020-05-28', { USD: '1.1017', JPY: '118.60', GBP: '0.8955' }) };
    await expect(refresh.refresh()).resolves.toEqual({ outcome: 'imported', date: '2020-05-28', inForce: '2020-05-28' });
    expect(updates()).toEqual([{ date: '2020-05-28' }]);
    expect(await inForce()).toBe('2020-05-28');
  });

  it.each([
    ['an HTTP 500', { status: 500, body: 'Internal Server Error' }, /^HTTP 500 from 127\.0\.0\.1:\d+$/],
    ['no answer within FX_FETCH_TIMEOUT_MS', { status: 200, body: ecbDailyXml('2020-05-29', { USD: '1.1' }), delayMs: 1500 }, /no complete answer from 127\.0\.0\.1:\d+ within 500 ms/],
    ['a malformed file', { status: 200, body: ecbDailyXml('2020-05-29', { usd: '1.1' }) }, /not the ECB's daily reference rates file: line 9: currency 'usd' is not three capital letters/],
    ['an HTML error page', { status: 200, body: '<html><body>Maintenance</body></html>' }, /not the ECB's gesmes:Envelope/],
    ['an oversized body', { status: 200, body: ecbDailyXml('2020-05-29', { USD: '1.1' }).replace('Reference rates', 'x'.repeat(FX_FETCH_MAX_BYTES)) }, `more than ${FX_FETCH_MAX_BYTES}`],
  ])('%s: a warning naming the cause and the next try, the rates in force stay', async (_what, served, cause) => {
    harness.client.reset();
    logged.warn.length = 0;
    answer = served;
    const outcome = await refresh.refresh();
    expect(outcome).toEqual({ outcome: 'failed', error: expect.stringMatching(cause) });
    expect(logged.warn).toEqual([expect.stringMatching(new RegExp(`^fx rates could not be refreshed from ${url.replace(/[.?]/g, '\\$&')}: .*; tried again in 60 minutes$`))]);
    expect(await inForce()).toBe('2020-05-28');
    expect(updates()).toEqual([]);
  });

  it('replicas ticking together: one takes the lease and fetches, the others skip this interval', async () => {
    answer = { status: 200, body: ecbDailyXml('2020-05-28', { USD: '1.1017', JPY: '118.60', GBP: '0.8955' }) };
    // The start's tick holds the lease for this interval.
    await expect(refresh.tick()).resolves.toEqual({ outcome: 'skipped' });
    await harness.dataSource.query(`UPDATE rates.job_leases SET taken_until = now() - interval '1 second' WHERE job = $1`, [FX_REFRESH_JOB]);
    const before = requests;
    const outcomes = await Promise.all(Array.from({ length: 4 }, () => refresh.tick()));
    expect(outcomes.filter((outcome) => outcome.outcome === 'skipped')).toHaveLength(3);
    expect(outcomes.filter((outcome) => outcome.outcome === 'unchanged')).toHaveLength(1);
    expect(requests - before).toBe(1);
    const [lease] = await harness.dataSource.query(`SELECT holder, taken_until > now() + interval '50 minutes' AS held FROM rates.job_leases WHERE job = $1`, [FX_REFRESH_JOB]);
    expect(lease).toEqual({ holder: harness.get<string>(SERVICE_INSTANCE), held: true });
  });

  it('fetches from the ECB by default in production only; development and tests reach no address they were not given', () => {
    const make = (env: Record<string, string>) =>
      new FxRatesRefresh(fx, harness.get(JobLeasesRepository), loadEnv(RatesEnv, { DATABASE_URL: 'postgres://x/y', ...env }), 'test', { run: () => undefined } as never);
    const production = { NODE_ENV: 'production', RATE_ID_SECRET: 'a-real-rate-id-secret-of-the-operator', NATS_NKEY_SEED: `SU${'A'.repeat(56)}` };
    expect(make({}).url).toBeUndefined();
    expect(make({ NODE_ENV: 'development' }).url).toBeUndefined();
    expect(make(production).url).toBe(ECB_DAILY_URL);
    expect(make({ ...production, FX_RATES_URL: 'https://mirror.example.com/eurofxref-daily.xml' }).url).toBe('https://mirror.example.com/eurofxref-daily.xml');
    expect(() => loadEnv(RatesEnv, { DATABASE_URL: 'postgres://x/y', ...production, FX_RATES_URL: 'http://mirror.example.com/daily.xml' })).toThrow(ConfigError);
    expect(() => loadEnv(RatesEnv, { DATABASE_URL: 'postgres://x/y', FX_RATES_URL: 'ftp://mirror.example.com/daily.xml' })).toThrow(/FX_RATES_URL must be an https:\/\/ URL/);
    expect(() => loadEnv(RatesEnv, { DATABASE_URL: 'postgres://x/y', FX_RATES_URL: 'https://user:pw@mirror.example.com/daily.xml' })).toThrow(/without credentials/);
    expect(() => loadEnv(RatesEnv, { DATABASE_URL: 'postgres://x/y', FX_REFRESH_INTERVAL_MIN: '0' })).toThrow(/FX_REFRESH_INTERVAL_MIN/);
  });
});
