import 'reflect-metadata';
import { Logger } from '@nestjs/common';
import { runAdmin } from './admin-cli';

// Nest's own log lines would break the one-JSON-object-on-stdout contract.
Logger.overrideLogger(false);

runAdmin(process.argv.slice(2), process.env.NATS_URL || 'nats://127.0.0.1:4222', {
  out: (line) => process.stdout.write(line + '\n'),
  err: (line) => process.stderr.write(line + '\n'),
}).then((code) => process.exit(code));
