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

/** The kinds of expensive work that take turns at the gateway, each with its own places (GatewayEnv). */
export type TurnWork = 'pages' | 'rates';

/**
 * The expensive routes (below) whose work is mostly CPU in the services and the gateway
 * (pages assembled, rates converted, large answers sent), by their kind of work and
 * cost: a replica lets only PAGE_CONCURRENCY list pages and V2_RATES_CONCURRENCY V2 rates
 * requests into the services at once, all clients together, and the waiting ones in per
 * client in turn, a client's turn counting what it had of both kinds (FairScheduler).
 * The cost is what a request pushes its client's turn by: about its CPU, relative to a
 * page of 50 bookings (a V2 rates answer converts and sends a few hundred rates).
 */
export const TURN_ROUTES: ReadonlyMap<string, { work: TurnWork; cost: number }> = new Map([
  ['GET /book', { work: 'pages', cost: 1 }],
  ['GET /api/booking', { work: 'pages', cost: 1 }],
  ['GET /api/booking/user/:userId', { work: 'pages', cost: 1 }],
  ['GET /api/accounting', { work: 'pages', cost: 1 }],
  ['GET /api/accounting/statement', { work: 'pages', cost: 1 }],
  ['GET /api/accounting/balance/daily', { work: 'pages', cost: 1 }],
  ['GET /api/accounting/reconciliation', { work: 'pages', cost: 1 }],
  ['POST /v2/rates', { work: 'rates', cost: 2 }],
]);

/**
 * Routes whose answer costs real work in the services (lists, searches, rates,
 * prebook, book): a client may have only CLIENT_MAX_IN_FLIGHT of them in flight.
 * As Fastify names them (`METHOD url`); HEAD counts as GET.
 */
export const EXPENSIVE_ROUTES: ReadonlySet<string> = new Set([
  ...TURN_ROUTES.keys(),
  'POST /search',
  'GET /search/:session_id',
  'GET /hotel/:hotel_id/:session_id',
  'GET /prebook/:hotel_id/:session_id/:rate_id/:payment_method',
  'POST /v2/prebook',
  'POST /book/:hotel_id/:session_id/:rate_id/:payment_method',
  'POST /v2/book',
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
