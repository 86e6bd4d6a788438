import { JsonLogger, setLogSink } from './json-logger';
import { BackgroundJobs, acceptRequestId, requestContext } from './request-context';

describe('BackgroundJobs', () => {
  afterEach(() => setLogSink(null));

  it("names its own service on a timer's log lines, whichever logger writes them", async () => {
    const lines: Record<string, unknown>[] = [];
    setLogSink((line) => lines.push(JSON.parse(line)));
    // Where services share a process, Nest's static Logger writes through the last app's logger.
    const lastRegistered = new JsonLogger('promo');
    const jobs = new BackgroundJobs('booking', 'host:1:abc');

    await new Promise<void>((resolve) =>
      setTimeout(() => jobs.run('saga-recovery', async () => {
        await Promise.resolve();
        lastRegistered.warn({ msg: 'saga step failed; retried later' });
        lastRegistered.warn({ msg: 'second line of the same pass' });
        resolve();
      }), 1),
    );
    lastRegistered.warn({ msg: 'outside any job' });

    expect(lines[0]).toMatchObject({ service: 'booking', instance: 'host:1:abc', requestId: expect.stringMatching(/^saga-recovery-/) });
    expect(lines[1].requestId).toBe(lines[0].requestId);
    expect(lines[2]).toMatchObject({ service: 'promo' });
    expect(lines[2]).not.toHaveProperty('requestId');
  });

  it('gives each pass its own id, which request-id checks accept', () => {
    const jobs = new BackgroundJobs('booking');
    const first = jobs.run('cleanup', () => requestContext.getStore()!.requestId);
    const second = jobs.run('cleanup', () => requestContext.getStore()!.requestId);
    expect(first).not.toBe(second);
    expect(acceptRequestId(first)).toBe(first);
    expect(requestContext.getStore()).toBeUndefined();
  });
});
