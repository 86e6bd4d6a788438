import { X509Certificate, createPrivateKey } from 'node:crypto';
import { mkdirSync, mkdtempSync, readFileSync, readdirSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { loadTlsMaterial } from './certificate';

describe('the generated development certificate', () => {
  let dataDir: string;
  beforeEach(() => (dataDir = mkdtempSync(join(tmpdir(), 'hotel-tls-'))));
  afterEach(() => rmSync(dataDir, { recursive: true, force: true }));

  const onDisk = () => ({ cert: readFileSync(join(dataDir, 'tls/dev-cert.pem'), 'utf8'), key: readFileSync(join(dataDir, 'tls/dev-key.pem'), 'utf8') });
  const matches = (pair: { cert: string; key: string }) => new X509Certificate(pair.cert).checkPrivateKey(createPrivateKey(pair.key));

  it('replicas starting at once on one data directory all get the one pair kept there, whose key is its certificate\'s', async () => {
    const pairs = await Promise.all(Array.from({ length: 6 }, () => loadTlsMaterial({ dataDir })));
    const kept = onDisk();
    expect(matches(kept)).toBe(true);
    // The winner answers its own pair, which is the one kept; the others read it.
    expect(pairs.filter((pair) => pair.cert === kept.cert && pair.key === kept.key).length).toBeGreaterThanOrEqual(1);
    for (const pair of pairs) expect(matches(pair)).toBe(true);
    expect(await loadTlsMaterial({ dataDir })).toEqual(kept);
    // No staging directory is left behind.
    expect(readdirSync(dataDir)).toEqual(['tls']);
  });

  it('replaces a kept certificate that is not its key\'s (an earlier race), setting the old files aside', async () => {
    const first = await loadTlsMaterial({ dataDir });
    const otherDir = mkdtempSync(join(tmpdir(), 'hotel-tls-other-'));
    try {
      const other = await loadTlsMaterial({ dataDir: otherDir });
      writeFileSync(join(dataDir, 'tls/dev-key.pem'), other.key);
      const renewed = await loadTlsMaterial({ dataDir });
      expect(matches(renewed)).toBe(true);
      expect(renewed.cert).not.toBe(first.cert);
      expect(onDisk()).toEqual(renewed);
      expect(readdirSync(dataDir).filter((name) => name.startsWith('tls-unusable-'))).toHaveLength(1);
    } finally {
      rmSync(otherDir, { recursive: true, force: true });
    }
  });

  it('makes a data directory that is not there yet', async () => {
    const pair = await loadTlsMaterial({ dataDir: join(dataDir, 'new/data') });
    expect(matches(pair)).toBe(true);
  });

  it('takes the place of an empty tls directory', async () => {
    mkdirSync(join(dataDir, 'tls'));
    const pair = await loadTlsMaterial({ dataDir });
    expect(onDisk()).toEqual(pair);
  });
});
