/** A fetch of the ECB's file that went wrong: the message says how (for the warning in the log). */
export class FetchFailure extends Error {
  constructor(message: string) {
    super(message);
    this.name = 'FetchFailure';
  }
}

export interface FetchLimits {
  /** For the whole fetch: every redirect and the body included. */
  timeoutMs: number;
  /** A longer body is cut off and refused. */
  maxBytes: number;
  /** Production: a redirect to anything but https is not followed (the first address is checked at start, RatesEnv). */
  httpsOnly: boolean;
}

const REDIRECTS = new Set([301, 302, 303, 307, 308]);
const MAX_REDIRECTS = 3;

/**
 * GETs a small text document (the ECB's daily file: about 2 kB) within a deadline and
 * a size bound, following at most 3 redirects, itself, to check each address.
 * Throws FetchFailure; never retries (the refresh's next tick does).
 */
export async function fetchSmallText(url: string, limits: FetchLimits): Promise<string> {
  const signal = AbortSignal.timeout(limits.timeoutMs);
  let target = new URL(url);
  try {
    for (let redirects = 0; ; redirects++) {
      const response = await fetch(target, { redirect: 'manual', signal, headers: { accept: 'application/xml, text/xml;q=0.9' } });
      if (REDIRECTS.has(response.status)) {
        await response.body?.cancel();
        const location = response.headers.get('location');
        if (!location) throw new FetchFailure(`HTTP ${response.status} from ${target.host} without a Location`);
        if (redirects === MAX_REDIRECTS) throw new FetchFailure(`more than ${MAX_REDIRECTS} redirects`);
        const next = new URL(location, target);
        if (next.protocol !== 'https:' && (limits.httpsOnly || next.protocol !== 'http:')) {
          throw new FetchFailure(`redirected to ${next.protocol}//${next.host}: only https:// is followed`);
        }
        target = next;
        continue;
      }
      if (!response.ok) {
        await response.body?.cancel();
        throw new FetchFailure(`HTTP ${response.status} from ${target.host}`);
      }
      const declared = Number(response.headers.get('content-length') ?? 0);
      if (declared > limits.maxBytes) {
        await response.body?.cancel();
        throw new FetchFailure(`the answer is ${declared} bytes, more than ${limits.maxBytes}`);
      }
      return await readBounded(response, limits.maxBytes);
    }
  } catch (error) {
    if (signal.aborted) throw new FetchFailure(`no complete answer from ${target.host} within ${limits.timeoutMs} ms`);
    if (error instanceof FetchFailure) throw error;
    const cause = (error as { cause?: { code?: string; message?: string } }).cause;
    throw new FetchFailure(`cannot fetch from ${target.host}: ${cause?.code ?? cause?.message ?? (error instanceof Error ? error.message : String(error))}`);
  }
}

/** The body as UTF-8 text, read until it ends or passes `maxBytes` (then refused: a chunked body declares no length). */
async function readBounded(response: Response, maxBytes: number): Promise<string> {
  const chunks: Uint8Array[] = [];
  let size = 0;
  if (response.body) {
    const reader = response.body.getReader();
    for (;;) {
      const { done, value } = await reader.read();
      if (done) break;
      size += value.byteLength;
      if (size > maxBytes) {
        await reader.cancel();
        throw new FetchFailure(`the answer is more than ${maxBytes} bytes`);
      }
      chunks.push(value);
    }
  }
  try {
    return new TextDecoder('utf-8', { fatal: true }).decode(Buffer.concat(chunks));
  } catch {
    throw new FetchFailure('the answer is not UTF-8 text');
  }
}
