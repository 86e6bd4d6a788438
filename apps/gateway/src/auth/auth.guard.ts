import { CanActivate, ExecutionContext, Injectable } from '@nestjs/common';
import { Reflector } from '@nestjs/core';
import { FastifyReply } from 'fastify';
import { Actor, RateLimit, SUBJECTS, USER_TOKEN_PREFIX, credentialHash } from '@hotel/contracts';
import { DomainError, FairScheduler, KeyValueBucket, ServiceClient } from '@hotel/platform';
import { GatewayEnv } from '../gateway.env';
import { API_FAMILY, ApiFamily, AuthenticatedRequest, EXPENSIVE_ROUTES, ROLES_BY_FAMILY, TURN_ROUTES, TurnWork, RouteAuthConfig } from './api-family';
import { CredentialCache } from './credential-cache';
import { SharedInFlight, SharedRateLimiter } from './shared-limits';

/**
 * Authenticates every request to a route that declares an API family, from a
 * Fastify `onRequest` hook, before its body is read: unknown/revoked/expired is
 * 401, a valid credential on the wrong API is 403. Then the rate limits (the
 * credential's budget and its client's, shared by all of the client's keys and
 * users) with the RateLimit-* headers, and for expensive routes the client's
 * bound on requests in flight; past either, 429 with Retry-After. Both hold across
 * every gateway replica: their state is in `limits`, the bucket all replicas share
 * (shared-limits.ts); while it cannot be reached, 503 with Retry-After.
 */
export class Authenticator {
  readonly cache: CredentialCache;
  private readonly limiter: SharedRateLimiter;
  private readonly inFlight: SharedInFlight;
  /** The places for expensive work in the services (TURN_ROUTES), taken in turn per client. */
  private readonly turns: FairScheduler;
  private readonly turnWaitMs: number;
  private readonly credentialDefault: RateLimit;
  private readonly clientDefault: RateLimit;
  /** When a request whose client went away stops counting: its services have answered or been given up on by then. */
  private readonly abandonedAfterMs: number;

  constructor(
    private readonly services: ServiceClient,
    env: GatewayEnv,
    limits: KeyValueBucket,
    /** This replica's name in the shared in-flight counts (unique per process). */
    replica: string,
  ) {
    this.cache = new CredentialCache(env.AUTH_CACHE_TTL_MS);
    this.limiter = new SharedRateLimiter(limits);
    this.inFlight = new SharedInFlight(limits, env.CLIENT_MAX_IN_FLIGHT, replica);
    this.turns = new FairScheduler({ pages: env.PAGE_CONCURRENCY, rates: env.V2_RATES_CONCURRENCY } satisfies Record<TurnWork, number>);
    this.turnWaitMs = env.RPC_TIMEOUT_MS;
    this.credentialDefault = { rps: env.RATE_LIMIT_RPS, burst: env.RATE_LIMIT_BURST };
    this.clientDefault = { rps: env.RATE_LIMIT_CLIENT_RPS ?? env.RATE_LIMIT_RPS, burst: env.RATE_LIMIT_CLIENT_BURST ?? env.RATE_LIMIT_BURST };
    this.abandonedAfterMs = env.RPC_TIMEOUT_MS + 1000;
  }

  /** Once the requests are answered: their places are given back to the shared count. */
  close(): Promise<void> {
    return this.inFlight.close();
  }

  /** The route's API family, if it has one (see BookingApi/BackendApi). */
  static familyOf(request: AuthenticatedRequest): ApiFamily | undefined {
    return (request.routeOptions.config as RouteAuthConfig | undefined)?.apiFamily;
  }

  /** Sets `request.actor`, or throws the DomainError to answer with. */
  async authenticate(request: AuthenticatedRequest, reply: FastifyReply, family: ApiFamily): Promise<void> {
    const token = presentedToken(request.headers.authorization, family);
    // The credential's id stays here: services get it only where it matters (issuing a user token).
    const { rateLimit, pricing, credentialId, ...actor } = await this.cache.resolve(token, (secret) =>
      // Asked by its hash: the secret itself never crosses the bus.
      this.services.send(SUBJECTS.USERS_CREDENTIAL_RESOLVE, { secretHash: credentialHash(secret), userToken: secret.startsWith(USER_TOKEN_PREFIX) }, { requestId: request.id }),
    );
    await this.limit(actor, rateLimit ?? null, reply);
    if (!ROLES_BY_FAMILY[family].includes(actor.role)) {
      throw new DomainError(
        'FORBIDDEN',
        family === 'booking'
          ? 'this credential is for the backend API; the booking API takes an API key or a user token'
          : 'this credential is for the booking API; the backend API takes a backend token or a user token',
      );
    }
    const route = `${request.method === 'HEAD' ? 'GET' : request.method} ${request.routeOptions.url}`;
    if (EXPENSIVE_ROUTES.has(route)) await this.admit(actor, request, reply, TURN_ROUTES.get(route));
    request.actor = actor;
    request.pricing = pricing;
    request.credentialId = credentialId ?? null;
  }

