import { existsSync, readFileSync, readdirSync } from 'node:fs';
import { dirname, join, relative, resolve } from 'node:path';
import * as ts from 'typescript';

// The simulated vendors are a service of their own (apps/vendor-simulator): the services that
// call vendors, search and rates, carry none of their code. This follows every import of their
// non-test files, through the workspace's libraries, and names what reaches vendor code.

const ROOT = resolve(__dirname, '..');
const CALLERS = ['apps/search/src', 'apps/rates/src'];
const TEST_FILE = /\.(spec|service-spec|e2e-spec)\.ts$/;

/** Vendor code the callers must not reach: the simulator (its vendors, their pricing and allotments, and the tests' in-process vendor). */
const VENDOR_CODE = /^apps\/vendor-simulator\//;

/** Names of the simulated vendors' rules: a workspace library that defines one carries vendor logic. */
const VENDOR_RULES = /\bexport (function|const) (listOffers|priceOffer|allotmentCapacity|vendorCarries|soldOutKey|parseVendorLatencies)\b/;

/** The `@hotel/...` aliases of tsconfig.base.json, as files. */
function aliases(): Map<string, string> {
  const config = ts.readConfigFile(join(ROOT, 'tsconfig.base.json'), ts.sys.readFile).config as { compilerOptions: { paths: Record<string, string[]> } };
  return new Map(Object.entries(config.compilerOptions.paths).map(([alias, [target]]) => [alias, target]));
}

function sourceFiles(directory: string): string[] {
  return readdirSync(join(ROOT, directory), { withFileTypes: true }).flatMap((entry) => {
    const path = `${directory}/${entry.name}`;
    if (entry.isDirectory()) return sourceFiles(path);
    return entry.name.endsWith('.ts') && !TEST_FILE.test(entry.name) ? [path] : [];
  });
}

/** The workspace file an import names (relative, or a workspace alias), or null for a package. */
function resolveImport(from: string, specifier: string, paths: Map<string, string>): string | null {
  const aliased = paths.get(specifier);
  if (aliased) return aliased;
  if (!specifier.startsWith('.')) return null;
  const base = relative(ROOT, resolve(ROOT, dirname(from), specifier));
  for (const candidate of [`${base}.ts`, `${base}/index.ts`, base]) {
    if (candidate.endsWith('.ts') && existsSync(join(ROOT, candidate))) return candidate;
  }
  throw new Error(`${from}: cannot resolve ${specifier}`);
}

/** Every workspace file the callers' code reaches, each with the file that first imported it. */
function reachedFromCallers(): Map<string, string | null> {
  const paths = aliases();
  const reached = new Map<string, string | null>(CALLERS.flatMap(sourceFiles).map((file) => [file, null]));
  const queue = [...reached.keys()];
  while (queue.length > 0) {
    const file = queue.shift()!;
    const { importedFiles } = ts.preProcessFile(readFileSync(join(ROOT, file), 'utf8'), true, true);
    for (const { fileName } of importedFiles) {
      const target = resolveImport(file, fileName, paths);
      if (target === null || reached.has(target)) continue;
      reached.set(target, file);
      queue.push(target);
    }
  }
  return reached;
}

function chainTo(file: string, reached: Map<string, string | null>): string {
  const chain = [file];
  for (let parent = reached.get(file); parent; parent = reached.get(parent)) chain.unshift(parent);
  return chain.join(' → ');
}

describe('the search and rates services import no vendor code', () => {
  it('reaches neither the vendor simulator nor an in-process vendor from a non-test file', () => {
    const reached = reachedFromCallers();
    expect(reached.size).toBeGreaterThan(CALLERS.length);
    const vendorCode = [...reached.keys()].filter((file) => VENDOR_CODE.test(file)).map((file) => chainTo(file, reached));
    expect(vendorCode).toEqual([]);
  });

  it("keeps the simulated vendors' rules out of every library the platform's services share", () => {
    const defining = sourceFiles('libs').filter((file) => VENDOR_RULES.test(readFileSync(join(ROOT, file), 'utf8')));
    expect(sourceFiles('libs').length).toBeGreaterThan(50);
    expect(defining).toEqual([]);
    // The rules are the simulator's.
    expect(readFileSync(join(ROOT, 'apps/vendor-simulator/src/inventory/pricing.ts'), 'utf8')).toMatch(VENDOR_RULES);
  });
});
