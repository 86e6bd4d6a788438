import { mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { runAdmin } from './admin-cli';
import { traceRequest } from './trace-logs';

describe('traceRequest', () => {
  let dir: string;
  beforeEach(() => (dir = mkdtempSync(join(tmpdir(), 'hotel-trace-'))));
  afterEach(() => rmSync(dir, { recursive: true, force: true }));

  const line = (fields: Record<string, unknown>) => JSON.stringify(fields);

  it("gathers one request's lines from every app's log, in time order, and nothing else", () => {
    writeFileSync(
      join(dir, 'gateway.log'),
      [
        line({ time: '2026-11-27T10:00:00.300Z', service: 'gateway', requestId: 'r-1', msg: 'request', status: 400, code: 'CARD_DECLINED' }),
        line({ time: '2026-11-27T10:00:00.310Z', service: 'gateway', requestId: 'r-2', msg: 'request', status: 200 }),
        'not json, mentioning "r-1"',
        '',
      ].join('\n'),
    );
    writeFileSync(
      join(dir, 'booking.log'),
      [
        line({ time: '2026-11-27T10:00:00.100Z', service: 'booking', requestId: 'r-1', msg: 'booking created', bookingId: 7 }),
        line({ time: '2026-11-27T10:00:00.200Z', service: 'booking', requestId: 'r-1', msg: 'booking failed', bookingId: 7, failureCode: 'CARD_DECLINED' }),
        line({ time: '2026-11-27T10:00:00.250Z', service: 'booking', requestId: 'r-10', msg: 'booking created' }),
      ].join('\n'),
    );
    writeFileSync(join(dir, 'notes.txt'), line({ time: '2026-11-27T10:00:00.000Z', requestId: 'r-1' }));
    expect(traceRequest(dir, 'r-1').map(({ file, msg }) => `${file} ${msg}`)).toEqual(['booking.log booking created', 'booking.log booking failed', 'gateway.log request']);
    expect(traceRequest(dir, 'r-3')).toEqual([]);
  });

  it('is the admin command trace: one JSON object, exit 1 when no line has the id, 2 without an id', async () => {
    writeFileSync(join(dir, 'users.log'), line({ time: '2026-11-27T10:00:00.000Z', service: 'users', requestId: 'r-9', msg: 'handled' }));
    const run = async (...argv: string[]) => {
      const out: string[] = [];
      const err: string[] = [];
      // No broker: trace reads files only.
      const code = await runAdmin(argv, { url: 'nats://127.0.0.1:1', identity: 'admin' }, { out: (text) => out.push(text), err: (text) => err.push(text) });
      return { code, out, err };
    };
    const found = await run('trace', 'r-9', '--logs', dir);
    expect(found.code).toBe(0);
    expect(JSON.parse(found.out[0])).toEqual({ request_id: 'r-9', lines: [expect.objectContaining({ service: 'users', msg: 'handled', file: 'users.log' })] });
    expect((await run('trace', 'r-0', '--logs', dir)).code).toBe(1);
    const missing = await run('trace', '--logs', dir);
    expect(missing.code).toBe(2);
    expect(missing.err[0]).toMatch(/trace needs a request id/);
    expect((await run('trace', 'r-9', '--logs', join(dir, 'nowhere'))).err[0]).toMatch(/cannot read the logs/);
  });
});
