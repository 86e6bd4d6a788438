import { mkdtempSync, readFileSync, readdirSync, statSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { BUS_IDENTITIES } from '@hotel/contracts';
import { publicKeyOf, secretWeakness } from '@hotel/platform';
import { SECRET_FILES, VENDOR_COUNTERS, brokerAuthorizationFile, brokerConfigFile, initSecrets, seedFile, vendorCredentialFile } from './init-secrets';

describe('init-secrets', () => {
  it('creates every secret once, owner-only, and a broker configuration that knows every identity', () => {
    const dir = mkdtempSync(join(tmpdir(), 'hotel-secrets-'));
    const created = initSecrets(dir, { natsListen: '127.0.0.1:4333', jetstreamDir: '/var/lib/nats' });
    const vendorFiles = VENDOR_COUNTERS.flatMap((counter) => [vendorCredentialFile(dir, counter, 'api-key'), vendorCredentialFile(dir, counter, 'secret')]);
    expect(created.sort()).toEqual(
      [...BUS_IDENTITIES.map((identity) => `nats/${identity}.nk`), 'rate-id-secret', 'voucher-secret', 'webhook-secret-key', ...vendorFiles.map((file) => file.slice(dir.length + 1))].sort(),
    );
    expect(vendorFiles).toContain(join(dir, 'vendor-simulator', 'sandbox-secret'));
    const files = [...readdirSync(join(dir, 'nats')).map((file) => join(dir, 'nats', file)), join(dir, 'voucher-secret'), join(dir, 'rate-id-secret'), join(dir, 'webhook-secret-key'), ...vendorFiles];
    for (const file of files) expect(statSync(file).mode & 0o777).toBe(0o600);
    expect(statSync(dir).mode & 0o777).toBe(0o700);
    // Each signing secret and vendor credential is strong enough for NODE_ENV=production, as loadEnv reads it (trimmed).
    for (const [name, file] of [...Object.entries(SECRET_FILES).map(([name, file]) => [name, join(dir, file)]), ...vendorFiles.map((file) => [file, file])]) {
      expect([name, secretWeakness(readFileSync(file, 'utf8').trim())]).toEqual([name, null]);
    }

    const config = readFileSync(brokerConfigFile(dir), 'utf8');
    expect(config).toContain('listen: "127.0.0.1:4333"');
    // The authorization block alone, as the whole configuration has it (for the NATS Helm chart).
    const authorization = readFileSync(brokerAuthorizationFile(dir), 'utf8');
    expect(authorization).toMatch(/^authorization: /);
    expect(authorization).not.toMatch(/listen|store_dir/);
    expect(config).toContain(authorization.trim());
    expect(config).toContain('"store_dir":"/var/lib/nats"');
    for (const identity of BUS_IDENTITIES) {
      const seed = readFileSync(seedFile(dir, identity), 'utf8').trim();
      expect(seed).toMatch(/^SU[A-Z2-7]{56}$/);
      expect(config).toContain(publicKeyOf(seed));
      expect(config).not.toContain(seed);
    }

    const seeds = BUS_IDENTITIES.map((identity) => readFileSync(seedFile(dir, identity), 'utf8'));
    expect(initSecrets(dir, { natsListen: '0.0.0.0:4222' })).toEqual([]);
    expect(BUS_IDENTITIES.map((identity) => readFileSync(seedFile(dir, identity), 'utf8'))).toEqual(seeds);
    expect(readFileSync(brokerConfigFile(dir), 'utf8')).toContain('listen: "0.0.0.0:4222"');
  });
});
