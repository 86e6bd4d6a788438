import { CanActivate, ExecutionContext, Inject, Injectable } from '@nestjs/common';
import { Reflector } from '@nestjs/core';
import { FastifyReply } from 'fastify';
import { Actor, RateLimit, SUBJECTS } from '@hotel/contracts';
import { DomainError, ServiceClient } from '@hotel/platform';
import { GATEWAY_ENV, SERVICE_CLIENT } from '../gateway.tokens';
import { GatewayEnv } from '../gateway.env';
import { API_FAMILY, ApiFamily, AuthenticatedRequest, ROLES_BY_FAMILY } from './api-family';
import { CredentialCache } from './credential-cache';
import { RateLimiter } from './rate-limiter';

/**
 * Authenticates every route that declares an API family and checks that the
 * credential's role reaches that API: unknown/revoked/expired is 401, a valid
 * credential on the wrong API is 403.
 */
@Injectable()
export class AuthGuard implements CanActivate {
  private readonly cache: CredentialCache;
  private readonly limiter: RateLimiter;
  private readonly defaultRateLimit: RateLimit;

  constructor(
    private readonly reflector: Reflector,
    @Inject(SERVICE_CLIENT) private readonly services: ServiceClient,
    @Inject(GATEWAY_ENV) env: GatewayEnv,
  ) {
    this.cache = new CredentialCache(env.AUTH_CACHE_TTL_MS);
    this.limiter = new RateLimiter(env.GATEWAY_REPLICAS);
    this.defaultRateLimit = { rps: env.RATE_LIMIT_RPS, burst: env.RATE_LIMIT_BURST };
  }

  async canActivate(context: ExecutionContext): Promise<boolean> {
    const family = this.reflector.getAllAndOverride<ApiFamily | undefined>(API_FAMILY, [
      context.getHandler(),
      context.getClass(),
    ]);
    if (!family) return true;
    const request = context.switchToHttp().getRequest<AuthenticatedRequest>();
    const token = presentedToken(request.headers.authorization, family);
    const { rateLimit, ...actor } = await this.cache.resolve(token, (secret) =>
      this.services.send(SUBJECTS.USERS_CREDENTIAL_RESOLVE, { token: secret }, { requestId: request.id }),
    );
    this.limit(actor, rateLimit ?? this.defaultRateLimit, context.switchToHttp().getResponse<FastifyReply>());
    if (!ROLES_BY_FAMILY[family].includes(actor.role)) {
      throw new DomainError(
        'FORBIDDEN',
        family === 'booking'
          ? 'this credential is for the backend API; the booking API takes an API key or a user token'
          : 'this credential is for the booking API; the backend API takes a backend token or a user token',
      );
    }
    request.actor = actor;
    return true;
  }

  /** Per-credential rate limit, with the RateLimit-* headers on every authenticated answer. */
  private limit(actor: Actor, rateLimit: RateLimit, reply: FastifyReply) {
    // One bucket per credential: a client's live key, sandbox key and backend token, and each user's tokens.
    const key = `${actor.clientId}:${actor.role}:${actor.sandbox ? 'sandbox' : 'live'}:${actor.userId ?? ''}`;
    const decision = this.limiter.take(key, rateLimit);
    reply.header('ratelimit-limit', String(decision.limit));
    reply.header('ratelimit-remaining', String(decision.remaining));
    reply.header('ratelimit-reset', String(decision.resetSeconds));
    if (!decision.allowed) {
      throw new DomainError('RATE_LIMITED', 'rate limit exceeded for this credential; retry after Retry-After seconds', undefined, decision.retryAfterSeconds);
    }
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
