import { PerformanceObserver, constants } from 'node:perf_hooks';
import { JsonLogger } from './json-logger';

const LONG_PAUSE_MS = 20;

const KINDS: Record<number, string> = {
  [constants.NODE_PERFORMANCE_GC_MAJOR]: 'major',
  [constants.NODE_PERFORMANCE_GC_MINOR]: 'minor',
  [constants.NODE_PERFORMANCE_GC_INCREMENTAL]: 'incremental',
  [constants.NODE_PERFORMANCE_GC_WEAKCB]: 'weak callbacks',
};

/**
 * Logs (warn) every garbage collection that stopped the process for 20 ms or more:
 * such a pause shows as latency in every request the process was handling, and the
 * log line says whether a slow moment was this process collecting garbage.
 */
export function logLongGarbageCollections(logger: JsonLogger): PerformanceObserver {
  const observer = new PerformanceObserver((list) => {
    for (const entry of list.getEntries()) {
      if (entry.duration < LONG_PAUSE_MS) continue;
      const kind = (entry as { detail?: { kind?: number } }).detail?.kind;
      logger.warn({ msg: 'long garbage collection', ms: Math.round(entry.duration), kind: kind === undefined ? 'unknown' : (KINDS[kind] ?? String(kind)) });
    }
  });
  observer.observe({ entryTypes: ['gc'] });
  return observer;
}
