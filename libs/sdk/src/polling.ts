/** How a V1 search or a hotel's rates are polled until `search_completed`. */
export interface PollOptions {
  /** The wait between polls (default 500 ms; the platform suggests 0.5–1 s). */
  intervalMs?: number;
  /**
   * How long to poll (default 20 s; a search completes within 10 s of its start). When it
   * runs out, the last answer is returned as it is, with `search_completed: false`.
   */
  timeoutMs?: number;
  /** Aborts the polling (and the call under way). */
  signal?: AbortSignal;
  /** Told every answer, the first included, with its number (1 for the first). */
  onPoll?: (answer: { search_completed: boolean }, polls: number) => void;
}

/**
 * Asks `next` until an answer says `search_completed`, starting from `first`; the answer
 * that completed, or the last one when the time is up.
 */
export async function pollUntilComplete<T extends { search_completed: boolean }>(
  first: T,
  next: () => Promise<T>,
  options: PollOptions,
  clock: { sleep: (ms: number, signal?: AbortSignal) => Promise<void>; now: () => number },
): Promise<T> {
  const { intervalMs = 500, timeoutMs = 20_000, signal, onPoll } = options;
  const deadline = clock.now() + timeoutMs;
  let answer = first;
  let polls = 1;
  onPoll?.(answer, polls);
  while (!answer.search_completed && clock.now() + intervalMs <= deadline) {
    await clock.sleep(intervalMs, signal);
    answer = await next();
    onPoll?.(answer, ++polls);
  }
  return answer;
}
