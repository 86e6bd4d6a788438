import { Controller } from '@nestjs/common';
import { Payload } from '@nestjs/microservices';
import { CreateFinanceTokenRequest, FinanceTokenCreated, FinanceTokenRevoked, OPERATIONS, RevokeFinanceTokenRequest } from '@hotel/contracts';
import { FinanceTokensService } from './finance-tokens.service';
import { Handles } from '@hotel/platform';

@Controller()
export class FinanceTokensController {
  constructor(private readonly tokens: FinanceTokensService) {}

  @Handles(OPERATIONS.USERS_FINANCE_TOKEN_CREATE)
  create(@Payload() request: CreateFinanceTokenRequest): Promise<FinanceTokenCreated> {
    return this.tokens.create(request.name);
  }

  @Handles(OPERATIONS.USERS_FINANCE_TOKEN_REVOKE)
  revoke(@Payload() request: RevokeFinanceTokenRequest): Promise<FinanceTokenRevoked> {
    return this.tokens.revoke(request.tokenId);
  }
}
