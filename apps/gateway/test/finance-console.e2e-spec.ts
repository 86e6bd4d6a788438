import { mkdirSync, readFileSync } from 'node:fs';
import { join, resolve } from 'node:path';
import { Browser } from 'playwright-core';
import { FINANCE_CONSOLE_CONTENT_SECURITY_POLICY } from '../src/finance-console/finance-console.controller';
import { offlinePage } from './browser';
import { ClientKeys, TestSystem } from './system';


/** Where the console's screenshots go, for a person to look at (the test output, not committed). */
const SCREENSHOTS = join(resolve(__dirname, '../../..'), 'test-output', 'finance');

/** The finance console at /finance/, in headless Chromium at a phone's width, driven from the keyboard where a person would. */
describe('finance console', () => {
  let system: TestSystem;
  let browser: Browser;
  let client: ClientKeys;
  let financeToken: string;

  beforeAll(async () => {
    // rates: the finance reconciliation shows the vendors' reconciliation reports beside the ledger's.
    system = await TestSystem.start({}, ['users', 'accounting', 'booking', 'rates']);
    client = await system.createClient('Console Travel', '5000');
    financeToken = (await system.admin('create-finance-token', '--name', 'Console')).json.finance_token;
    const finance = { authorization: financeToken };
    for (const entry of [
      { debit: 0, credit: 500, name: '=cmd|calc' },
      { debit: 120.5, credit: 0, name: 'Fee' },
    ]) {
      await system.request('POST', '/api/accounting', { headers: finance, json: { ...entry, clientId: client.client_id } });
    }
    await system.admin('set-credit-policy', '--client-id', String(client.client_id), '--self-credits', 'pending');
    await system.request('POST', '/api/accounting', { headers: { authorization: client.backend_token }, json: { debit: 0, credit: 75, name: 'Wire 42', clientId: client.client_id } });
  }, 60_000);
  afterAll(async () => {
    await browser?.close();
    await system?.close();
  });

  it('serves the page and its files under a strict content security policy, at /finance and /finance/', async () => {
    const page = await system.request('GET', '/finance');
    expect(page.status).toBe(200);
    expect(page.headers['content-security-policy']).toBe(FINANCE_CONSOLE_CONTENT_SECURITY_POLICY);
    // The same page at /finance/.
    expect((await system.request('GET', '/finance/')).text).toBe(page.text);
    for (const source of page.text.match(/(?:src|href)="[^"]+"/g) ?? []) expect(source).toMatch(/^(src|href)="\/finance\//);
    expect(page.text).not.toMatch(/<script>|style=/);
    expect((await system.request('GET', '/finance/console.js')).headers['content-type']).toMatch(/^application\/javascript/);
    expect((await system.request('GET', '/finance/..%2Fpackage.json')).status).toBe(400);
  });

  it('works from the keyboard at a phone width: every client at a glance, a client chosen by name, its balance, ledger searched on the server, statement download, reconciliation, daily chart, credit requests', async () => {
    const opened = await offlinePage(system.url, { acceptDownloads: true, viewport: { width: 375, height: 740 } });
    const { page, problems, elsewhere } = opened;
    browser = opened.browser;
    const shot = async (name: string) => {
      mkdirSync(SCREENSHOTS, { recursive: true });
      await page.screenshot({ path: join(SCREENSHOTS, `${name}.png`), fullPage: true });
    };
    const statusText = () => page.evaluate(() => (globalThis as any).document.getElementById('status').textContent as string);
    await page.goto(`${system.url}/finance/`);
    expect(await page.title()).toBe('Finance console');

    // Sign in with the keyboard: Tab to the token, type, Enter. The finance credential sees every client first, no error.
    await page.keyboard.press('Tab');
    expect(await page.evaluate(() => (globalThis as any).document.activeElement.id)).toBe('token');
    await page.keyboard.type(financeToken);
    await page.keyboard.press('Enter');
    await page.waitForSelector('#overview-table tbody tr');
    expect(await statusText()).toMatch(/^Choose a client/);
    expect(await page.getAttribute('#status', 'class')).toBe('');
    const row = page.locator('#overview-table tbody tr', { hasText: 'Console Travel' });
    // Available 5000 + 500 − 120.50, one credit request waiting, this month reconciled.
    await page.waitForFunction(() => /no mismatches/.test((globalThis as any).document.getElementById('overview-table').textContent));
    expect(await row.textContent()).toMatch(/Console Travel.*USD.*5,379\.50.*1.*no mismatches/);
    await shot('overview');

    // The client by a part of its name: the search field has the focus; one match opens it.
    expect(await page.evaluate(() => (globalThis as any).document.activeElement.id)).toBe('client-search');
    await page.keyboard.type('console');
    await page.keyboard.press('Enter');
    await page.waitForFunction(() => (globalThis as any).document.getElementById('status').textContent === 'Ready');
    expect(await page.textContent('#client-name')).toBe(`Console Travel · client ${client.client_id}`);
    expect(await page.textContent('#balance')).toContain('5,379.50');
    expect(await page.textContent('#balance')).toContain(`Console Travel (${client.client_id})`);
    // Functions run in the page name its globals through globalThis (the tests compile without the DOM's types; the CSP forbids evaluating strings).
    const stored = await page.evaluate(() => {
      const { sessionStorage, localStorage, document } = globalThis as any;
      return { session: sessionStorage.getItem('finance.token').slice(0, 7), local: localStorage.length, cookie: document.cookie };
    });
    expect(stored).toEqual({ session: 'hb_fin_', local: 0, cookie: '' });
    await shot('balance');

    // The ledger, searched on the server: the name filter finds the entry whatever page it is on.
    await page.click('[data-tab=ledger]');
    await page.waitForSelector('#ledger-table tbody tr');
    expect(await page.$$eval('#ledger-table tbody tr', (rows) => rows.length)).toBe(2);
    await page.fill('#ledger-filter', 'fee');
    await page.press('#ledger-filter', 'Enter');
    await page.waitForFunction(() => (globalThis as any).document.querySelectorAll('#ledger-table tbody tr').length === 1);
    expect(await page.textContent('#ledger-page')).toBe('Page 1 of 1 · 1 entries match');
    await page.fill('#ledger-filter', '');
    await page.fill('#ledger-min', '400');
    await page.press('#ledger-min', 'Enter');
    await page.waitForFunction(() => /=cmd\|calc/.test((globalThis as any).document.getElementById('ledger-table').textContent));
    expect(await page.$$eval('#ledger-table tbody tr', (rows) => rows.length)).toBe(1);
    await shot('ledger');

    // Statement and its CSV download, named by the client and the period, readable by Excel.
    await page.click('[data-tab=statement]');
    await page.focus('#statement-form [name=to]');
    await page.keyboard.press('Enter');
    await page.waitForSelector('#statement-table tbody tr');
    expect(await page.textContent('#statement-figures')).toContain('379.50');
    const [download] = await Promise.all([page.waitForEvent('download'), page.click('#statement-csv')]);
    expect(download.suggestedFilename()).toMatch(new RegExp(`^statement-console-travel-${client.client_id}-\\d{4}-\\d{2}-01-\\d{4}-\\d{2}-\\d{2}\\.csv$`));
    const csv = readFileSync((await download.path())!, 'utf8');
    expect(csv.startsWith('\uFEFF')).toBe(true);
    expect(csv).toContain(`'=cmd|calc`);
    expect(csv.slice(1).split('\r\n')[0]).toBe('date,entryId,name,debit,credit,balance');

    // Reconciliation: no bookings, no mismatches.
    await page.click('[data-tab=reconciliation]');
    await page.click('#reconciliation-form button[type=submit]');
    await page.waitForFunction(() => (globalThis as any).document.getElementById('reconciliation-result').textContent === 'No mismatches.');

    // The daily chart: a bar per day, on axes with their values.
    await page.click('[data-tab=daily]');
    await page.click('#daily-form button[type=submit]');
    await page.waitForSelector('#daily-chart rect');
    const days = await page.$$eval('#daily-table tbody tr', (rows) => rows.length);
    expect(await page.$$eval('#daily-chart rect', (bars) => bars.length)).toBe(days);
    const ticks = await page.$$eval('#daily-chart text', (labels) => labels.map((label) => label.textContent as string));
    expect(ticks).toEqual(expect.arrayContaining(['5,379.50', '0.00', 'Amounts in USD; days (MM-DD) of ' + new Date().toISOString().slice(0, 4)]));
    expect(ticks.filter((tick) => /^\d{2}-\d{2}$/.test(tick)).length).toBeGreaterThan(0);
    await shot('daily');

    // The credit request: confirmed from the queue.
    await page.click('[data-tab=requests]');
    await page.waitForSelector('#requests-table button');
    await page.click('#requests-table button:text("confirm")');
    await page.waitForFunction(() => /confirmed/.test((globalThis as any).document.getElementById('status').textContent));
    const balance = await system.request('GET', `/api/accounting/balance?clientId=${client.client_id}`, { headers: { authorization: financeToken } });
    expect(balance.body.data.credits).toBe(575);

    // Readable at a phone's width: nothing wider than the screen but the scrolling tables.
    expect(await page.evaluate(() => (globalThis as any).document.documentElement.scrollWidth <= (globalThis as any).innerWidth)).toBe(true);
    expect({ problems, elsewhere }).toEqual({ problems: [], elsewhere: [] });
  }, 120_000);

  it("opens a client's own figures with its backend token: no client to choose, no overview", async () => {
    const { browser: own, page, problems } = await offlinePage(system.url);
    try {
      await page.goto(`${system.url}/finance/`);
      await page.fill('#token', client.backend_token);
      await page.press('#token', 'Enter');
      await page.waitForFunction(() => (globalThis as any).document.getElementById('status').textContent === 'Ready');
      expect(await page.isHidden('#client-picker')).toBe(true);
      expect(await page.isHidden('[data-tab=overview]')).toBe(true);
      expect(await page.textContent('#balance')).toContain('Credit limit');
      expect(problems).toEqual([]);
    } finally {
      await own.close();
    }
  });
});
