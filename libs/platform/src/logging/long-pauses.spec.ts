import { JsonLogger } from './json-logger';
import { logLongGarbageCollections, pauseLogLevel } from './long-pauses';

describe('logLongGarbageCollections', () => {
  it('warns of a pause from 100 ms (trouble), logs one from 20 ms at debug, and no shorter one', () => {
    expect([5, 19.9, 20, 99, 100, 450].map(pauseLogLevel)).toEqual([null, null, 'debug', 'debug', 'warn', 'warn']);
  });

  it('logs a garbage collection that stopped the process for 20 ms or more', async () => {
    const logger = new JsonLogger('test', 'debug');
    const logged = jest.fn();
    jest.spyOn(logger, 'warn').mockImplementation(logged);
    jest.spyOn(logger, 'debug').mockImplementation(logged);
    const warn = logged;
    const observer = logLongGarbageCollections(logger);
    try {
      // A heap of many small live objects makes a full collection slow enough to report.
      const retained = Array.from({ length: 3_000_000 }, (_, i) => ({ i, next: null as unknown }));
      for (let attempt = 0; attempt < 20 && warn.mock.calls.length === 0; attempt++) {
        for (let i = 0; i < 200_000; i++) retained[(i * 7919) % retained.length].next = { i };
        await new Promise((resolve) => setTimeout(resolve, 10));
      }
      expect(retained.length).toBe(3_000_000);
      expect(warn).toHaveBeenCalledWith(expect.objectContaining({ msg: 'long garbage collection', ms: expect.any(Number), kind: expect.any(String) }));
    } finally {
      observer.disconnect();
    }
  });
});
