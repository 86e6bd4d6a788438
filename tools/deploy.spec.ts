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
  it('docker-compose.yml runs PostgreSQL, NATS with JetStream and every app from the built image', () => {
    const compose = parse(readFileSync(join(ROOT, 'docker-compose.yml'), 'utf8'));
    expect(Object.keys(compose.services).sort()).toEqual([...APPS, 'nats', 'postgres'].sort());
    expect(compose.services.nats.command).toContain('-js');
    for (const app of APPS) {
      const command: string[] = compose.services[app].command;
      expect(command).toEqual(['node', `dist/apps/${app}/src/main.js`]);
      expect(existsSync(join(ROOT, command[1]))).toBe(true);
    }
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
    }
    expect(named('ConfigMap')).toContain('hotel-config');
  });
});
