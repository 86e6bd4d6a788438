import { Body, Controller, Headers, Inject, Param } from '@nestjs/common';
import { Actor, NewUser, SUBJECTS, UserChanges, UserTokenView, UserView } from '@hotel/contracts';
import { DomainError, ServiceClient } from '@hotel/platform';
import { BackendApi, CurrentActor, CurrentCredentialId } from '../auth/api-family';
import { SERVICE_CLIENT } from '../gateway.tokens';
import { idempotencyKeyOf } from './idempotency-key';
import { UserIdParams } from './user-id.params';
import { Route } from '../http/route';

@Controller()
@BackendApi()
export class UsersController {
  constructor(@Inject(SERVICE_CLIENT) private readonly services: ServiceClient) {}

  /** 201 with the user. With an `Idempotency-Key` header, the same user again answers the user the first post made (201) and makes no other; another user under the key is 409. */
  @Route('POST /api/user')
  create(@CurrentActor() actor: Actor, @Body() user: NewUser, @Headers('idempotency-key') header: string | undefined): Promise<UserView> {
    const idempotencyKey = idempotencyKeyOf(header);
    return this.services.send(SUBJECTS.USERS_USER_CREATE, { actor, user, ...(idempotencyKey !== undefined && { idempotencyKey }) });
  }

  @Route('GET /api/user/{id}')
  get(@CurrentActor() actor: Actor, @Param() params: UserIdParams): Promise<UserView> {
    return this.services.send(SUBJECTS.USERS_USER_GET, { actor, userId: Number(params.id) });
  }

  @Route('PUT /api/user/{id}')
  update(@CurrentActor() actor: Actor, @Param() params: UserIdParams, @Body() changes: UserChanges): Promise<UserView> {
    if (Object.keys(changes).length === 0) {
      throw DomainError.validation([{ field: 'body', message: 'at least one field must be given' }]);
    }
    return this.services.send(SUBJECTS.USERS_USER_UPDATE, { actor, userId: Number(params.id), changes });
  }

  @Route('DELETE /api/user/{id}')
  delete(@CurrentActor() actor: Actor, @Param() params: UserIdParams): Promise<UserView> {
    return this.services.send(SUBJECTS.USERS_USER_DELETE, { actor, userId: Number(params.id) });
  }

  @Route('GET /api/user/{id}/token')
  issueToken(@CurrentActor() actor: Actor, @CurrentCredentialId() mintedBy: number | null, @Param() params: UserIdParams): Promise<UserTokenView> {
    return this.services.send(SUBJECTS.USERS_USER_TOKEN_ISSUE, { actor, userId: Number(params.id), mintedBy });
  }
}
