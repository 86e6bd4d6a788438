import { mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { SUBJECTS } from '@hotel/contracts';
import { ecbDailyXml } from '@hotel/testing';
import { TestSystem } from './system';

/** The operators' exchange-rate commands against users and rates over NATS: import-fx-rates, fx-rates, set-fx-margin, create-client --currency. */
describe('admin command line: exchange rates', () => {
  let system: TestSystem;
  let dir: string;
  /** Writes a file for --file and answers its path. */
  const file = (name: string, content: string) => {
    const path = join(dir, name);
    writeFileSync(path, content);
    return path;
  };

  beforeAll(async () => {
    dir = mkdtempSync(join(tmpdir(), 'hotel-test-fx-'));
    system = await TestSystem.start({}, ['users', 'rates']);
  });
  afterAll(async () => {
    await system?.close();
    rmSync(dir, { recursive: true, force: true });
  });

  it('fx-rates prints the rates in force: on a fresh system the shipped ECB snapshot of 26 May 2020', async () => {
    const result = await system.admin('fx-rates');
    expect(result.code).toBe(0);
    expect(result.stdout.split('\n')).toHaveLength(1);
    expect(result.json).toEqual({ date: '2020-05-26', source: 'snapshot', imported_at: expect.any(String), age_days: expect.any(Number), rates: expect.objectContaining({ USD: '1.0975', JPY: '117.92' }) });
    expect(Object.keys(result.json.rates)).toHaveLength(32);
    expect(result.json.age_days).toBeGreaterThan(2000);
  });

  describe('create-client --currency', () => {
    it('takes a currency the rates in force have (JPY), and EUR, which needs none', async () => {
      for (const currency of ['JPY', 'EUR']) {
        const result = await system.admin('create-client', '--name', `${currency} Travel`, '--currency', currency);
        expect(result.code).toBe(0);
        expect(result.json.client_id).toEqual(expect.any(Number));
      }
      const listed = await system.admin('list-clients');
      expect(listed.json.clients.map((client: { currency: string }) => client.currency)).toEqual(expect.arrayContaining(['JPY', 'EUR']));
    });

    it.each([
      ['XYZ', /--currency must be an ISO 4217 code the platform takes, such as USD, EUR or JPY \(not XYZ\)/],
      // Croatia's kuna: in the ECB's file of 2020, withdrawn since (not a code the platform takes).
      ['HRK', /not HRK/],
      ['AED', /no exchange rate for AED is in force \(the rates of 2020-05-26 have none\): import rates that include AED with import-fx-rates --file FILE/],
    ])('refuses %s with exit code 2, naming it and what to do, and creates nothing', async (currency, message) => {
      const before = (await system.admin('list-clients')).json.clients.length;
      const result = await system.admin('create-client', '--name', 'Refused Ltd', '--currency', currency);
      expect(result.code).toBe(2);
      expect(result.stdout).toBe('');
      expect(result.stderr).toMatch(message);
      expect((await system.admin('list-clients')).json.clients).toHaveLength(before);
    });
  });

  it('import-fx-rates takes a daily file: the new date is in force for fx-rates; the same file again changes nothing', async () => {
    const path = file('eurofxref-daily.xml', ecbDailyXml('2020-05-27', { USD: '1.0990', JPY: '118.05', GBP: '0.89', AED: '4.0365' }));
    const imported = await system.admin('import-fx-rates', '--file', path);
    expect(imported.code).toBe(0);
    expect(imported.stdout.split('\n')).toHaveLength(1);
    expect(imported.json).toEqual({ date: '2020-05-27', currencies: 4, imported: true, in_force: '2020-05-27', source: 'file:eurofxref-daily.xml' });

    const shown = await system.admin('fx-rates');
    expect(shown.json).toMatchObject({ date: '2020-05-27', source: 'file:eurofxref-daily.xml', rates: { USD: '1.0990', JPY: '118.05', GBP: '0.89', AED: '4.0365' } });

    const again = await system.admin('import-fx-rates', '--file', path);
    expect(again.json).toEqual({ ...imported.json, imported: false });
    // Now that AED has a rate, an AED client is taken.
    expect((await system.admin('create-client', '--name', 'Dubai Trips', '--currency', 'AED')).code).toBe(0);
  });

  it('every rates replica answers a new set at once: the one that took it in announces it on the bus', async () => {
    await system.startReplica('rates');
    const path = file('next-day.xml', ecbDailyXml('2020-05-28', { USD: '1.1017', JPY: '118.60', GBP: '0.8955', AED: '4.0462' }));
    expect((await system.admin('import-fx-rates', '--file', path)).json).toMatchObject({ imported: true, in_force: '2020-05-28' });
    const admin = await system.busClient('admin');
    // Requests go to either replica (queue group); both must have reloaded on the event, long before their 5-minute reload.
    const answered = async () => (await Promise.all(Array.from({ length: 12 }, () => admin.send(SUBJECTS.RATES_FX_RATES_GET, {})))).map((reply) => reply.sets[0].date);
    for (let tries = 0; tries < 20 && (await answered()).some((date) => date !== '2020-05-28'); tries++) await new Promise((resolve) => setTimeout(resolve, 100));
    expect(new Set(await answered())).toEqual(new Set(['2020-05-28']));
  });

  it('other rates for a date already in: exit code 1 with CONFLICT saying what differs', async () => {
    const result = await system.admin('import-fx-rates', '--file', file('forged.xml', ecbDailyXml('2020-05-27', { USD: '1.2', JPY: '118.05', GBP: '0.89', AED: '4.0365' })));
    expect(result.code).toBe(1);
    expect(JSON.parse(result.stderr).error).toEqual({ code: 'CONFLICT', message: expect.stringContaining('USD 1.0990 stored, 1.2 in the file') });
    expect((await system.admin('fx-rates')).json.rates.USD).toBe('1.1017');
  });

  it.each([
    ['EUR listed', ecbDailyXml('2020-05-29', { EUR: '1', USD: '1.1' }), "line 9: EUR is listed; the rates are per euro, which is never listed"],
    ['an entity declaration', '<!DOCTYPE x [<!ENTITY e SYSTEM "file:///etc/passwd">]><x>&e;</x>', 'DOCTYPE and entity declarations are refused'],
    ['a 90-day file', ecbDailyXml('2020-05-29', { USD: '1.1' }).replace("<Cube time='2020-05-29'>", "<Cube time='2020-06-01'><Cube currency='USD' rate='1.1'/></Cube><Cube time='2020-05-29'>"), "2 reference dates: only the ECB's daily file"],
  ])("a malformed file (%s): exit code 1 with the parser's message, nothing imported", async (_what, content, message) => {
    const result = await system.admin('import-fx-rates', '--file', file('bad.xml', content));
    expect(result.code).toBe(1);
    expect(result.stdout).toBe('');
    expect(JSON.parse(result.stderr).error).toEqual({ code: 'VALIDATION_FAILED', message: expect.stringContaining(message) });
    expect((await system.admin('fx-rates')).json.date).toBe('2020-05-28');
  });

  it.each([
    ['import-fx-rates', /^usage: npm run --silent admin -- import-fx-rates --file FILE\n {6}imports euro exchange rates/],
    ['fx-rates', /^usage: npm run --silent admin -- fx-rates\n {6}prints the exchange rates in force/],
    ['set-fx-margin', /^usage: npm run --silent admin -- set-fx-margin --client-id N --percent P\n {6}the margin added/],
    ['create-client', /^usage: npm run --silent admin -- create-client --name NAME .*\n[\s\S]*must have a rate for it/],
  ])('%s --help prints its usage and exits 0', async (command, usage) => {
    const result = await system.admin(command, '--help');
    expect(result.code).toBe(0);
    expect(result.stdout).toMatch(usage);
    expect(result.stdout).not.toContain('list-clients');
  });
});
