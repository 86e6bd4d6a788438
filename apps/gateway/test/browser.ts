import { existsSync } from 'node:fs';
import { Browser, BrowserContextOptions, Page, chromium } from 'playwright-core';

/** Debian's chromium (`.ci/run` installs it when missing); CHROMIUM_PATH names another. */
export const CHROMIUM = process.env.CHROMIUM_PATH ?? '/usr/bin/chromium';

export interface OfflinePage {
  browser: Browser;
  page: Page;
  /** Console errors and uncaught exceptions of the page. */
  problems: string[];
  /** Requests for anything not served by `origin` (or made in the page: data:, blob:): aborted, as offline. */
  elsewhere: string[];
}

/** Headless Chromium with one page that may load only what `origin` serves, recording every error the page meets. */
export async function offlinePage(origin: string, options: BrowserContextOptions = {}): Promise<OfflinePage> {
  expect(existsSync(CHROMIUM) ? CHROMIUM : `no browser at ${CHROMIUM}: apt-get install chromium`).toBe(CHROMIUM);
  const browser = await chromium.launch({ executablePath: CHROMIUM, args: ['--no-sandbox', '--disable-dev-shm-usage'] });
  const context = await browser.newContext({ ignoreHTTPSErrors: true, ...options });
  const page = await context.newPage();
  const problems: string[] = [];
  const elsewhere: string[] = [];
  page.on('console', (message) => {
    if (message.type() === 'error') problems.push(message.text());
  });
  page.on('pageerror', (error) => problems.push(error.message));
  await context.route('**/*', (route) => {
    const url = route.request().url();
    if (url.startsWith(origin) || url.startsWith('data:') || url.startsWith('blob:')) return route.continue();
    elsewhere.push(url);
    return route.abort();
  });
  return { browser, page, problems, elsewhere };
}
