import { existsSync, readFileSync } from 'node:fs';
import { join } from 'node:path';

const SDK = join(__dirname, '..');
const manifest = JSON.parse(readFileSync(join(SDK, 'package.json'), 'utf8'));
const tsconfig = JSON.parse(readFileSync(join(SDK, 'tsconfig.lib.json'), 'utf8'));

/** The package's manifest against what the SDK's build makes (the pack itself: sdk.e2e-spec.ts). */
describe('the SDK package', () => {
  it('has a semantic version, and the CHANGELOG starts with its entry', () => {
    expect(manifest.version).toMatch(/^\d+\.\d+\.\d+(?:-[0-9A-Za-z.-]+)?$/);
    const latest = readFileSync(join(SDK, 'CHANGELOG.md'), 'utf8').match(/^## (\S+)/m)?.[1];
    expect(latest).toBe(manifest.version);
  });

  it('exports the compiled entry point and its declarations, and depends on nothing', () => {
    // tsconfig.lib.json compiles src/ into lib/: src/index.ts becomes lib/index.js and lib/index.d.ts.
    expect(tsconfig.compilerOptions).toMatchObject({ rootDir: 'src', outDir: '../../dist/libs/sdk/lib', declaration: true });
    expect(existsSync(join(SDK, 'src/index.ts'))).toBe(true);
    expect(manifest).toMatchObject({
      name: '@hotel/sdk',
      main: './lib/index.js',
      types: './lib/index.d.ts',
      exports: { '.': { types: './lib/index.d.ts', default: './lib/index.js' } },
      files: ['lib/', 'CHANGELOG.md'],
    });
    expect(manifest.dependencies ?? {}).toEqual({});
    expect(manifest.peerDependencies ?? {}).toEqual({});
  });
});
