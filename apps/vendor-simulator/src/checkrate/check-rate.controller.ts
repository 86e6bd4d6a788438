import { Body, Controller, HttpCode, Post } from '@nestjs/common';
import type { CheckRateRS } from '@hotel/hotelbeds';
import { ScenarioOf, SimulatorScenario, VendorOf } from '../http/vendor-request';
import type { VendorCode } from '../inventory/simulated-inventory';
import { CheckRateHandler } from './check-rate.handler';
import { CheckRateRequest } from './check-rate.request';

@Controller(':vendor/hotel-api/1.0')
export class CheckRateController {
  constructor(private readonly checkRate: CheckRateHandler) {}

  @Post('checkrates')
  @HttpCode(200)
  checkrates(@VendorOf() vendor: VendorCode, @ScenarioOf() scenario: SimulatorScenario | undefined, @Body() request: CheckRateRequest): Promise<Omit<CheckRateRS, 'auditData'>> {
    return this.checkRate.check(vendor, request, scenario);
  }
}
