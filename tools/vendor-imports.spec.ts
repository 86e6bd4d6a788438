import { existsSync, readFileSync, readdirSync } from 'node:fs';
import { dirname, join, relative, resolve } from 'node:path';
import * as ts from 'typescript';

// The simulated vendors are a service of their own (apps/vendor-simulator): the services that
// call vendors, search and rates, carry none of their code. This follows every import of their
// non-test files, through the workspace's libraries, and names what reaches vendor code.

const ROOT = resolve(__dirname, '..');
const CALLERS = ['apps/search/src', 'apps/rates/src'];
const TEST_FILE = /\.(spec|service-spec|e2e-spec)\.ts$/;

/** Vendor code the callers must not reach: the simulator, and the in-process stand-ins for a vendor. */
const VENDOR_CODE = [/^apps\/vendor-simulator\//, /^libs\/inventory\/src\/simulated-supplier\.ts$/, /^libs\/inventory\/src\/answered-bookings\.ts$/];

/**
 * Reached today, to go next: `HotelbedsSupplier` answers a sandbox booking itself when no
 * sandbox desk is configured (a production with a real vendor only). When that path goes,
 * this entry goes too (the second test fails until it does).
 */
const STILL_REACHED = ['libs/inventory/src/answered-bookings.ts'];

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
  const reached = reachedFromCallers();
  const vendorCode = [...reached.keys()].filter((file) => VENDOR_CODE.some((pattern) => pattern.test(file)));

  it('reaches neither the vendor simulator nor an in-process vendor from a non-test file', () => {
    expect(reached.size).toBeGreaterThan(CALLERS.length);
    const unexpected = vendorCode.filter((file) => !STILL_REACHED.includes(file)).map((file) => chainTo(file, reached));
    expect(unexpected).toEqual([]);
  });

  it('still reaches what is left to move out, and only that (remove an entry once its import is gone)', () => {
    expect(vendorCode.sort()).toEqual([...STILL_REACHED].sort());
  });
});
