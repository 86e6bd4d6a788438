import { ExecutionContext, SetMetadata, createParamDecorator } from '@nestjs/common';
import { FastifyRequest } from 'fastify';
import { Actor, ActorRole } from '@hotel/contracts';

export type ApiFamily = 'booking' | 'backend';
export const API_FAMILY = 'api-family';

/** Routes of the booking API: `Authorization: Bearer <api key or user token>`. */
export const BookingApi = () => SetMetadata(API_FAMILY, 'booking' satisfies ApiFamily);
/** Routes of the backend API under /api: `Authorization: <backend token or user token>`. */
export const BackendApi = () => SetMetadata(API_FAMILY, 'backend' satisfies ApiFamily);

/** Which credential roles reach which API (decisions §2). */
export const ROLES_BY_FAMILY: Record<ApiFamily, readonly ActorRole[]> = {
  booking: ['api', 'user'],
  backend: ['backend', 'user'],
};

export type AuthenticatedRequest = FastifyRequest & { actor?: Actor };

/** The authenticated caller, set by the AuthGuard. */
export const CurrentActor = createParamDecorator((_data: unknown, context: ExecutionContext): Actor => {
  const actor = context.switchToHttp().getRequest<AuthenticatedRequest>().actor;
  if (!actor) throw new Error('CurrentActor used on a route without an API family');
  return actor;
});
