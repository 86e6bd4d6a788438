import { mkdirSync, readFileSync, writeFileSync } from 'node:fs';
import { dirname, join, resolve } from 'node:path';
import { offlinePage } from './browser';

const ROOT = resolve(__dirname, '../../..');
const ORIGIN = 'http://pdf.test';
/** Where the rendered pages are written for a person to look at (the test output, not committed). */
export const PDF_SCREENSHOTS = join(ROOT, 'test-output', 'pdf');

export interface RenderedPdf {
  pages: number;
  /** Every page's text, in reading order, whitespace folded to single spaces. */
  text: string;
  /** What a QR code on the first page says, read from its pixels; null when none is found. */
  qr: string | null;
  /** The share of the first page's pixels that are dark: a blank or broken rendering has next to none. */
  inkShare: number;
}

const PAGE = `<!doctype html><meta charset="utf-8"><canvas id="page"></canvas>
<script src="/jsQR.js"></script>
<script type="module">
import * as pdfjs from '/pdf.mjs';
pdfjs.GlobalWorkerOptions.workerSrc = '/pdf.worker.mjs';
window.rendered = (async () => {
  const doc = await pdfjs.getDocument({ url: '/document.pdf', standardFontDataUrl: '/standard_fonts/' }).promise;
  const first = await doc.getPage(1);
  const viewport = first.getViewport({ scale: 3 });
  const canvas = document.getElementById('page');
  canvas.width = viewport.width;
  canvas.height = viewport.height;
  const context = canvas.getContext('2d', { willReadFrequently: true });
  await first.render({ canvas, canvasContext: context, viewport }).promise;
  const image = context.getImageData(0, 0, canvas.width, canvas.height);
  let ink = 0;
  for (let i = 0; i < image.data.length; i += 4) if (image.data[i] + image.data[i + 1] + image.data[i + 2] < 384) ink++;
  const code = jsQR(image.data, image.width, image.height);
  const texts = [];
  for (let number = 1; number <= doc.numPages; number++) {
    const content = await (await doc.getPage(number)).getTextContent();
    texts.push(content.items.map((item) => item.str).join(' '));
  }
  return { pages: doc.numPages, text: texts.join(' '), qr: code ? code.data : null, inkShare: ink / (image.width * image.height), png: canvas.toDataURL('image/png') };
})();
</script>`;

const FILES: Record<string, string> = {
  '/pdf.mjs': 'node_modules/pdfjs-dist/build/pdf.mjs',
  '/pdf.worker.mjs': 'node_modules/pdfjs-dist/build/pdf.worker.mjs',
  '/jsQR.js': 'node_modules/jsqr/dist/jsQR.js',
};

/**
 * A PDF as a reader sees it: rendered to an image by pdf.js in headless Chromium (offline,
 * everything served from node_modules), its text, and a QR code on its first page read back
 * from the image's pixels by jsQR. The first page's image is written to PDF_SCREENSHOTS/`name`.png.
 */
export async function renderPdf(pdf: Buffer, name: string): Promise<RenderedPdf> {
  const { browser, page, problems } = await offlinePage(ORIGIN);
  try {
    await page.route(`${ORIGIN}/**`, (route) => {
      const path = new URL(route.request().url()).pathname;
      if (path === '/') return route.fulfill({ contentType: 'text/html', body: PAGE });
      if (path === '/document.pdf') return route.fulfill({ contentType: 'application/pdf', body: pdf });
      const file = FILES[path] ?? (path.startsWith('/standard_fonts/') ? `node_modules/pdfjs-dist${path}` : undefined);
      if (!file) return route.fulfill({ status: 404, body: '' });
      return route.fulfill({ contentType: file.endsWith('.js') || file.endsWith('.mjs') ? 'text/javascript' : 'application/octet-stream', body: readFileSync(join(ROOT, file)) });
    });
    await page.goto(`${ORIGIN}/`);
    await page.waitForFunction(() => (globalThis as any).rendered !== undefined);
    const rendered = await page.evaluate(() => (globalThis as any).rendered);
    expect(problems).toEqual([]);
    const file = join(PDF_SCREENSHOTS, `${name}.png`);
    mkdirSync(dirname(file), { recursive: true });
    writeFileSync(file, Buffer.from(rendered.png.replace(/^data:image\/png;base64,/, ''), 'base64'));
    return { pages: rendered.pages, text: rendered.text.replace(/\s+/g, ' '), qr: rendered.qr, inkShare: rendered.inkShare };
  } finally {
    await browser.close();
  }
}
