import { setLogSink } from '@hotel/platform';

export interface CapturedLogs {
  lines: Record<string, unknown>[];
  stop(): void;
}

/** Collects every JSON log line written while it runs (instead of printing it). */
export function captureLogs(): CapturedLogs {
  const lines: Record<string, unknown>[] = [];
  setLogSink((line) => lines.push(JSON.parse(line)));
  return { lines, stop: () => setLogSink(null) };
}
