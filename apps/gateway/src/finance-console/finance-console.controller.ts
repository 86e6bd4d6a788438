import { Controller, Header, Param, Res } from '@nestjs/common';
import { FastifyReply } from 'fastify';
import { IsIn } from 'class-validator';
import { readFileSync } from 'node:fs';
import { join } from 'node:path';
import { pageContentSecurityPolicy } from '../http/security-headers';
import { Route } from '../http/route';

/** The console's files, built in the repository (static/, copied beside the build): no CDN, nothing from elsewhere. */
const ASSET_TYPES = {
  'console.css': 'text/css; charset=utf-8',
  'console.js': 'application/javascript; charset=utf-8',
} as const;

const STATIC_DIR = join(__dirname, 'static');

/**
 * The console runs only its own script and styles (no inline script or style at all),
 * and talks only to the gateway it came from; downloads are blobs it made itself.
 */
export const FINANCE_CONSOLE_CONTENT_SECURITY_POLICY = pageContentSecurityPolicy({ inlineStyles: false });

/**
 * The request URL as the router sees it: the console's page is at /finance/ as well as
 * /finance (Nest's routes have no trailing slash, and the page's files are under /finance/).
 */
export function routedUrl(url: string): string {
  return url === '/finance/' || url.startsWith('/finance/?') ? `/finance${url.slice('/finance/'.length)}` : url;
}

export class FinanceConsoleAssetParams {
  @IsIn(Object.keys(ASSET_TYPES), { message: `asset must be one of ${Object.keys(ASSET_TYPES).join(', ')}` })
  asset: keyof typeof ASSET_TYPES;
}

/**
 * The finance console at `/finance/`: a page with no credential of its own; the
 * operator's token, typed into it, is kept in the tab's sessionStorage and sent as
 * `Authorization` to the backend API.
 */
@Controller()
export class FinanceConsoleController {
  private readonly files = new Map<string, Buffer>();

  @Route('GET /finance')
  @Header('content-type', 'text/html; charset=utf-8')
  @Header('content-security-policy', FINANCE_CONSOLE_CONTENT_SECURITY_POLICY)
  page(): Buffer {
    return this.file('index.html');
  }

  @Route('GET /finance/{asset}')
  @Header('cache-control', 'no-cache')
  asset(@Param() params: FinanceConsoleAssetParams, @Res({ passthrough: true }) reply: FastifyReply): Buffer {
    reply.header('content-type', ASSET_TYPES[params.asset]);
    return this.file(params.asset);
  }

  private file(name: string): Buffer {
    let file = this.files.get(name);
    if (!file) {
      file = readFileSync(join(STATIC_DIR, name));
      this.files.set(name, file);
    }
    return file;
  }
}
