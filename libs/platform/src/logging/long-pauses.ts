import { PerformanceObserver, constants } from 'node:perf_hooks';
import { JsonLogger } from './json-logger';

/** A pause worth a line at debug level: it shows in the latency of the requests in flight. */
const LONG_PAUSE_MS = 20;
/** A pause that means trouble (a heap near its limit, a leak): a warning. Below it, on a busy machine, pauses of tens of ms are normal. */
const TROUBLE_PAUSE_MS = 100;

/** How a garbage collection of `ms` is logged: warn from TROUBLE_PAUSE_MS, debug from LONG_PAUSE_MS, else not. */
export function pauseLogLevel(ms: number): 'warn' | 'debug' | null {
  return ms >= TROUBLE_PAUSE_MS ? 'warn' : ms >= LONG_PAUSE_MS ? 'debug' : null;
}

const KINDS: Record<number, string> = {
  [constants.NODE_PERFORMANCE_GC_MAJOR]: 'major',
  [constants.NODE_PERFORMANCE_GC_MINOR]: 'minor',
  [constants.NODE_PERFORMANCE_GC_INCREMENTAL]: 'incremental',
  [constants.NODE_PERFORMANCE_GC_WEAKCB]: 'weak callbacks',
};

/**
 * Logs every garbage collection that stopped the process for 20 ms or more (debug;
 * warn from 100 ms): such a pause shows as latency in every request the process was
 * handling, and the log line says whether a slow moment was this process collecting garbage.
 */
export function logLongGarbageCollections(logger: JsonLogger): PerformanceObserver {
  const observer = new PerformanceObserver((list) => {
    for (const entry of list.getEntries()) {
      const level = pauseLogLevel(entry.duration);
      if (!level) continue;
      const kind = (entry as { detail?: { kind?: number } }).detail?.kind;
      logger[level]({ msg: 'long garbage collection', ms: Math.round(entry.duration), kind: kind === undefined ? 'unknown' : (KINDS[kind] ?? String(kind)) });
    }
  });
  observer.observe({ entryTypes: ['gc'] });
  return observer;
}
