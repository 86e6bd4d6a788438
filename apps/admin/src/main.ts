import 'reflect-metadata';
import { Logger } from '@nestjs/common';
import { existsSync, readFileSync } from 'node:fs';
import { join, resolve } from 'node:path';
import { BusCredentials } from '@hotel/platform';
import { runAdmin } from './admin-cli';

// Nest's own log lines would break the one-JSON-object-on-stdout contract.
Logger.overrideLogger(false);

/**
 * The broker and the admin identity: the environment wins; else what `npm start`
 * keeps under its data directory (the URL of the broker it runs, and the admin's
 * NKEY seed among the secrets, readable by their owner only).
 */
function adminBus(): BusCredentials {
  const dataDir = resolve(process.env.DATA_DIR || '.data');
  const read = (file: string) => (existsSync(file) ? readFileSync(file, 'utf8').trim() : undefined);
  const url = process.env.NATS_URL || read(join(dataDir, 'nats.url')) || 'nats://127.0.0.1:4222';
  const seed =
    process.env.NATS_NKEY_SEED ||
    (process.env.NATS_NKEY_SEED_FILE ? read(process.env.NATS_NKEY_SEED_FILE) : undefined) ||
    read(join(dataDir, 'secrets', 'nats', 'admin.nk'));
  return { url, identity: 'admin', seed };
}

runAdmin(process.argv.slice(2), adminBus(), {
  out: (line) => process.stdout.write(line + '\n'),
  err: (line) => process.stderr.write(line + '\n'),
}).then(
  (code) => process.exit(code),
  (error: unknown) => {
    process.stderr.write(`${error instanceof Error ? error.message : String(error)}\n`);
    process.exit(1);
  },
);
