import { readFileSync, readdirSync } from 'node:fs';
import { join } from 'node:path';

/** One log line of a request, as an app wrote it (JSON), with the file it came from. */
export type TracedLine = Record<string, unknown> & { time: string; file: string };

/**
 * Every line of the apps' JSON logs in `logDir` (`<app>.log`, as `npm start` writes them)
 * that carries the request id, in time order: what each app did about one request, from
 * the gateway's access line to the services' business lines. Lines that are not JSON (an
 * app's own stderr) and other requests' lines are left out.
 */
export function traceRequest(logDir: string, requestId: string): TracedLine[] {
  const found: TracedLine[] = [];
  const quoted = JSON.stringify(requestId);
  for (const file of readdirSync(logDir).filter((name) => name.endsWith('.log')).sort()) {
    for (const text of readFileSync(join(logDir, file), 'utf8').split('\n')) {
      // Most lines are another request's: a text search first, the parse only for candidates.
      if (!text.includes(quoted)) continue;
      let line: Record<string, unknown>;
      try {
        line = JSON.parse(text) as Record<string, unknown>;
      } catch {
        continue;
      }
      if (line.requestId === requestId && typeof line.time === 'string') found.push({ ...line, time: line.time, file });
    }
  }
  // ISO 8601 times in UTC sort as text; a stable sort keeps one file's order for equal times.
  return found.sort((a, b) => (a.time < b.time ? -1 : a.time > b.time ? 1 : 0));
}
