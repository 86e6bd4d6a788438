import { Controller, Get, Header, Param, Res } from '@nestjs/common';
import { FastifyReply } from 'fastify';
import { IsIn } from 'class-validator';
import { readFileSync } from 'node:fs';
import { dirname, join } from 'node:path';
import { pageContentSecurityPolicy } from '../http/security-headers';

/**
 * The page's own files: Swagger UI's from the `swagger-ui-dist` package, read from
 * node_modules (no CDN: the page works offline), and the script that starts it.
 */
const ASSET_TYPES = {
  'swagger-ui.css': 'text/css; charset=utf-8',
  'swagger-ui-bundle.js': 'application/javascript; charset=utf-8',
  'favicon-32x32.png': 'image/png',
  'docs.js': 'application/javascript; charset=utf-8',
} as const;

export const DOCS_ASSETS = Object.keys(ASSET_TYPES) as (keyof typeof ASSET_TYPES)[];

/** Starts Swagger UI on the document beside the page; no validator badge (it would call a server elsewhere). */
const START_SCRIPT = `window.addEventListener('load', function () {
  window.ui = SwaggerUIBundle({
    url: 'openapi.json',
    dom_id: '#swagger-ui',
    deepLinking: true,
    validatorUrl: null,
    presets: [SwaggerUIBundle.presets.apis],
    layout: 'BaseLayout',
  });
});
`;

const PAGE = `<!doctype html>
<html lang="en">
<head>
<meta charset="utf-8">
<meta name="viewport" content="width=device-width, initial-scale=1">
<title>Hotel booking platform API</title>
<link rel="stylesheet" href="docs/swagger-ui.css">
<link rel="icon" type="image/png" href="docs/favicon-32x32.png">
</head>
<body>
<div id="swagger-ui"></div>
<script src="docs/swagger-ui-bundle.js"></script>
<script src="docs/docs.js"></script>
</body>
</html>
`;

/**
 * The page runs only what the gateway serves: its own scripts and styles (Swagger UI
 * sets element styles from script, which 'unsafe-inline' allows for styles only),
 * images from itself or data: URLs, and requests to itself (the document, "try it out").
 */
export const DOCS_CONTENT_SECURITY_POLICY = pageContentSecurityPolicy({ inlineStyles: true });

export class DocsAssetParams {
  @IsIn(DOCS_ASSETS, { message: `asset must be one of ${DOCS_ASSETS.join(', ')}` })
  asset: keyof typeof ASSET_TYPES;
}

/** The generated OpenAPI document (built from the sources: see apps/gateway/openapi), beside this file in the source tree and in dist. */
export const OPENAPI_DOCUMENT_FILE = join(__dirname, 'openapi.json');

/** `GET /openapi.json` and the interactive reference at `GET /docs`; no credential. */
@Controller()
export class DocsController {
  private document?: Buffer;
  private readonly assets = new Map<string, Buffer>();

  @Get('openapi.json')
  @Header('content-type', 'application/json; charset=utf-8')
  openApiDocument(): Buffer {
    this.document ??= readFileSync(OPENAPI_DOCUMENT_FILE);
    return this.document;
  }

  @Get('docs')
  @Header('content-type', 'text/html; charset=utf-8')
  @Header('content-security-policy', DOCS_CONTENT_SECURITY_POLICY)
  page(): Buffer {
    return Buffer.from(PAGE);
  }

  @Get('docs/:asset')
  @Header('cache-control', 'public, max-age=3600')
  asset(@Param() params: DocsAssetParams, @Res({ passthrough: true }) reply: FastifyReply): Buffer {
    reply.header('content-type', ASSET_TYPES[params.asset]);
    let file = this.assets.get(params.asset);
    if (!file) {
      file = params.asset === 'docs.js' ? Buffer.from(START_SCRIPT) : readFileSync(join(dirname(require.resolve('swagger-ui-dist/package.json')), params.asset));
      this.assets.set(params.asset, file);
    }
    return file;
  }
}
