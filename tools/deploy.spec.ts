import { spawnSync } from 'node:child_process';
import { existsSync, readFileSync, readdirSync } from 'node:fs';
import { join, resolve } from 'node:path';
import { parse, parseAllDocuments } from 'yaml';

const ROOT = resolve(__dirname, '..');
const APPS = ['gateway', 'users', 'accounting', 'promo', 'search', 'rates', 'booking'];

function available(command: string): boolean {
  return spawnSync('sh', ['-c', `command -v ${command}`]).status === 0;
}

/** docker-compose.yml and deploy/ cannot run here (no engine, no cluster): they are validated. */
describe('deployment files', () => {
  it('docker-compose.yml runs PostgreSQL, NATS with JetStream and every app from the built image, each with its own NATS identity', () => {
    const text = readFileSync(join(ROOT, 'docker-compose.yml'), 'utf8');
    const compose = parse(text, { merge: true });
    expect(Object.keys(compose.services).sort()).toEqual([...APPS, 'nats', 'postgres', 'secrets'].sort());
    // The broker runs the generated configuration: authenticated identities, JetStream on.
    expect(compose.services.nats.command).toEqual(['-c', '/secrets/nats/nats.conf']);
    expect(compose.services.secrets.command).toEqual(expect.arrayContaining(['init-secrets', '--jetstream-dir']));
    for (const app of APPS) {
      const command: string[] = compose.services[app].command;
      expect(command).toEqual(['node', `dist/apps/${app}/src/main.js`]);
      expect(existsSync(join(ROOT, command[1]))).toBe(true);
      expect(compose.services[app].environment.NATS_NKEY_SEED_FILE).toBe(`/secrets/nats/${app}.nk`);
    }
    // No secret value is written into the file.
    expect(text).not.toMatch(/(VOUCHER_SECRET|RATE_ID_SECRET):/);
  });

  (available('docker-compose') ? it : it.skip)('docker-compose config -q accepts docker-compose.yml', () => {
    const result = spawnSync('docker-compose', ['-f', 'docker-compose.yml', 'config', '-q'], { cwd: ROOT, encoding: 'utf8' });
    expect(result.stderr).toBe('');
    expect(result.status).toBe(0);
  });

  it('deploy/base has a Deployment and a Service per app, configured by environment', () => {
    const rendered = available('kubectl')
      ? spawnSync('kubectl', ['kustomize', 'deploy/base'], { cwd: ROOT, encoding: 'utf8' }).stdout
      : readdirSync(join(ROOT, 'deploy/base'))
          .filter((file) => file.endsWith('.yaml') && file !== 'kustomization.yaml')
          .map((file) => readFileSync(join(ROOT, 'deploy/base', file), 'utf8'))
          .join('\n---\n');
    const objects = parseAllDocuments(rendered).map((document) => document.toJSON());
    const named = (kind: string) => objects.filter((object) => object?.kind === kind).map((object) => object.metadata.name);
    for (const app of APPS) {
      expect(named('Deployment')).toContain(app);
      expect(named('Service')).toContain(app);
      const deployment = objects.find((object) => object?.kind === 'Deployment' && object.metadata.name === app);
      const container = deployment.spec.template.spec.containers[0];
      expect(container.command).toEqual(['node', `dist/apps/${app}/src/main.js`]);
      expect(container.envFrom).toEqual(expect.arrayContaining([{ configMapRef: { name: 'hotel-config' } }]));
      expect(container.readinessProbe).toBeDefined();
      // Its own NATS identity, mounted from a referenced Secret, and nothing of another app's.
      expect(container.env).toEqual(expect.arrayContaining([{ name: 'NATS_NKEY_SEED_FILE', value: `/var/run/secrets/hotel/nats/${app}.nk` }]));
      const identity = deployment.spec.template.spec.volumes.find((volume: any) => volume.name === 'nats-identity');
      expect(identity.secret).toMatchObject({ secretName: 'hotel-nats-keys', items: [{ key: `${app}.nk`, path: `${app}.nk` }] });
    }
    expect(named('ConfigMap')).toContain('hotel-config');
    // Secrets are referenced, never inlined.
    expect(named('Secret')).toEqual([]);
  });
});
