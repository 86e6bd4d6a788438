import { Controller } from '@nestjs/common';
import { Payload } from '@nestjs/microservices';
import { CreatePromoRequest, OPERATIONS, PromoQuote, PromoView, QuotePromoRequest, RedeemPromoRequest } from '@hotel/contracts';
import { PromoCodesService } from './promo-codes.service';
import { Handles } from '@hotel/platform';

@Controller()
export class PromoCodesController {
  constructor(private readonly codes: PromoCodesService) {}

  @Handles(OPERATIONS.PROMO_CODE_CREATE)
  create(@Payload() request: CreatePromoRequest): Promise<PromoView> {
    return this.codes.create(request);
  }

  @Handles(OPERATIONS.PROMO_CODE_QUOTE)
  quote(@Payload() request: QuotePromoRequest): Promise<PromoQuote> {
    return this.codes.quote(request);
  }

  @Handles(OPERATIONS.PROMO_CODE_REDEEM)
  redeem(@Payload() request: RedeemPromoRequest): Promise<PromoQuote> {
    return this.codes.redeem(request);
  }
}
