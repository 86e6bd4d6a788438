import { Body, Controller, Delete, Get, HttpCode, Param, Post, Query } from '@nestjs/common';
import type { BookingListRS, BookingRS, CheckRateRS } from '@hotel/hotelbeds';
import { BookingListQuery, BookingReadQuery, CancellationQuery } from '../bookings/find-bookings/booking-list.query';
import { ScenarioOf, SimulatorScenario } from '../http/vendor-request';
import { SandboxDesk } from './sandbox-desk';
import { CreateBookingRequest } from '../bookings/create-booking/create-booking.request';
import { CheckRateRequest } from '../checkrate/check-rate.request';

type Answer<T> = Promise<Omit<T, 'auditData'>> | Omit<T, 'auditData'>;

/** The sandbox desk's part of the Hotel Booking API (it has no availability and no content). */
@Controller('sandbox/hotel-api/1.0')
export class SandboxDeskController {
  constructor(private readonly desk: SandboxDesk) {}

  @Post('checkrates')
  @HttpCode(200)
  checkrates(@ScenarioOf() scenario: SimulatorScenario | undefined, @Body() request: CheckRateRequest): Answer<CheckRateRS> {
    return this.desk.checkRate(request, scenario);
  }

  @Post('bookings')
  @HttpCode(200)
  book(@ScenarioOf() scenario: SimulatorScenario | undefined, @Body() request: CreateBookingRequest): Answer<BookingRS> {
    return this.desk.book(request, scenario);
  }

  @Get('bookings')
  list(@Query() query: BookingListQuery): Answer<BookingListRS> {
    return this.desk.list(query);
  }

  @Get('bookings/:reference')
  detail(@Param('reference') reference: string, @Query() _query: BookingReadQuery): Answer<BookingRS> {
    return this.desk.detail(reference);
  }

  @Delete('bookings/:reference')
  cancel(@Param('reference') reference: string, @Query() query: CancellationQuery): Answer<BookingRS> {
    return this.desk.cancel(reference, query.cancellationFlag);
  }
}
