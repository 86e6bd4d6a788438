import { spawnSync } from 'node:child_process';
import { join, relative } from 'node:path';
import { OPENAPI_DOCUMENT } from './openapi-document';

const ROOT = join(__dirname, '..', '..', '..');

/** The document passes Redocly's lint (the `recommended` rules, redocly.yaml) with no error and no warning. */
describe('the OpenAPI document lint', () => {
  it('has no problem', () => {
    const lint = spawnSync(
      process.execPath,
      [join(ROOT, 'node_modules/@redocly/cli/bin/cli.js'), 'lint', relative(ROOT, OPENAPI_DOCUMENT), '--format=stylish', '--max-problems=50'],
      // No telemetry and no update check: CI reaches no network but the package registries.
      { cwd: ROOT, encoding: 'utf8', env: { ...process.env, REDOCLY_TELEMETRY: 'off', REDOCLY_SUPPRESS_UPDATE_NOTICE: 'true', NO_COLOR: '1' }, timeout: 60_000 },
    );
    const output = `${lint.stdout}${lint.stderr}`;
    expect({ status: lint.status, warnings: /You have \d+ warnings?/.exec(output)?.[0] ?? null }).toEqual({ status: 0, warnings: null });
  });
});
