import { Body, Controller, HttpCode, Post } from '@nestjs/common';
import type { AvailabilityRS } from '@hotel/hotelbeds';
import { VendorOf } from '../http/vendor-request';
import type { VendorCode } from '../inventory/simulated-inventory';
import { AvailabilityRequest } from './availability.request';
import { SearchAvailabilityHandler } from './search-availability.handler';

@Controller(':vendor/hotel-api/1.0')
export class AvailabilityController {
  constructor(private readonly availability: SearchAvailabilityHandler) {}

  @Post('hotels')
  @HttpCode(200)
  hotels(@VendorOf() vendor: VendorCode, @Body() request: AvailabilityRequest): Promise<Omit<AvailabilityRS, 'auditData'>> {
    return this.availability.search(vendor, request);
  }
}
