import { brotliDecompressSync } from 'node:zlib';
import { readFileSync } from 'node:fs';
import { Browser } from 'playwright-core';
import { DOCS_CONTENT_SECURITY_POLICY, OPENAPI_DOCUMENT_FILE } from '../src/docs/docs.controller';
import { offlinePage } from './browser';
import { TestSystem } from './system';


/** The OpenAPI document and the API reference page, served by the gateway itself without a credential. */
describe('API documentation', () => {
  let system: TestSystem;
  let browser: Browser;
  const document = JSON.parse(readFileSync(OPENAPI_DOCUMENT_FILE, 'utf8'));
  const operations = Object.entries(document.paths as Record<string, Record<string, { operationId: string }>>).flatMap(([path, methods]) =>
    Object.keys(methods).map((method) => ({ path, method: method.toUpperCase() })),
  );

  beforeAll(async () => {
    // The documentation needs no service behind the gateway.
    system = await TestSystem.start({}, []);
  });
  afterAll(async () => {
    await browser?.close();
    await system?.close();
  });

  it('serves GET /openapi.json without a credential: the OpenAPI 3.1 document', async () => {
    const response = await system.request('GET', '/openapi.json');
    expect(response.status).toBe(200);
    expect(response.headers['content-type']).toMatch(/^application\/json/);
    expect(response.body).toEqual(document);
    expect(response.body.openapi).toBe('3.1.0');
  });

  it('serves the reference page and its own assets under a strict content security policy', async () => {
    const page = await system.request('GET', '/docs');
    expect(page.status).toBe(200);
    expect(page.headers['content-security-policy']).toBe(DOCS_CONTENT_SECURITY_POLICY);
    for (const source of page.text.match(/(?:src|href)="[^"]+"/g) ?? []) expect(source).toMatch(/^(src|href)="docs\//);
    const script = await system.request('GET', '/docs/swagger-ui-bundle.js');
    expect(script.status).toBe(200);
    expect(script.headers['content-type']).toMatch(/^application\/javascript/);
    expect((await system.request('GET', '/docs/..%2Fpackage.json')).status).toBe(400);
  });

  it.each(['/openapi.json', '/docs', '/docs/swagger-ui-bundle.js'])('serves %s with caching headers, and 304 without a body to a client that has it', async (path) => {
    const first = await system.request('GET', path);
    expect(first.status).toBe(200);
    expect(first.headers['cache-control']).toMatch(/^public, max-age=\d+$/);
    const etag = first.headers.etag as string;
    expect(etag).toMatch(/^"[A-Za-z0-9_-]{27}"$/);
    const again = await system.request('GET', path, { headers: { 'if-none-match': etag } });
    expect(again).toMatchObject({ status: 304, text: '' });
    expect(again.headers.etag).toBe(etag);
    expect((await system.request('GET', path, { headers: { 'if-none-match': '"stale"' } })).status).toBe(200);
    // Compressed for a client that asks: the same content under a weak tag, which the strong one matches too.
    // (The /docs page is under a kilobyte: it goes as it is.)
    const compressed = await system.request('GET', path, { headers: { 'accept-encoding': 'br' } });
    if (first.bytes.length < 1024) {
      expect(compressed.headers).toMatchObject({ etag, vary: 'Accept-Encoding' });
      expect(compressed.headers['content-encoding']).toBeUndefined();
      return;
    }
    expect(compressed.headers).toMatchObject({ 'content-encoding': 'br', etag: `W/${etag}`, vary: 'Accept-Encoding' });
    expect(brotliDecompressSync(compressed.bytes).equals(first.bytes)).toBe(true);
    expect((await system.request('GET', path, { headers: { 'accept-encoding': 'br', 'if-none-match': `W/${etag}` } })).status).toBe(304);
  });

  it('lists every operation in headless Chromium, offline, with no error', async () => {
    // Anything asked of another origin would not load offline: there must be none.
    const { page, problems, elsewhere, browser: launched } = await offlinePage(system.url);
    browser = launched;
    await page.goto(`${system.url}/docs`);
    await page.waitForSelector('.opblock', { timeout: 30_000 });
    const listed = await page.$$eval('.opblock', (blocks) =>
      blocks.map((block) => ({
        method: block.querySelector('.opblock-summary-method')?.textContent?.trim() ?? '',
        path: (block.querySelector('.opblock-summary-path')?.getAttribute('data-path') ?? block.querySelector('.opblock-summary-path')?.textContent ?? '').replace(/\u200b/g, '').trim(),
      })),
    );
    expect(listed).toHaveLength(operations.length);
    expect(new Set(listed.map(({ method, path }) => `${method} ${path}`))).toEqual(new Set(operations.map(({ method, path }) => `${method} ${path}`)));
    expect(await page.title()).toBe('Hotel booking platform API');
    expect({ problems, elsewhere }).toEqual({ problems: [], elsewhere: [] });
  });
});
