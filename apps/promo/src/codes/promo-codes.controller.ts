import { Controller } from '@nestjs/common';
import { MessagePattern, Payload } from '@nestjs/microservices';
import { CreatePromoRequest, PromoQuote, PromoView, QuotePromoRequest, RedeemPromoRequest, SUBJECTS } from '@hotel/contracts';
import { PromoCodesService } from './promo-codes.service';

@Controller()
export class PromoCodesController {
  constructor(private readonly codes: PromoCodesService) {}

  @MessagePattern(SUBJECTS.PROMO_CODE_CREATE)
  create(@Payload() request: CreatePromoRequest): Promise<PromoView> {
    return this.codes.create(request);
  }

  @MessagePattern(SUBJECTS.PROMO_CODE_QUOTE)
  quote(@Payload() request: QuotePromoRequest): Promise<PromoQuote> {
    return this.codes.quote(request);
  }

  @MessagePattern(SUBJECTS.PROMO_CODE_REDEEM)
  redeem(@Payload() request: RedeemPromoRequest): Promise<PromoQuote> {
    return this.codes.redeem(request);
  }
}
