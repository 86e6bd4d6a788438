import { existsSync, mkdirSync, mkdtempSync, readFileSync, renameSync, rmSync, writeFileSync } from 'node:fs';
import { X509Certificate, createPrivateKey } from 'node:crypto';
import { createSecureContext } from 'node:tls';
import { join } from 'node:path';
import { generate } from 'selfsigned';

export interface TlsMaterial {
  key: string;
  cert: string;
}

/**
 * TLS_CERT/TLS_KEY when given; otherwise a self-signed certificate for localhost,
 * generated on first start and kept under the data directory so clients can pin it.
 */
export async function loadTlsMaterial(options: { certFile?: string; keyFile?: string; dataDir: string }): Promise<TlsMaterial> {
  if (options.certFile || options.keyFile) {
    if (!options.certFile || !options.keyFile) throw new Error('TLS_CERT and TLS_KEY must be set together');
    return { cert: readFileSync(options.certFile, 'utf8'), key: readFileSync(options.keyFile, 'utf8') };
  }
  const dir = join(options.dataDir, 'tls');
  const kept = keptPair(dir);
  if (kept) return kept;
  const pems = await generate([{ name: 'commonName', value: 'localhost' }], {
    keyType: 'ec',
    curve: 'P-256',
    algorithm: 'sha256',
    extensions: [
      { name: 'basicConstraints', cA: false },
      { name: 'keyUsage', digitalSignature: true, keyEncipherment: true },
      { name: 'extKeyUsage', serverAuth: true },
      {
        name: 'subjectAltName',
        altNames: [
          { type: 2, value: 'localhost' },
          { type: 7, ip: '127.0.0.1' },
          { type: 7, ip: '::1' },
        ],
      },
    ],
  });
  // Replicas sharing a data directory start at once (npm run cluster, the chaos runs): the
  // pair is written into a directory of its own and renamed into place whole, so a file is
  // never read half written and the certificate never kept beside another replica's key
  // (which failed every later start). The first rename wins; the others use its pair.
  mkdirSync(options.dataDir, { recursive: true });
  const staged = mkdtempSync(join(options.dataDir, 'tls-'));
  writeFileSync(join(staged, CERT_FILE), pems.cert);
  writeFileSync(join(staged, KEY_FILE), pems.private, { mode: 0o600 });
  const meanwhile = keptPair(dir);
  if (meanwhile) {
    rmSync(staged, { recursive: true, force: true });
    return meanwhile;
  }
  // A directory without a usable pair (an earlier version's race left a certificate beside
  // another key) is set aside first; another replica may have done so already.
  if (existsSync(dir)) {
    try {
      renameSync(dir, `${dir}-unusable-${Date.now()}-${process.pid}`);
    } catch {
      // gone already
    }
  }
  try {
    renameSync(staged, dir);
    return { cert: pems.cert, key: pems.private };
  } catch (error) {
    rmSync(staged, { recursive: true, force: true });
    const theirs = keptPair(dir);
    if (!theirs) throw error;
    return theirs;
  }
}

const CERT_FILE = 'dev-cert.pem';
const KEY_FILE = 'dev-key.pem';

/** The generated pair kept in `dir`, when both files are there and the key is the certificate's; otherwise null. */
function keptPair(dir: string): TlsMaterial | null {
  let pair: TlsMaterial;
  try {
    pair = { cert: readFileSync(join(dir, CERT_FILE), 'utf8'), key: readFileSync(join(dir, KEY_FILE), 'utf8') };
  } catch {
    return null;
  }
  try {
    return new X509Certificate(pair.cert).checkPrivateKey(createPrivateKey(pair.key)) ? pair : null;
  } catch {
    return null;
  }
}

/** A certificate's subject and when it expires, for the log. */
export function describeCertificate(cert: string): { subject: string; validTo: string } {
  const x509 = new X509Certificate(cert);
  return { subject: x509.subject.replace(/\n/g, ', '), validTo: new Date(x509.validTo).toISOString() };
}

/**
 * Watches TLS_CERT/TLS_KEY and hands a changed pair to `apply` (a renewed certificate:
 * Kubernetes swaps a mounted Secret's files in place, cert-manager renews before expiry),
 * so new connections get it without a restart. A pair that does not go together (one
 * file written, the other not yet) is left for the next look, the old one kept meanwhile.
 * Returns the function that stops watching.
 */
export function watchTlsFiles(
  files: { certFile: string; keyFile: string },
  current: TlsMaterial,
  intervalMs: number,
  handlers: { apply(material: TlsMaterial): void; failed(error: unknown): void },
): () => void {
  let last = current;
  const timer = setInterval(() => {
    let next: TlsMaterial;
    try {
      next = { cert: readFileSync(files.certFile, 'utf8'), key: readFileSync(files.keyFile, 'utf8') };
      if (next.cert === last.cert && next.key === last.key) return;
      // Throws when the key is not the certificate's, or either does not parse.
      createSecureContext(next);
    } catch (error) {
      handlers.failed(error);
      return;
    }
    last = next;
    handlers.apply(next);
  }, intervalMs);
  timer.unref();
  return () => clearInterval(timer);
}