  /**
   * The credential's bucket (a client's live key, sandbox key and backend token, and each
   * user's tokens) and the client's (all of them together), with the RateLimit-* headers
   * of the tighter one on every authenticated answer. A client's own limit (set-rate-limit)
   * replaces both defaults.
   */
  private async limit(actor: Actor, own: RateLimit | null, reply: FastifyReply) {
    const decision = await this.limiter.take({
      // Names in the shared bucket (letters, digits, `.`, `_`, `-` only).
      key: `rate.${actor.clientId}`,
      credential: `${actor.role}.${actor.sandbox ? 'sandbox' : 'live'}.${actor.userId ?? 'none'}`,
      clientLimit: own ?? this.clientDefault,
      credentialLimit: own ?? this.credentialDefault,
    });
    reply.header('ratelimit-limit', String(decision.limit));
    reply.header('ratelimit-remaining', String(decision.remaining));
    reply.header('ratelimit-reset', String(decision.resetSeconds));
    if (!decision.allowed) {
      throw new DomainError('RATE_LIMITED', 'rate limit exceeded for this credential; retry after Retry-After seconds', undefined, decision.retryAfterSeconds);
    }
  }

  /**
   * Holds one of the client's in-flight places until the request is answered
   * (`releaseInFlight`, called when the answer is sent): a client that goes away keeps
   * the place while the services still work for it, at most until they would have been
   * given up on, so opening and dropping connections does not get round the bound.
   * A request of a route that takes turns (TURN_ROUTES) then waits for its client's turn.
   */
  private async admit(actor: Actor, request: AuthenticatedRequest, reply: FastifyReply, turn: { work: TurnWork; cost: number } | undefined) {
    const release = await this.inFlight.tryAcquire(actor.clientId);
    if (!release) {
      throw new DomainError(
        'RATE_LIMITED',
        `too many requests of this client in flight (at most ${this.inFlight.max} lists, searches, rates, prebooks and bookings at once); retry after Retry-After seconds`,
        undefined,
        1,
      );
    }
    let released = false;
    let releaseTurn = () => {};
    request.releaseInFlight = () => {
      released = true;
      releaseTurn();
      release();
    };
    reply.raw.once('close', () => {
      if (!released) setTimeout(() => (releaseTurn(), release()), this.abandonedAfterMs).unref();
    });
    if (!turn) return;
    // A request that cannot have its place within the time its service would get is answered 503.
    releaseTurn = await this.turns.acquire(String(actor.clientId), { ...turn, maxWaitMs: this.turnWaitMs });
    // Gone while it waited: nobody to answer, so the place goes to the next request.
    if (reply.raw.destroyed) {
      request.releaseInFlight();
      throw new DomainError('SERVICE_UNAVAILABLE', 'the client went away while its request waited for its turn', undefined, 1);
    }
  }
}

/**
 * The credential check itself runs in the `onRequest` hook ({@link Authenticator});
 * this guard only makes sure it did for every route that declares an API family,
 * so a route the hook missed fails loudly instead of running unauthenticated.
 */
@Injectable()
export class AuthGuard implements CanActivate {
  constructor(private readonly reflector: Reflector) {}

  canActivate(context: ExecutionContext): boolean {
    const family = this.reflector.getAllAndOverride<ApiFamily | undefined>(API_FAMILY, [context.getHandler(), context.getClass()]);
    if (!family) return true;
    if (!context.switchToHttp().getRequest<AuthenticatedRequest>().actor) {
      throw new Error(`a route of the ${family} API was reached without the authentication hook`);
    }
    return true;
  }
}

function presentedToken(header: string | undefined, family: ApiFamily): string {
  if (!header || header.trim() === '') {
    throw new DomainError('UNAUTHORIZED', 'missing Authorization header');
  }
  const bearer = /^Bearer\s+(\S{1,512})\s*$/i.exec(header);
  if (bearer) return bearer[1];
  // The backend API's shown client passes the bare token.
  if (family === 'backend' && /^\S{1,512}$/.test(header.trim())) return header.trim();
  throw new DomainError('UNAUTHORIZED', 'Authorization header must be "Bearer <API key>"');
}
