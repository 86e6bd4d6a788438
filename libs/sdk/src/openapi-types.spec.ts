import { spawnSync } from 'node:child_process';
import { readFileSync, readdirSync } from 'node:fs';
import { join } from 'node:path';
import { HotelClient } from './client';
import { OPERATIONS } from './openapi-operations';

const ROOT = join(__dirname, '..', '..', '..');

describe('the SDK and the OpenAPI document', () => {
  it('has the types regenerated from the committed document (regenerate them with `npm run openapi`)', () => {
    // A child process: openapi-typescript is ESM, which Jest's CommonJS runtime does not load.
    const run = spawnSync(process.execPath, [join(ROOT, 'tools/sdk-types.js'), '--print'], { cwd: ROOT, encoding: 'utf8', maxBuffer: 64 * 1024 * 1024 });
    expect(run.stderr).toBe('');
    const generated: Record<string, string> = JSON.parse(run.stdout);
    expect(Object.keys(generated).sort()).toEqual(['libs/sdk/src/openapi-operations.ts', 'libs/sdk/src/openapi-types.ts']);
    for (const [file, text] of Object.entries(generated)) {
      // One assertion per file on the whole text: a difference names the file.
      expect(`${file}: ${readFileSync(join(ROOT, file), 'utf8') === text ? 'up to date' : 'differs from the document: run `npm run openapi`'}`).toBe(`${file}: up to date`);
    }
  });

  it('has a method for every operation but the documentation routes, named by its operationId', () => {
    const operations = Object.entries(OPERATIONS).filter(([, operation]) => operation.tag !== 'Documentation');
    const missing = operations.map(([id]) => id).filter((id) => typeof (HotelClient.prototype as unknown as Record<string, unknown>)[id] !== 'function');
    expect(missing).toEqual([]);
  });

  it('imports nothing but its own files (partners get it standalone)', () => {
    const dir = __dirname;
    const sources = readdirSync(dir).filter((name) => name.endsWith('.ts') && !name.endsWith('.spec.ts'));
    const foreign = sources.flatMap((name) =>
      [...readFileSync(join(dir, name), 'utf8').matchAll(/^\s*(?:import|export)\b[^'"]*from\s+'([^']+)'/gm)]
        .map((match) => match[1])
        .filter((specifier) => !/^\.\/[\w-]+$/.test(specifier))
        .map((specifier) => `${name}: ${specifier}`),
    );
    expect(foreign).toEqual([]);
  });
});
