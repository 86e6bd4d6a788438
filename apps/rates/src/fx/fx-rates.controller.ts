import { Controller } from '@nestjs/common';
import { Payload } from '@nestjs/microservices';
import { FxRatesReply, GetFxRatesRequest, ImportFxRatesReply, ImportFxRatesRequest, OPERATIONS } from '@hotel/contracts';
import { FxRatesService } from './fx-rates.service';
import { Handles } from '@hotel/platform';

@Controller()
export class FxRatesController {
  constructor(private readonly fx: FxRatesService) {}

  @Handles(OPERATIONS.RATES_FX_RATES_GET)
  async get(@Payload() _request: GetFxRatesRequest): Promise<FxRatesReply> {
    return { sets: await this.fx.sets() };
  }

  @Handles(OPERATIONS.RATES_FX_RATES_IMPORT)
  import(@Payload() request: ImportFxRatesRequest): Promise<ImportFxRatesReply> {
    return this.fx.import(request.xml, request.source);
  }
}
