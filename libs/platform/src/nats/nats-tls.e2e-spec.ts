import { ChildProcess, spawn, spawnSync } from 'node:child_process';
import { mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import { connect as connectTcp } from 'node:net';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { connect } from 'nats';
import { BusIdentity, SUBJECTS } from '@hotel/contracts';
import { findNatsServer, freePort, waitForPort } from '@hotel/testing';
import { PlatformEnv, loadEnv } from '../config/env';
import { BusKey, brokerConfig, newBusKeys } from './bus-broker';
import { busCredentials, natsConnectionOptions } from './nats-options';

const FAIL_FAST = { waitOnFirstConnect: false, maxReconnectAttempts: 0, timeout: 10_000 };

function openssl(dir: string, ...args: string[]) {
  const result = spawnSync('openssl', args, { cwd: dir, encoding: 'utf8' });
  if (result.status !== 0) throw new Error(`openssl ${args.join(' ')}: ${result.stderr}`);
}

/** A CA (its certificate and key) in `dir`, named `name`. */
function newCa(dir: string, name: string) {
  openssl(dir, 'req', '-x509', '-newkey', 'ec', '-pkeyopt', 'ec_paramgen_curve:prime256v1', '-nodes', '-days', '1', '-subj', `/CN=${name}`, '-keyout', `${name}.key`, '-out', `${name}.pem`, '-addext', 'basicConstraints=critical,CA:TRUE', '-addext', 'keyUsage=critical,keyCertSign,cRLSign');
  return join(dir, `${name}.pem`);
}

/**
 * With NATS_TLS_* set, an app's bus connection is encrypted and verifies the
 * broker's certificate against the configured CA: the broker (configured by
 * brokerConfig with a tls block) accepts it and reports it as TLS, while a
 * client that does not trust the CA, or that speaks plain NATS, is refused.
 */
describe('NATS over TLS', () => {
  let dir: string;
  let server: ChildProcess;
  let port: number;
  let monitorPort: number;
  let caFile: string;
  let keys: Record<BusIdentity, BusKey>;

  const credentials = (identity: BusIdentity, tls: Record<string, string> = {}) =>
    busCredentials(loadEnv(PlatformEnv, { NATS_URL: `tls://127.0.0.1:${port}`, NATS_NKEY_SEED: keys[identity].seed, ...tls }), identity);

  beforeAll(async () => {
    const binary = findNatsServer();
    if (!binary) throw new Error('nats-server not found on PATH or in /usr/sbin');
    dir = mkdtempSync(join(tmpdir(), 'hotel-nats-tls-'));
    caFile = newCa(dir, 'ca');
    openssl(dir, 'req', '-newkey', 'ec', '-pkeyopt', 'ec_paramgen_curve:prime256v1', '-nodes', '-subj', '/CN=localhost', '-keyout', 'server.key', '-out', 'server.csr');
    writeFileSync(join(dir, 'server.ext'), 'subjectAltName=IP:127.0.0.1,DNS:localhost\nextendedKeyUsage=serverAuth\n');
    openssl(dir, 'x509', '-req', '-in', 'server.csr', '-CA', 'ca.pem', '-CAkey', 'ca.key', '-CAcreateserial', '-days', '1', '-extfile', 'server.ext', '-out', 'server.pem');
    [port, monitorPort] = [await freePort(), await freePort()];
    keys = newBusKeys();
    const publicKeys = Object.fromEntries(Object.entries(keys).map(([identity, key]) => [identity, key.publicKey])) as Record<BusIdentity, string>;
    const configFile = join(dir, 'nats.conf');
    writeFileSync(configFile, brokerConfig({ host: '127.0.0.1', port, publicKeys, tls: { certFile: join(dir, 'server.pem'), keyFile: join(dir, 'server.key') } }), { mode: 0o600 });
    server = spawn(binary, ['-c', configFile, '-m', String(monitorPort)], { stdio: 'ignore' });
    await Promise.all([waitForPort(port), waitForPort(monitorPort)]);
  });
  afterAll(async () => {
    if (server && server.exitCode === null && server.signalCode === null) {
      await new Promise<void>((resolve) => {
        server.once('exit', () => resolve());
        server.kill('SIGTERM');
      });
    }
    if (dir) rmSync(dir, { recursive: true, force: true });
  });

  it('an app with NATS_TLS_CA_FILE connects over TLS, and a request and its reply cross the broker', async () => {
    // Connected as the apps connect (natsConnectionOptions alone): a first dial that a loaded machine slows past
    // nats.js's timeout is tried again, as in an app; FAIL_FAST is for the refusals below, which must not be retried.
    const gateway = await connect(natsConnectionOptions(credentials('gateway', { NATS_TLS_CA_FILE: caFile })));
    const users = await connect(natsConnectionOptions(credentials('users', { NATS_TLS_CA_FILE: caFile })));
    try {
      expect(gateway.info).toMatchObject({ tls_required: true });
      const subscription = users.subscribe(SUBJECTS.USERS_HEALTH_CHECK, { callback: (_error, message) => message.respond(message.data) });
      await users.flush();
      const reply = await gateway.request(SUBJECTS.USERS_HEALTH_CHECK, new TextEncoder().encode('over tls'), { timeout: 5000 });
      expect(new TextDecoder().decode(reply.data)).toBe('over tls');
      subscription.unsubscribe();
      // The broker's own view: both connections negotiated TLS (a version and a cipher suite).
      const connz = (await (await fetch(`http://127.0.0.1:${monitorPort}/connz`)).json()) as { connections: { name?: string; tls_version?: string; tls_cipher_suite?: string }[] };
      const byName = Object.fromEntries(connz.connections.map((connection) => [connection.name, connection]));
      for (const name of ['gateway', 'users']) {
        expect(byName[name]?.tls_version).toMatch(/^1\.[23]$/);
        expect(byName[name]?.tls_cipher_suite).toBeTruthy();
      }
    } finally {
      await Promise.all([gateway.close(), users.close()]);
    }
  });

  it('refuses an app without NATS_TLS_CA_FILE, or trusting another CA: the broker certificate is not trusted', async () => {
    // Without NATS_TLS_* nats.js still upgrades (the broker requires TLS), checking against the system's CAs only.
    const untrusted = { code: 'UNABLE_TO_VERIFY_LEAF_SIGNATURE' };
    await expect(connect({ ...natsConnectionOptions(credentials('gateway')), ...FAIL_FAST })).rejects.toMatchObject(untrusted);
    const otherCa = newCa(dir, 'other-ca');
    await expect(connect({ ...natsConnectionOptions(credentials('gateway', { NATS_TLS_CA_FILE: otherCa })), ...FAIL_FAST })).rejects.toMatchObject(untrusted);
  });

  it('refuses a client that speaks plain NATS: the broker demands TLS and never answers its PING', async () => {
    // nats.js always upgrades to TLS when the server requires it, so plain NATS is spoken over a raw socket.
    const socket = connectTcp(port, '127.0.0.1');
    let received = '';
    socket.on('data', (chunk) => (received += chunk.toString('latin1')));
    socket.once('data', () => socket.write(`CONNECT {"verbose":false,"pedantic":false,"name":"plain"}\r\nPING\r\n`));
    await new Promise<void>((resolve) => socket.once('close', () => resolve()));
    // The broker sent its INFO (demanding TLS) and then closed the connection: no PONG, nothing else.
    expect(received).toMatch(/^INFO \{[^\r\n]*"tls_required":true[^\r\n]*\r\n$/);
  });
});
