import { Controller } from '@nestjs/common';
import { MessagePattern, Payload } from '@nestjs/microservices';
import { CreateFinanceTokenRequest, FinanceTokenCreated, FinanceTokenRevoked, RevokeFinanceTokenRequest, SUBJECTS } from '@hotel/contracts';
import { FinanceTokensService } from './finance-tokens.service';

@Controller()
export class FinanceTokensController {
  constructor(private readonly tokens: FinanceTokensService) {}

  @MessagePattern(SUBJECTS.USERS_FINANCE_TOKEN_CREATE)
  create(@Payload() request: CreateFinanceTokenRequest): Promise<FinanceTokenCreated> {
    return this.tokens.create(request.name);
  }

  @MessagePattern(SUBJECTS.USERS_FINANCE_TOKEN_REVOKE)
  revoke(@Payload() request: RevokeFinanceTokenRequest): Promise<FinanceTokenRevoked> {
    return this.tokens.revoke(request.tokenId);
  }
}
