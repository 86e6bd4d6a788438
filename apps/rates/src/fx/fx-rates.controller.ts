import { Controller } from '@nestjs/common';
import { MessagePattern, Payload } from '@nestjs/microservices';
import { FxRatesReply, GetFxRatesRequest, ImportFxRatesReply, ImportFxRatesRequest, SUBJECTS } from '@hotel/contracts';
import { FxRatesService } from './fx-rates.service';

@Controller()
export class FxRatesController {
  constructor(private readonly fx: FxRatesService) {}

  @MessagePattern(SUBJECTS.RATES_FX_RATES_GET)
  async get(@Payload() _request: GetFxRatesRequest): Promise<FxRatesReply> {
    return { sets: await this.fx.sets() };
  }

  @MessagePattern(SUBJECTS.RATES_FX_RATES_IMPORT)
  import(@Payload() request: ImportFxRatesRequest): Promise<ImportFxRatesReply> {
    return this.fx.import(request.xml, request.source);
  }
}
