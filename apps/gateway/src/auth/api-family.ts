import { ExecutionContext, SetMetadata, createParamDecorator } from '@nestjs/common';
import { FASTIFY_ROUTE_CONFIG_METADATA } from '@nestjs/platform-fastify/constants';
import { FastifyRequest } from 'fastify';
import { Actor, ActorRole, ClientPricing } from '@hotel/contracts';
import { DomainError } from '@hotel/platform';

export type ApiFamily = 'booking' | 'backend';
export const API_FAMILY = 'api-family';

/** What a route tells the authentication hook, through Fastify's route config. */
export interface RouteAuthConfig {
  apiFamily?: ApiFamily;
}

/**
 * Marks a controller (every route of it) or one route as part of an API family:
 * Nest metadata for the AuthGuard, and Fastify route config for the `onRequest`
 * hook that authenticates before the body is read.
 */
function apiFamily(family: ApiFamily) {
  const metadata = SetMetadata(API_FAMILY, family);
  const tag = (handler: unknown) => {
    if (typeof handler !== 'function') return;
    const config = Reflect.getMetadata(FASTIFY_ROUTE_CONFIG_METADATA, handler) as RouteAuthConfig | undefined;
    Reflect.defineMetadata(FASTIFY_ROUTE_CONFIG_METADATA, { ...config, apiFamily: family } satisfies RouteAuthConfig, handler);
  };
  const decorator = (target: object, key?: string | symbol, descriptor?: PropertyDescriptor): void => {
    if (descriptor) {
      metadata(target, key!, descriptor);
      tag(descriptor.value);
      return;
    }
    // Without a descriptor the target is the controller class itself.
    const controller = target as abstract new (...args: never[]) => unknown;
    metadata(controller);
    const prototype = controller.prototype as Record<string, unknown>;
    for (const name of Object.getOwnPropertyNames(prototype)) if (name !== 'constructor') tag(prototype[name]);
  };
  return decorator as ClassDecorator & MethodDecorator;
}

/** Routes of the booking API: `Authorization: Bearer <api key or user token>`. */
export const BookingApi = () => apiFamily('booking');
/** Routes of the backend API under /api: `Authorization: <backend token or user token>`. */
export const BackendApi = () => apiFamily('backend');

/**
 * Which credential roles reach which API: API keys and user tokens the booking API,
 * backend tokens, user tokens and the finance credential the backend API (whose
 * services then admit the finance credential to the ledger only).
 */
export const ROLES_BY_FAMILY: Record<ApiFamily, readonly ActorRole[]> = {
  booking: ['api', 'user'],
  backend: ['backend', 'user', 'finance'],
};

/**
 * The expensive routes (below) whose work is CPU, pages assembled and sent, not waiting
 * on suppliers: their requests also take turns per client for the gateway's
 * PAGE_CONCURRENCY places.
 */
export const PAGE_ROUTES: ReadonlySet<string> = new Set([
  'GET /book',
  'GET /api/booking',
  'GET /api/booking/user/:userId',
  'GET /api/accounting',
  'GET /api/accounting/statement',
]);

/**
 * Routes whose answer costs real work in the services (lists, searches, rates,
 * prebook, book): a client may have only CLIENT_MAX_IN_FLIGHT of them in flight.
 * As Fastify names them (`METHOD url`); HEAD counts as GET.
 */
export const EXPENSIVE_ROUTES: ReadonlySet<string> = new Set([
  ...PAGE_ROUTES,
  'POST /search',
  'GET /search/:session_id',
  'GET /hotel/:hotel_id/:session_id',
  'POST /v2/rates',
  'GET /prebook/:hotel_id/:session_id/:rate_id/:payment_method',
  'POST /v2/prebook',
  'POST /book/:hotel_id/:session_id/:rate_id/:payment_method',
  'POST /v2/book',
  'GET /api/accounting/balance/daily',
  'GET /api/accounting/reconciliation',
]);

export type AuthenticatedRequest = FastifyRequest & {
  actor?: Actor;
  /** How the caller's client is priced (currency, FX margin), with the credential. */
  pricing?: ClientPricing;
  /** Which of the client's keys or backend tokens the caller presented (null for a user token or the finance credential). */
  credentialId?: number | null;
  /** Gives back the client's in-flight place of an expensive request, once it is answered. */
  releaseInFlight?: () => void;
};

/**
 * How the authenticated caller's client is priced: its account currency and FX margin.
 * Never guessed: a credential resolved without it answers 503 rather than price a
 * client in another currency than its account's.
 */
export const CurrentPricing = createParamDecorator((_data: unknown, context: ExecutionContext): ClientPricing => {
  const request = context.switchToHttp().getRequest<AuthenticatedRequest>();
  if (!request.actor) throw new Error('CurrentPricing used on a route without an API family');
  if (!request.pricing) throw new DomainError('SERVICE_UNAVAILABLE', "the client's currency is not known yet; retry", undefined, 5);
  return request.pricing;
});

/** The id of the client credential (key or backend token) the caller presented; null for other credentials. */
export const CurrentCredentialId = createParamDecorator((_data: unknown, context: ExecutionContext): number | null => {
  const request = context.switchToHttp().getRequest<AuthenticatedRequest>();
  if (!request.actor) throw new Error('CurrentCredentialId used on a route without an API family');
  return request.credentialId ?? null;
});

/** The authenticated caller, set by the authentication hook. */
export const CurrentActor = createParamDecorator((_data: unknown, context: ExecutionContext): Actor => {
  const actor = context.switchToHttp().getRequest<AuthenticatedRequest>().actor;
  if (!actor) throw new Error('CurrentActor used on a route without an API family');
  return actor;
});
