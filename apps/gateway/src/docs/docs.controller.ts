import { Controller, Header, Headers, Param, Res } from '@nestjs/common';
import { FastifyReply } from 'fastify';
import { IsIn } from 'class-validator';
import { matchesEntityTag } from '@hotel/contracts';
import { createHash } from 'node:crypto';
import { readFileSync } from 'node:fs';
import { dirname, join } from 'node:path';
import { pageContentSecurityPolicy } from '../http/security-headers';
import { Route } from '../http/route';

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

/** A file served as it is, with its entity tag. */
interface StaticFile {
  body: Buffer;
  etag: string;
}

function staticFile(body: Buffer): StaticFile {
  return { body, etag: `"${createHash('sha256').update(body).digest('base64url').slice(0, 27)}"` };
}

/**
 * A static file with caching headers: `ETag`, `Cache-Control` (shared caches may keep it:
 * it is the same for everyone), and 304 without a body for a client whose If-None-Match
 * names it. A flood of these costs the gateway a header comparison.
 */
function serve(file: StaticFile, maxAgeSeconds: number, ifNoneMatch: string | undefined, reply: FastifyReply): Buffer | undefined {
  reply.header('etag', file.etag).header('cache-control', `public, max-age=${maxAgeSeconds}`);
  if (ifNoneMatch !== undefined && matchesEntityTag(ifNoneMatch, file.etag)) {
    reply.status(304);
    return undefined;
  }
  return file.body;
}

/** The document and the page change with a deployment: kept 5 minutes. */
const DOCUMENT_MAX_AGE_S = 300;
/** Swagger UI's files change only with the package: kept a day (the ETag tells a new one). */
const ASSET_MAX_AGE_S = 86_400;

/** `GET /openapi.json` and the interactive reference at `GET /docs`; no credential. */
@Controller()
export class DocsController {
  private document?: StaticFile;
  private readonly pageFile = staticFile(Buffer.from(PAGE));
  private readonly assets = new Map<string, StaticFile>();

  @Route('GET /openapi.json')
  @Header('content-type', 'application/json; charset=utf-8')
  openApiDocument(@Headers('if-none-match') ifNoneMatch: string | undefined, @Res({ passthrough: true }) reply: FastifyReply): Buffer | undefined {
    this.document ??= staticFile(readFileSync(OPENAPI_DOCUMENT_FILE));
    return serve(this.document, DOCUMENT_MAX_AGE_S, ifNoneMatch, reply);
  }

  @Route('GET /docs')
  @Header('content-type', 'text/html; charset=utf-8')
  @Header('content-security-policy', DOCS_CONTENT_SECURITY_POLICY)
  page(@Headers('if-none-match') ifNoneMatch: string | undefined, @Res({ passthrough: true }) reply: FastifyReply): Buffer | undefined {
    return serve(this.pageFile, DOCUMENT_MAX_AGE_S, ifNoneMatch, reply);
  }

  @Route('GET /docs/{asset}')
  asset(@Param() params: DocsAssetParams, @Headers('if-none-match') ifNoneMatch: string | undefined, @Res({ passthrough: true }) reply: FastifyReply): Buffer | undefined {
    reply.header('content-type', ASSET_TYPES[params.asset]);
    let file = this.assets.get(params.asset);
    if (!file) {
      file = staticFile(params.asset === 'docs.js' ? Buffer.from(START_SCRIPT) : readFileSync(join(dirname(require.resolve('swagger-ui-dist/package.json')), params.asset)));
      this.assets.set(params.asset, file);
    }
    return serve(file, ASSET_MAX_AGE_S, ifNoneMatch, reply);
  }
}
