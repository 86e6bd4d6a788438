import { Controller } from '@nestjs/common';
import { Payload } from '@nestjs/microservices';
import { CreateUserRequest, IssueUserTokenRequest, OPERATIONS, UpdateUserRequest, UserIdRequest, UserTokenView, UserView } from '@hotel/contracts';
import { UsersService } from './users.service';
import { Handles } from '@hotel/platform';

@Controller()
export class UsersController {
  constructor(private readonly users: UsersService) {}

  @Handles(OPERATIONS.USERS_USER_CREATE)
  create(@Payload() request: CreateUserRequest): Promise<UserView> {
    return this.users.create(request.actor, request.user, request.idempotencyKey);
  }

  @Handles(OPERATIONS.USERS_USER_GET)
  get(@Payload() request: UserIdRequest): Promise<UserView> {
    return this.users.get(request.actor, request.userId);
  }

  @Handles(OPERATIONS.USERS_USER_UPDATE)
  update(@Payload() request: UpdateUserRequest): Promise<UserView> {
    return this.users.update(request.actor, request.userId, request.changes);
  }

  @Handles(OPERATIONS.USERS_USER_DELETE)
  delete(@Payload() request: UserIdRequest): Promise<UserView> {
    return this.users.delete(request.actor, request.userId);
  }

  @Handles(OPERATIONS.USERS_USER_TOKEN_ISSUE)
  issueToken(@Payload() request: IssueUserTokenRequest): Promise<UserTokenView> {
    return this.users.issueToken(request.actor, request.userId, request.mintedBy ?? null);
  }
}
