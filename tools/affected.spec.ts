import { spawnSync } from 'node:child_process';
import { relative, resolve } from 'node:path';

// `npm test -- --affected`: which tests a change reaches (tools/lib/affected.js).
/** The tests for a change (tools/lib/affected.js). */
interface Selection {
  everything: boolean;
  reason?: string;
  tests: string[];
}
// eslint-disable-next-line @typescript-eslint/no-require-imports -- plain JavaScript of the workspace's commands, not built
const { selectAffectedTests } = require('./lib/affected') as { selectAffectedTests(input: { changed: string[]; tests: string[]; read: (file: string) => string; related: string[] }): Selection };

const ROOT = resolve(__dirname, '..');

const FILES: Record<string, string> = {
  'apps/promo/src/codes/promo-codes.service-spec.ts': "import { PromoCodesService } from './promo-codes.service';",
  'tools/docs-links.spec.ts': "markdownFiles().filter((name) => name.endsWith('.md'))",
  'tools/deploy.spec.ts': "readFileSync(join(ROOT, 'deploy/base/kustomization.yaml'))",
  'tools/start.e2e-spec.ts': "spawn(process.execPath, ['tools/start.js'])",
  'tools/start.js': "const { Supervisor } = require('./lib/supervisor');",
  'tools/lib/supervisor.js': "const entry = path.join(ROOT, 'dist/apps', name, 'src/main.js');",
  'apps/gateway/test/docs.e2e-spec.ts': "expect(body).toContain('errors.md');",
  'libs/sdk/src/client.spec.ts': "import { HotelClient } from './client';",
};
const TESTS = Object.keys(FILES).filter((file) => /\.(spec|service-spec|e2e-spec)\.ts$/.test(file));
const read = (file: string) => FILES[file] ?? '';
const select = (changed: string[], related: string[] = []) => selectAffectedTests({ changed, tests: TESTS, read, related });

describe('the tests a change reaches', () => {
  it('every test, for a change of the workspace configuration', () => {
    for (const file of ['package.json', 'package-lock.json', 'jest.config.js', 'tsconfig.base.json', 'tools/test.js', '.ci/run']) {
      expect(select([file, 'docs/errors.md'])).toEqual({ everything: true, reason: `${file} changed`, tests: [...TESTS].sort() });
    }
  });

  it("those Jest's dependency graph relates to changed code, and a changed test itself", () => {
    expect(select(['apps/promo/src/codes/promo-codes.service.ts'], ['apps/promo/src/codes/promo-codes.service-spec.ts']).tests).toEqual([
      'apps/promo/src/codes/promo-codes.service-spec.ts',
      // It runs the built platform (through tools/start.js and tools/lib/supervisor.js), which the change is part of.
      'tools/start.e2e-spec.ts',
    ]);
    expect(select(['libs/sdk/src/client.spec.ts']).tests).toEqual(['libs/sdk/src/client.spec.ts']);
  });

  it('those that name a changed document, its folder or its kind, and nothing else for a document', () => {
    expect(select(['docs/errors.md']).tests).toEqual(['apps/gateway/test/docs.e2e-spec.ts', 'tools/docs-links.spec.ts']);
    expect(select(['deploy/base/gateway.yaml']).tests).toEqual(['tools/deploy.spec.ts']);
  });

  it('those that run a changed script', () => {
    expect(select(['tools/start.js']).tests).toEqual(['tools/start.e2e-spec.ts']);
  });

  it('none for a change no test can see', () => {
    expect(select(['notes/README.txt']).tests).toEqual([]);
  });
});

describe("Jest's dependency graph", () => {
  it('follows the workspace aliases: a contract change reaches the service tests that use it', () => {
    const listed = spawnSync(process.execPath, [resolve(ROOT, 'node_modules/jest/bin/jest.js'), '--listTests', '--findRelatedTests', resolve(ROOT, 'libs/contracts/src/promo/promo.ts')], { cwd: ROOT, encoding: 'utf8' });
    expect(listed.status).toBe(0);
    const related = listed.stdout.split('\n').filter(Boolean).map((file) => relative(ROOT, file));
    expect(related).toContain('apps/promo/src/codes/promo-codes.service-spec.ts');
    expect(related).not.toContain('tools/docs-links.spec.ts');
  });
});
