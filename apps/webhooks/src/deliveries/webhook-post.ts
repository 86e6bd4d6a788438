import { request as httpRequest, Agent as HttpAgent, IncomingMessage } from 'node:http';
import { request as httpsRequest, Agent as HttpsAgent } from 'node:https';
import { TargetPolicy, guardedLookup, targetProblem } from './target-policy';

/**
 * How an attempt went: a status code when the receiver answered; an error when it did
 * not (or was refused); how long it took. Never what the receiver's answer said: the
 * delivery log shows status and timing only, so that webhooks cannot be used to read
 * what a server answers.
 */
export interface PostOutcome {
  statusCode: number | null;
  error: string | null;
  /** From the start of the attempt to the answer's head, or to the failure; null when nothing was sent (a target the policy refuses). */
  durationMs: number | null;
}

/** An answer's body is read (to keep the connection) up to this size, then the connection is dropped. */
const MAX_DRAINED_BYTES = 64 * 1024;

/**
 * Sends webhooks: one POST per attempt, through connections kept alive per target,
 * resolved through the guarded lookup (public addresses only, but for local testing), redirects
 * not followed (a 3xx is a failed attempt), at most `timeoutMs` from start to the
 * end of the answer's head.
 */
export class WebhookPoster {
  private readonly http: HttpAgent;
  private readonly https: HttpsAgent;

  constructor(
    private readonly policy: TargetPolicy,
    private readonly timeoutMs: number,
  ) {
    const lookup = guardedLookup(policy) as never;
    // Per target and in all, bounded; an idle kept-alive connection is closed after the timeout.
    const limits = { keepAlive: true, maxSockets: 8, maxTotalSockets: 256, timeout: timeoutMs, lookup };
    this.http = new HttpAgent(limits as never);
    this.https = new HttpsAgent(limits as never);
  }

  post(url: string, body: string, headers: Record<string, string>): Promise<PostOutcome> {
    const problem = targetProblem(url, this.policy);
    if (problem) return Promise.resolve({ statusCode: null, error: problem, durationMs: null });
    const target = new URL(url);
    const secure = target.protocol === 'https:';
    const started = performance.now();
    return new Promise((resolve) => {
      let settled = false;
      const finish = (outcome: Omit<PostOutcome, 'durationMs'>) => {
        if (settled) return;
        settled = true;
        clearTimeout(timer);
        resolve({ ...outcome, durationMs: Math.round(performance.now() - started) });
      };
      const request = (secure ? httpsRequest : httpRequest)(
        target,
        {
          method: 'POST',
          agent: secure ? this.https : this.http,
          lookup: guardedLookup(this.policy) as never,
          headers: { ...headers, 'content-type': 'application/json', 'content-length': Buffer.byteLength(body), 'user-agent': 'HotelPlatform-Webhooks/1.0' },
        },
        (response) => {
          const statusCode = response.statusCode ?? 0;
          // The status is the outcome, whatever the body says: it is never kept.
          finish({ statusCode, error: statusCode >= 200 && statusCode < 300 ? null : `HTTP ${statusCode}` });
          drain(response, this.timeoutMs);
        },
      );
      // Settles here, not through the request's 'error' event: a request still queued for a
      // connection emits nothing when destroyed.
      const timer = setTimeout(() => {
        finish({ statusCode: null, error: `no answer within ${this.timeoutMs} ms` });
        request.destroy();
      }, this.timeoutMs);
      request.on('error', (error: NodeJS.ErrnoException) => finish({ statusCode: null, error: error.message || error.code || 'request failed' }));
      request.end(body);
    });
  }

  close(): void {
    this.http.destroy();
    this.https.destroy();
  }
}

/**
 * Reads an answer's body and throws it away, to keep the connection, but only so much
 * and so long: a receiver that trickles it or never ends it loses the connection, not
 * an attempt slot of ours.
 */
function drain(response: IncomingMessage, timeoutMs: number): void {
  let drained = 0;
  const deadline = setTimeout(() => response.destroy(), timeoutMs);
  response.on('data', (chunk: Buffer) => {
    drained += chunk.length;
    if (drained > MAX_DRAINED_BYTES) response.destroy();
  });
  response.on('close', () => clearTimeout(deadline));
  response.on('error', () => undefined);
}
