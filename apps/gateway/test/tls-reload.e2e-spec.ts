import { mkdtempSync, renameSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { connect } from 'node:tls';
import { generate } from 'selfsigned';
import { TestSystem } from './system';

/** A certificate for `name` and its key (EC P-256, as a cert-manager Certificate would have it). */
async function certificate(name: string): Promise<{ cert: string; key: string }> {
  const pems = await generate([{ name: 'commonName', value: name }], {
    keyType: 'ec',
    curve: 'P-256',
    algorithm: 'sha256',
    extensions: [{ name: 'subjectAltName', altNames: [{ type: 2, value: name }] }],
  });
  return { cert: pems.cert, key: pems.private };
}

/** The common name of the certificate the gateway presents to a new connection. */
function presented(url: string): Promise<string> {
  const { hostname, port } = new URL(url);
  return new Promise((resolve, reject) => {
    const socket = connect({ host: hostname, port: Number(port), rejectUnauthorized: false, servername: 'localhost' }, () => {
      const subject = socket.getPeerCertificate().subject;
      socket.end();
      resolve(String(subject.CN));
    });
    socket.on('error', reject);
  });
}

async function eventually(check: () => Promise<boolean>, timeoutMs = 15_000): Promise<void> {
  const deadline = Date.now() + timeoutMs;
  while (!(await check())) {
    if (Date.now() > deadline) throw new Error('not within the time');
    await new Promise((resolve) => setTimeout(resolve, 200));
  }
}

/**
 * The gateway's certificate from files (a mounted Secret in Kubernetes): a renewed pair is
 * taken up by new connections without a restart; a pair that does not go together is not.
 */
describe('TLS certificate from files, renewed in place', () => {
  let system: TestSystem;
  let dir: string;
  const write = (pair: { cert: string; key: string }) => {
    // As Kubernetes swaps a Secret's files: each written whole, then moved into place.
    for (const [name, content] of [
      ['tls.key', pair.key],
      ['tls.crt', pair.cert],
    ]) {
      writeFileSync(join(dir, `.${name}.new`), content, { mode: 0o600 });
      renameSync(join(dir, `.${name}.new`), join(dir, name));
    }
  };

  beforeAll(async () => {
    dir = mkdtempSync(join(tmpdir(), 'hotel-tls-'));
    write(await certificate('first.example'));
    system = await TestSystem.start({ TLS_CERT: join(dir, 'tls.crt'), TLS_KEY: join(dir, 'tls.key'), TLS_RELOAD_S: '1' }, ['users']);
  });
  afterAll(() => system?.close());

  it('serves the files’ certificate, a renewed one from the next look on, and keeps it when a new pair does not match', async () => {
    expect(await presented(system.url)).toBe('first.example');
    expect((await system.request('GET', '/health')).status).toBe(200);

    const renewed = await certificate('renewed.example');
    write(renewed);
    await eventually(async () => (await presented(system.url)) === 'renewed.example');
    expect((await system.request('GET', '/health')).status).toBe(200);

    // A key that is not the certificate's: refused, the renewed pair stays in use.
    const other = await certificate('other.example');
    write({ cert: other.cert, key: renewed.key });
    await new Promise((resolve) => setTimeout(resolve, 2500));
    expect(await presented(system.url)).toBe('renewed.example');
    // Once the pair goes together again, it is taken.
    write(other);
    await eventually(async () => (await presented(system.url)) === 'other.example');
  });
});
