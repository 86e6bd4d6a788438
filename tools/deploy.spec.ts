import { spawnSync } from 'node:child_process';
import { existsSync, readFileSync, readdirSync } from 'node:fs';
import { join, resolve } from 'node:path';
import { parse, parseAllDocuments } from 'yaml';
// Plain JavaScript helpers, also run from the command line.
// eslint-disable-next-line @typescript-eslint/no-require-imports
const { build } = require('./lib/kustomize') as { build(dir: string): any[] };
// eslint-disable-next-line @typescript-eslint/no-require-imports
const { validate } = require('./lib/manifests') as { validate(object: unknown): string[] };

const ROOT = resolve(__dirname, '..');
// eslint-disable-next-line @typescript-eslint/no-require-imports -- plain JavaScript of the workspace's commands, not built
const { nodeFlagsOf } = require('./lib/app-memory') as { nodeFlagsOf(app: string): string[] };
/** What `npm run cluster` runs (tools/cluster.js). */
// eslint-disable-next-line @typescript-eslint/no-require-imports -- plain JavaScript of the workspace's commands, not built
const CLUSTER = require('./cluster') as { NATS_NODES: number; APP_REPLICAS: number; CLUSTER_ENV: Record<string, string> };
/**
 * Every platform app that runs as a Deployment on the bus: each directory under apps/ but
 * the admin command line and the vendor simulator (no NATS identity, tested on its own
 * below), and webhooks, written alongside (listed here so this holds before and after it lands).
 */
const APPS = [...new Set([...readdirSync(join(ROOT, 'apps')).filter((app) => app !== 'admin' && app !== 'vendor-simulator'), 'webhooks'])].sort();
const SERVICES = APPS.filter((app) => app !== 'gateway');
const OVERLAYS = ['dev', 'prod'];
const PRIVATE_RANGES = ['10.0.0.0/8', '172.16.0.0/12', '192.168.0.0/16', '169.254.0.0/16', '127.0.0.0/8'];

function available(command: string): boolean {
  return spawnSync('sh', ['-c', `command -v ${command}`]).status === 0;
}

const rendered = Object.fromEntries(OVERLAYS.map((overlay) => [overlay, build(join(ROOT, 'deploy/overlays', overlay))]));
const prod = rendered.prod;
const find = (kind: string, name: string) => prod.find((object) => object.kind === kind && object.metadata.name === name);
const ofKind = (kind: string) => prod.filter((object) => object.kind === kind);
const selects = (selector: Record<string, string>, labels: Record<string, string>) =>
  Object.entries(selector).every(([key, value]) => labels[key] === value);
const podLabels = (app: string) => find('Deployment', app).spec.template.metadata.labels;
/** The network policies that select an app's pods, but the default deny (which has no rule). */
const policiesOf = (app: string) =>
  ofKind('NetworkPolicy').filter((policy) => policy.metadata.name !== 'hotel-default-deny' && selects(policy.spec.podSelector.matchLabels, podLabels(app)));

/** Every metric name a text mentions (hotel_…, without the histogram suffixes). */
const metricNames = (text: string) => new Set([...text.matchAll(/\bhotel_[a-z_]+/g)].map(([name]) => name.replace(/_(bucket|count|sum)$/, '')));

