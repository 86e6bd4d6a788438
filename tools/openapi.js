#!/usr/bin/env node
// @ts-check
// `npm run openapi`: regenerates the gateway's OpenAPI document
// (apps/gateway/src/docs/openapi.json) from the sources: the controllers' routes, the
// request classes' class-validator decorators and the reply types (see
// apps/gateway/openapi). The unit test openapi-document.spec.ts fails while the
// committed document differs from what this writes.
const fs = require('node:fs');
const path = require('node:path');
const { ROOT, log } = require('./lib/workspace');

const swc = require('@swc/core');
const { swcOptions } = require('./build');

// TypeScript straight from the sources, compiled as tools/build.js compiles it.
/**
 * @param {NodeJS.Module} module
 * @param {string} filename
 */
require.extensions['.ts'] = (module, filename) => {
  // (_compile is the loader's own, which Node's types leave out.)
  const loaded = /** @type {NodeJS.Module & { _compile(code: string, filename: string): void }} */ (module);
  loaded._compile(swc.transformSync(fs.readFileSync(filename, 'utf8'), swcOptions(filename)).code, filename);
};
require('reflect-metadata');

const { renderOpenApiDocument, OPENAPI_DOCUMENT } = require(path.join(ROOT, 'apps/gateway/openapi/openapi-document.ts'));
fs.writeFileSync(OPENAPI_DOCUMENT, renderOpenApiDocument());
log(`wrote ${path.relative(ROOT, OPENAPI_DOCUMENT)}`);
// The SDK's generated types follow the document (tools/sdk-types.js).
require('./sdk-types').writeSdkSources().catch((error) => { log(`sdk types: ${error.message}`); process.exit(1); });
