import { spawnSync } from 'node:child_process';
import { join, resolve } from 'node:path';

const ROOT = resolve(__dirname, '..');
const SERVICES = ['users', 'accounting', 'promo', 'search', 'rates', 'booking'];

/** A missing or bad variable stops the built app at start, naming the variable. */
describe('configuration at start', () => {
  const run = (app: string, env: Record<string, string>) =>
    spawnSync(process.execPath, [join(ROOT, 'dist/apps', app, 'src/main.js')], {
      env: { PATH: process.env.PATH ?? '', ...env },
      encoding: 'utf8',
      timeout: 20_000,
    });

  it.each(SERVICES)('%s stops without DATABASE_URL', (service) => {
    const result = run(service, {});
    expect(result.status).toBe(1);
    expect(result.stderr).toContain(`${service}: invalid configuration`);
    expect(result.stderr).toContain('DATABASE_URL');
  });

  it('the gateway stops on a bad PORT and NATS_URL', () => {
    const result = run('gateway', { PORT: 'eighty', NATS_URL: 'http://localhost' });
    expect(result.status).toBe(1);
    expect(result.stderr).toContain('PORT');
    expect(result.stderr).toContain('NATS_URL');
  });
});