/** docker-compose.yml and deploy/ cannot run here (no engine, no cluster): they are validated. */
describe('deployment files', () => {
  it('docker-compose.yml runs PostgreSQL, NATS with JetStream and every app from the built image, each with its own NATS identity', () => {
    const text = readFileSync(join(ROOT, 'docker-compose.yml'), 'utf8');
    const compose = parse(text, { merge: true });
    expect(Object.keys(compose.services).sort()).toEqual([...APPS, 'grafana', 'nats', 'postgres', 'prometheus', 'secrets', 'vendor-simulator'].sort());
    // The broker runs the generated configuration: authenticated identities, JetStream on.
    expect(compose.services.nats.command).toEqual(['-c', '/secrets/nats/nats.conf']);
    expect(compose.services.secrets.command).toEqual(expect.arrayContaining(['init-secrets', '--jetstream-dir']));
    for (const app of APPS) {
      const command: string[] = compose.services[app].command;
      expect(command).toEqual(['node', `dist/apps/${app}/src/main.js`]);
      if (app !== 'webhooks') expect(existsSync(join(ROOT, command[1]))).toBe(true);
      expect(compose.services[app].environment.NATS_NKEY_SEED_FILE).toBe(`/secrets/nats/${app}.nk`);
    }
    // No secret value is written into the file.
    expect(text).not.toMatch(/(VOUCHER_SECRET|RATE_ID_SECRET|WEBHOOK_SECRET_KEY|_API_KEY|_SECRET):/);
    // The platform's vendors: the simulator, its credentials the same files on both sides, written by `secrets`.
    const simulator = compose.services['vendor-simulator'];
    expect(simulator.command).toEqual(['node', 'dist/apps/vendor-simulator/src/main.js']);
    expect(existsSync(join(ROOT, simulator.command[1]))).toBe(true);
    const credentials = Object.entries(simulator.environment).filter(([name]) => /^VENDOR_\w+_FILE$/.test(name));
    expect(credentials).toHaveLength(8);
    for (const caller of ['search', 'rates']) {
      expect(compose.services[caller].environment).toMatchObject({ ...Object.fromEntries(credentials), VENDOR_SIMULATOR_URL: `http://vendor-simulator:${simulator.environment.PORT}` });
      expect(compose.services[caller].depends_on['vendor-simulator']).toBeDefined();
    }
    for (const [, file] of credentials) expect(file).toMatch(/^\/secrets\/vendor-simulator\/(atlas|borealis|cobalt|sandbox)-(api-key|secret)$/);
  });

  it('docker-compose.yml has an observability profile: Prometheus scrapes every app, Grafana shows the dashboard', () => {
    const compose = parse(readFileSync(join(ROOT, 'docker-compose.yml'), 'utf8'), { merge: true });
    for (const name of ['prometheus', 'grafana']) expect(compose.services[name].profiles).toEqual(['observability']);
    const targets: string[] = parse(readFileSync(join(ROOT, 'deploy/prometheus/prometheus.yml'), 'utf8')).scrape_configs.flatMap((job: any) =>
      job.static_configs.flatMap((config: any) => config.targets),
    );
    for (const app of SERVICES) {
      expect(targets).toContain(`${app}:9000`);
      expect(compose.services[app].environment).toMatchObject({ HEALTH_PORT: '9000', HEALTH_HOST: '0.0.0.0' });
    }
    expect(targets).toContain('gateway:9464');
    expect(compose.services.gateway.environment).toMatchObject({ METRICS_PORT: '9464', METRICS_HOST: '0.0.0.0' });
    // The metrics ports stay inside the compose network: only the API is published.
    expect(compose.services.gateway.ports).toEqual(['127.0.0.1:8443:8443']);
    expect(compose.services.grafana.volumes).toEqual(expect.arrayContaining([expect.stringMatching(/^\.\/deploy\/grafana\/hotel-booking\.json:/)]));
  });

  (available('docker-compose') ? it : it.skip)('docker-compose config -q accepts docker-compose.yml, with and without the observability profile', () => {
    for (const profile of [[], ['--profile', 'observability']]) {
      const result = spawnSync('docker-compose', ['-f', 'docker-compose.yml', ...profile, 'config', '-q'], { cwd: ROOT, encoding: 'utf8' });
      expect(result.stderr).toBe('');
      expect(result.status).toBe(0);
    }
  });

  it.each(OVERLAYS)('the %s overlay builds, and every object is valid against its schema (Kubernetes, Prometheus Operator, CloudNativePG)', (overlay) => {
    const objects = rendered[overlay];
    expect(objects.flatMap(validate)).toEqual([]);
    expect(new Set(objects.map((object) => object.metadata.namespace))).toEqual(new Set([overlay === 'prod' ? 'hotel' : 'hotel-dev']));
    for (const deployment of objects.filter((object) => object.kind === 'Deployment')) {
      expect(deployment.spec.template.spec.containers[0].image).toMatch(/^registry\.example\.com\/hotel\/booking-platform:(dev|\d+\.\d+\.\d+)$/);
    }
    // Secrets are referenced, never inlined.
    expect(objects.filter((object) => object.kind === 'Secret')).toEqual([]);
  });

  (available('kubectl') ? it.each(OVERLAYS) : it.skip.each(OVERLAYS))('kubectl kustomize builds the %s overlay as tools/lib/kustomize.js does', (overlay) => {
    const result = spawnSync('kubectl', ['kustomize', `deploy/overlays/${overlay}`], { cwd: ROOT, encoding: 'utf8' });
    expect(result.stderr).toBe('');
    const byId = (objects: any[]) => Object.fromEntries(objects.map((object) => [`${object.kind}/${object.metadata.name}`, object]));
    expect(byId(parseAllDocuments(result.stdout).map((document) => document.toJSON()))).toEqual(byId(rendered[overlay]));
  });

  it.each(APPS)('%s has a hardened Deployment with probes and resources, its own NATS identity, an HPA and a PDB', (app) => {
    const deployment = find('Deployment', app);
    const pod = deployment.spec.template.spec;
    const container = pod.containers[0];
    expect(container.command).toEqual(['node', `dist/apps/${app}/src/main.js`]);
    expect(container.envFrom).toEqual(expect.arrayContaining([{ configMapRef: { name: 'hotel-config' } }]));
    // Probes on the app's health port (HEALTH_PORT; the gateway's own HTTPS port).
    const healthPort = app === 'gateway' ? 'https' : 'probes';
    expect(container.livenessProbe.httpGet).toMatchObject({ path: '/health', port: healthPort });
    expect(container.readinessProbe.httpGet).toMatchObject({ path: app === 'gateway' ? '/health' : '/health/ready', port: healthPort });
    if (app !== 'gateway') {
      expect(container.ports).toEqual([{ name: 'probes', containerPort: Number(find('ConfigMap', 'hotel-config').data.HEALTH_PORT) }]);
      expect(container.env).toEqual(expect.arrayContaining([{ name: 'DATABASE_URL', valueFrom: { secretKeyRef: { name: 'hotel-db-app', key: 'uri' } } }]));
    }
    expect(container.resources.requests).toEqual({ cpu: expect.any(String), memory: expect.any(String) });
    expect(container.resources.limits).toEqual({ cpu: expect.any(String), memory: expect.any(String) });
    // Non-root, read-only, no capabilities, default seccomp; /tmp the only writable place.
    expect(pod.securityContext).toMatchObject({ runAsNonRoot: true, runAsUser: expect.any(Number), seccompProfile: { type: 'RuntimeDefault' } });
    expect(container.securityContext).toEqual({ allowPrivilegeEscalation: false, readOnlyRootFilesystem: true, capabilities: { drop: ['ALL'] } });
    expect(pod.volumes).toEqual(expect.arrayContaining([{ name: 'tmp', emptyDir: expect.any(Object) }]));
    expect(container.volumeMounts).toEqual(expect.arrayContaining([{ name: 'tmp', mountPath: '/tmp' }]));
    // Stopping takes the grace the app is given, and the gateway's preStop pause, with room left.
    const graceMs = Number(find('ConfigMap', 'hotel-config').data.SHUTDOWN_GRACE_MS) + (container.lifecycle?.preStop?.sleep?.seconds ?? 0) * 1000;
    expect(pod.terminationGracePeriodSeconds * 1000).toBeGreaterThan(graceMs + 10_000);
    // Its own NATS identity, mounted from a referenced Secret, and nothing of another app's.
    expect(container.env).toEqual(expect.arrayContaining([{ name: 'NATS_NKEY_SEED_FILE', value: `/var/run/secrets/hotel/nats/${app}.nk` }]));
    const identity = pod.volumes.find((volume: any) => volume.name === 'nats-identity');
    expect(identity.secret).toMatchObject({ secretName: 'hotel-nats-keys', defaultMode: 0o400, items: [{ key: `${app}.nk`, path: `${app}.nk` }] });
    // The HPA owns the replica count.
    expect(deployment.spec.replicas).toBeUndefined();
    const hpa = find('HorizontalPodAutoscaler', app);
    expect(hpa.spec.scaleTargetRef).toEqual({ apiVersion: 'apps/v1', kind: 'Deployment', name: app });
    expect(hpa.spec.minReplicas).toBeGreaterThanOrEqual(2);
    expect(selects(find('PodDisruptionBudget', app).spec.selector.matchLabels, podLabels(app))).toBe(true);
    expect(find('Service', app)).toBeDefined();
  });

  it.each(APPS)('%s is fenced by network policies: only the gateway takes traffic from outside; services reach NATS and PostgreSQL, every app the trace collector', (app) => {
    const deny = find('NetworkPolicy', 'hotel-default-deny');
    expect(selects(deny.spec.podSelector.matchLabels, podLabels(app))).toBe(true);
    expect(deny.spec.policyTypes).toEqual(['Ingress', 'Egress']);
    const policies = policiesOf(app);
    const ingress = policies.flatMap((policy) => policy.spec.ingress ?? []);
    const egress = policies.flatMap((policy) => policy.spec.egress ?? []);
    const egressPorts = egress.flatMap((rule) => rule.ports.map((port: any) => port.port));
    // An ingress rule without `from` admits everyone: only the gateway's.
    expect(ingress.filter((rule) => rule.from === undefined).length > 0).toBe(app === 'gateway');
    expect(egressPorts).toEqual(expect.arrayContaining([53, 4222]));
    expect(egressPorts.includes(5432)).toBe(app !== 'gateway');
    const collector = egress.filter((rule) => rule.ports.some((port: any) => port.port === 4318));
    expect(collector.flatMap((rule) => rule.to)).toEqual([{ namespaceSelector: { matchLabels: { 'kubernetes.io/metadata.name': 'monitoring' } } }]);
    const internet = egress.filter((rule) => rule.to.some((peer: any) => peer.ipBlock));
    // webhooks POSTs to partners' URLs; rates fetches the ECB's daily exchange rates and books with the vendors; search asks
    // the vendors for availability; booking reaches the card processor.
    if (app === 'webhooks' || app === 'rates' || app === 'search' || app === 'booking') {
      expect(internet).toHaveLength(1);
      expect(internet[0].ports).toEqual([{ protocol: 'TCP', port: 443 }]);
      const v4 = internet[0].to.find((peer: any) => peer.ipBlock.cidr === '0.0.0.0/0');
      expect(v4.ipBlock.except).toEqual(expect.arrayContaining(PRIVATE_RANGES));
    } else {
      expect(internet).toEqual([]);
    }
  });

  it('the vendor simulator runs hardened beside the services: search and rates alone reach it, with the credentials it reads; the prod overlay sells real vendors only', () => {
    const deployment = find('Deployment', 'vendor-simulator');
    const pod = deployment.spec.template.spec;
    const container = pod.containers[0];
    expect(container.command).toEqual(['node', 'dist/apps/vendor-simulator/src/main.js']);
    expect(deployment.spec.replicas).toBeGreaterThanOrEqual(2);
    expect(container.livenessProbe.httpGet).toEqual({ path: '/health', port: 'http' });
    expect(container.readinessProbe.httpGet).toEqual({ path: '/health/ready', port: 'http' });
    expect(container.env).toEqual(expect.arrayContaining([{ name: 'DATABASE_URL', valueFrom: { secretKeyRef: { name: 'hotel-db-app', key: 'uri' } } }]));
    expect(container.securityContext).toEqual({ allowPrivilegeEscalation: false, readOnlyRootFilesystem: true, capabilities: { drop: ['ALL'] } });
    expect(container.env.some((variable: { name: string }) => variable.name === 'NATS_NKEY_SEED_FILE')).toBe(false);
    expect(find('PodDisruptionBudget', 'vendor-simulator').spec.maxUnavailable).toBe(1);
    const port = container.ports.find((candidate: any) => candidate.name === 'http').containerPort;
    expect(container.env).toEqual(expect.arrayContaining([{ name: 'PORT', value: String(port) }]));
    const service = find('Service', 'vendor-simulator');
    expect(service.spec.ports).toEqual([{ name: 'http', port, targetPort: 'http' }]);

    // The credentials: the same files on both sides, from one referenced Secret.
    const credentialsOf = (env: any[]) => env.filter((variable) => /^VENDOR_(ATLAS|BOREALIS|COBALT|SANDBOX)_(API_KEY|SECRET)_FILE$/.test(variable.name));
    const credentials = credentialsOf(container.env);
    expect(credentials).toHaveLength(8);
    const secretOf = (spec: any, mountPath: string) => {
      const mount = spec.containers[0].volumeMounts.find((candidate: any) => mountPath.startsWith(`${candidate.mountPath}/`));
      return spec.volumes.find((volume: any) => volume.name === mount.name).secret.secretName;
    };
    for (const { value } of credentials) expect(secretOf(pod, value)).toBe('hotel-vendor-simulator');
    const config = find('ConfigMap', 'hotel-config').data;
    expect(config.VENDOR_SIMULATOR_URL).toBe(`http://${service.metadata.name}:${port}`);
    for (const caller of ['search', 'rates']) {
      const callerPod = find('Deployment', caller).spec.template.spec;
      expect(credentialsOf(callerPod.containers[0].env)).toEqual(credentials);
      for (const { value } of credentials) expect(secretOf(callerPod, value)).toBe('hotel-vendor-simulator');
      // Its egress to the simulator's pods on that port.
      const toSimulator = policiesOf(caller)
        .flatMap((policy) => policy.spec.egress ?? [])
        .filter((rule: any) => rule.to.some((peer: any) => peer.podSelector?.matchLabels?.['app.kubernetes.io/name'] === 'vendor-simulator'));
      expect(toSimulator.flatMap((rule: any) => rule.ports)).toEqual([{ protocol: 'TCP', port }]);
      // In production the real vendor's key and secret, as files from a referenced Secret.
      const hotelbeds = callerPod.containers[0].env.filter((variable: any) => /^HOTELBEDS_(API_KEY|SECRET)_FILE$/.test(variable.name));
      expect(hotelbeds).toHaveLength(2);
      for (const { value } of hotelbeds) expect(secretOf(callerPod, value)).toBe('hotel-vendor-hotelbeds');
    }
    // Only search and rates may call it; it reaches PostgreSQL.
    const own = policiesOf('vendor-simulator');
    const from = own.flatMap((policy) => policy.spec.ingress ?? []).filter((rule: any) => rule.ports.some((candidate: any) => candidate.port === port));
    expect(from.flatMap((rule: any) => rule.from.map((peer: any) => peer.podSelector.matchLabels['app.kubernetes.io/name'])).sort()).toEqual(['rates', 'search']);
    expect(own.flatMap((policy) => policy.spec.egress ?? []).flatMap((rule: any) => rule.ports.map((candidate: any) => candidate.port))).toEqual(expect.arrayContaining([5432]));

    // Live clients see real vendors only in production; development keeps the simulated ones.
    expect(config.SIMULATED_VENDORS).toBe('');
    const dev = rendered.dev;
    expect(dev.find((object) => object.kind === 'ConfigMap' && object.metadata.name === 'hotel-config').data.SIMULATED_VENDORS).toBe('atlas,borealis,cobalt');
    expect(dev.find((object) => object.kind === 'Deployment' && object.metadata.name === 'search').spec.template.spec.containers[0].env.some((variable: any) => variable.name.startsWith('HOTELBEDS_'))).toBe(false);
  });

  it('the prod overlay exposes the gateway through an Ingress with a cert-manager certificate; the gateway serves its own renewed certificate from a mounted Secret and believes only the ingress', () => {
    // The public name: the Ingress's TLS from the Certificate cert-manager renews.
    const [ingress] = ofKind('Ingress');
    const publicCertificate = find('Certificate', 'hotel-api');
    expect(ingress.spec.tls).toEqual([{ hosts: publicCertificate.spec.dnsNames, secretName: publicCertificate.spec.secretName }]);
    expect(publicCertificate.spec.issuerRef).toEqual({ name: expect.any(String), kind: 'ClusterIssuer', group: 'cert-manager.io' });
    expect(ingress.spec.rules.map((rule: any) => rule.host)).toEqual(publicCertificate.spec.dnsNames);
    const backend = ingress.spec.rules[0].http.paths[0].backend.service;
    expect(backend.name).toBe('gateway');
    // The backend port is the gateway's plain-HTTP listener (HTTP_PORT).
    const servicePort = find('Service', 'gateway').spec.ports.find((port: any) => port.name === backend.port.name);
    const gateway = find('Deployment', 'gateway').spec.template.spec;
    const container = gateway.containers[0];
    const env = Object.fromEntries(container.env.filter((variable: any) => 'value' in variable).map((variable: any) => [variable.name, variable.value]));
    const targetPort = container.ports.find((port: any) => port.name === servicePort.targetPort).containerPort;
    expect(String(targetPort)).toBe(env.HTTP_PORT);
    // Only the ingress controller reaches that port; and the gateway believes the forwarded headers of its network only.
    const plainRules = policiesOf('gateway')
      .flatMap((policy) => policy.spec.ingress ?? [])
      .filter((rule: any) => rule.ports.some((port: any) => port.port === targetPort));
    expect(plainRules.map((rule: any) => rule.from)).toEqual([[{ namespaceSelector: { matchLabels: { 'kubernetes.io/metadata.name': 'ingress-nginx' } } }]]);
    expect(env.TRUSTED_PROXIES).toMatch(/^\d+\.\d+\.\d+\.\d+\/\d+$/);
    expect(rendered.dev.filter((object) => object.kind === 'Ingress')).toEqual([]);

    // The gateway's own certificate: a Secret mounted whole (so renewals reach the files), from a namespace CA.
    const mount = container.volumeMounts.find((candidate: any) => env.TLS_CERT.startsWith(`${candidate.mountPath}/`));
    expect(env.TLS_KEY.startsWith(`${mount.mountPath}/`)).toBe(true);
    const volume = gateway.volumes.find((candidate: any) => candidate.name === mount.name);
    expect(volume.secret.items).toBeUndefined();
    const own = find('Certificate', 'hotel-gateway-tls');
    expect(volume.secret.secretName).toBe(own.spec.secretName);
    expect(own.spec.dnsNames).toEqual(expect.arrayContaining(['gateway', 'gateway.hotel.svc']));
    expect(own.spec.privateKey.rotationPolicy).toBe('Always');
    const issuer = find('Issuer', own.spec.issuerRef.name);
    const ca = ofKind('Certificate').find((certificate) => certificate.spec.secretName === issuer.spec.ca.secretName);
    expect(ca.spec.isCA).toBe(true);
    expect(find('Issuer', ca.spec.issuerRef.name).spec.selfSigned).toEqual({});
    // Read again well within the renewal window.
    expect(Number(env.TLS_RELOAD_S ?? 60)).toBeLessThan(3600);
  });

  it("deploy/README.md's YAML is valid too (the ClusterIssuer the public certificate names)", () => {
    const readme = readFileSync(join(ROOT, 'deploy/README.md'), 'utf8');
    const blocks = [...readme.matchAll(/```yaml\n([\s\S]*?)```/g)].map(([, block]) => block.replace(/^ {3}/gm, ''));
    const objects = blocks.flatMap((block) => parseAllDocuments(block).map((document) => document.toJSON()));
    expect(objects.map((object) => `${object.kind}/${object.metadata.name}`)).toContain(`ClusterIssuer/${find('Certificate', 'hotel-api').spec.issuerRef.name}`);
    expect(objects.flatMap(validate)).toEqual([]);
  });

  it('PostgreSQL is a three-instance CloudNativePG cluster backed up to object storage; NATS a three-node JetStream cluster from its chart', () => {
    const cluster = find('Cluster', 'hotel-db');
    expect(cluster.spec.instances).toBe(3);
    expect(cluster.spec.plugins).toEqual([expect.objectContaining({ isWALArchiver: true, parameters: { barmanObjectName: 'hotel-db-backups' } })]);
    expect(find('ObjectStore', 'hotel-db-backups').spec.configuration.s3Credentials.accessKeyId.name).toBe('hotel-db-backup-credentials');
    expect(find('ScheduledBackup', 'hotel-db-nightly').spec.cluster.name).toBe('hotel-db');

    const values = parse(readFileSync(join(ROOT, 'deploy/nats/values.yaml'), 'utf8'));
    expect(values.config.cluster).toEqual({ enabled: true, replicas: 3 });
    expect(values.config.jetstream.enabled).toBe(true);
    // The generated authorization, included from the Secret the pod mounts.
    const mount = values.container.patch.find((op: any) => op.path === '/volumeMounts/-').value;
    const volume = values.podTemplate.patch.find((op: any) => op.path === '/spec/volumes/-').value;
    expect(volume).toEqual({ name: mount.name, secret: { secretName: 'hotel-nats-auth' } });
    expect(resolve('/etc/nats-config', values.config.merge.$include)).toBe(`${mount.mountPath}/auth.conf`);
    expect(find('ConfigMap', 'hotel-config').data.NATS_URL).toBe('nats://nats:4222');
  });

  it('the NATS chart and the prod overlay run what npm run cluster proves: three nodes, the booking events and the rate limits on every one, two replicas of every app at least', () => {
    const values = parse(readFileSync(join(ROOT, 'deploy/nats/values.yaml'), 'utf8'));
    expect(values.config.cluster.replicas).toBe(CLUSTER.NATS_NODES);
    const env = (app: string, name: string) => find('Deployment', app).spec.template.spec.containers[0].env?.find((variable: { name: string }) => variable.name === name)?.value;
    expect(env('booking', 'BOOKING_EVENTS_REPLICAS')).toBe(CLUSTER.CLUSTER_ENV.BOOKING_EVENTS_REPLICAS);
    expect(env('gateway', 'RATE_LIMIT_STORE_REPLICAS')).toBe(CLUSTER.CLUSTER_ENV.RATE_LIMIT_STORE_REPLICAS);
    // The apps reach the cluster through the chart's service; the nodes tell a client each other's addresses.
    expect(find('ConfigMap', 'hotel-config').data.NATS_URL).toBe('nats://nats:4222');
    for (const app of APPS) {
      const hpa = ofKind('HorizontalPodAutoscaler').find((object) => object.spec.scaleTargetRef.name === app);
      expect({ app, minReplicas: hpa.spec.minReplicas >= CLUSTER.APP_REPLICAS }).toEqual({ app, minReplicas: true });
    }
  });

  it('every app runs with the Node flags chosen for it (tools/lib/app-memory.js) in docker-compose.yml and in both overlays, and the others with none', () => {
    const compose = parse(readFileSync(join(ROOT, 'docker-compose.yml'), 'utf8'), { merge: true });
    for (const app of APPS) {
      const flags = nodeFlagsOf(app).join(' ') || undefined;
      expect({ app, compose: compose.services[app].environment.NODE_OPTIONS }).toEqual({ app, compose: flags });
      for (const overlay of OVERLAYS) {
        const container = rendered[overlay].find((object) => object.kind === 'Deployment' && object.metadata.name === app).spec.template.spec.containers[0];
        const nodeOptions = container.env?.find((variable: { name: string }) => variable.name === 'NODE_OPTIONS')?.value;
        expect({ app, overlay, nodeOptions }).toEqual({ app, overlay, nodeOptions: flags });
      }
    }
  });

  it("the services' connection budgets fit PostgreSQL's max_connections, and each is shared by at most its HPA's replicas", () => {
    for (const overlay of OVERLAYS) {
      const objects = rendered[overlay];
      const config = objects.find((object) => object.kind === 'ConfigMap' && object.metadata.name === 'hotel-config').data;
      const maxConnections = Number(objects.find((object) => object.kind === 'Cluster' && object.metadata.name === 'hotel-db').spec.postgresql.parameters.max_connections);
      const budgets = SERVICES.map((service) => {
        const container = objects.find((object) => object.kind === 'Deployment' && object.metadata.name === service).spec.template.spec.containers[0];
        const own = (name: string) => container.env?.find((variable: { name: string }) => variable.name === name)?.value;
        const budget = Number(own('DB_MAX_CONNECTIONS') ?? config.DB_MAX_CONNECTIONS);
        const replicas = Number(own('DB_MAX_REPLICAS') ?? config.DB_MAX_REPLICAS);
        const hpa = objects.find((object) => object.kind === 'HorizontalPodAutoscaler' && object.spec.scaleTargetRef.name === service);
        expect({ overlay, service, atLeastHpaMaximum: replicas >= hpa.spec.maxReplicas, pool: Math.floor(budget / replicas) >= 1 }).toEqual({ overlay, service, atLeastHpaMaximum: true, pool: true });
        expect(container.env?.some((variable: { name: string }) => variable.name === 'DB_POOL_SIZE') ?? false).toBe(false);
        return budget;
      });
      // The vendor simulator's pools, a fixed number of replicas.
      const simulator = objects.find((object) => object.kind === 'Deployment' && object.metadata.name === 'vendor-simulator');
      const simulatorPool = Number(simulator.spec.template.spec.containers[0].env.find((variable: { name: string }) => variable.name === 'DB_POOL_SIZE').value);
      expect(simulator.spec.replicas * simulatorPool).toBeLessThanOrEqual(10);
      // Room for CloudNativePG's own connections, migrations and an operator's psql.
      expect(budgets.reduce((sum, budget) => sum + budget, 0) + simulator.spec.replicas * simulatorPool + 20).toBeLessThanOrEqual(maxConnections);
      expect(config.DB_POOL_SIZE).toBeUndefined();
    }
  });

  it('the alerts and the dashboard use only the metrics deploy/README.md lists, and every app is scraped', () => {
    const readme = readFileSync(join(ROOT, 'deploy/README.md'), 'utf8');
    const listed = metricNames(readme.slice(readme.indexOf('## Metrics'), readme.indexOf('## Alerts')));
    const rules = find('PrometheusRule', 'hotel-alerts');
    const dashboard = readFileSync(join(ROOT, 'deploy/grafana/hotel-booking.json'), 'utf8');
    for (const name of [...metricNames(JSON.stringify(rules)), ...metricNames(dashboard)]) expect([...listed]).toContain(name);
    const alerts = rules.spec.groups.flatMap((group: any) => group.rules.map((rule: any) => rule.alert));
    expect(alerts).toEqual(
      expect.arrayContaining(['HotelApi5xxRatioHigh', 'HotelBookP99Slow', 'HotelSearchP99Slow', 'HotelSagaUnfinishedPastLease', 'HotelWebhookDeliveriesFailing', 'HotelNatsUnreachable', 'HotelPostgresUnreachable']),
    );
    expect(JSON.parse(find('ConfigMap', 'hotel-grafana-dashboard').data['hotel-booking.json'])).toEqual(JSON.parse(dashboard));
    const scraped = find('PodMonitor', 'hotel-apps');
    const ports = scraped.spec.podMetricsEndpoints.map((endpoint: any) => endpoint.port);
    for (const app of APPS) {
      expect(selects(scraped.spec.selector.matchLabels, podLabels(app))).toBe(true);
      const names = find('Deployment', app).spec.template.spec.containers[0].ports.map((port: any) => port.name);
      expect(names.some((name: string) => ports.includes(name))).toBe(true);
    }
  });
});
