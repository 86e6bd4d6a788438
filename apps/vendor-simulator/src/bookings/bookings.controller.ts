import { Body, Controller, Delete, Get, HttpCode, Param, Post, Query } from '@nestjs/common';
import type { BookingListRS, BookingRS } from '@hotel/hotelbeds';
import { ScenarioOf, SimulatorScenario, VendorOf } from '../http/vendor-request';
import type { VendorCode } from '../inventory/simulated-inventory';
import { CancelBookingHandler } from './cancel-booking/cancel-booking.handler';
import { CreateBookingHandler } from './create-booking/create-booking.handler';
import { CreateBookingRequest } from './create-booking/create-booking.request';
import { BookingListQuery, BookingReadQuery, CancellationQuery } from './find-bookings/booking-list.query';
import { FindBookingsHandler } from './find-bookings/find-bookings.handler';

type Answer<T> = Promise<Omit<T, 'auditData'>>;

@Controller(':vendor/hotel-api/1.0/bookings')
export class BookingsController {
  constructor(
    private readonly create: CreateBookingHandler,
    private readonly find: FindBookingsHandler,
    private readonly cancellation: CancelBookingHandler,
  ) {}

  @Post()
  @HttpCode(200)
  book(@VendorOf() vendor: VendorCode, @ScenarioOf() scenario: SimulatorScenario | undefined, @Body() request: CreateBookingRequest): Answer<BookingRS> {
    return this.create.book(vendor, request, scenario);
  }

  @Get()
  list(@VendorOf() vendor: VendorCode, @Query() query: BookingListQuery): Answer<BookingListRS> {
    return this.find.list(vendor, query);
  }

  @Get(':reference')
  detail(@VendorOf() vendor: VendorCode, @Param('reference') reference: string, @Query() _query: BookingReadQuery): Answer<BookingRS> {
    return this.find.detail(vendor, reference);
  }

  @Delete(':reference')
  cancel(@VendorOf() vendor: VendorCode, @Param('reference') reference: string, @Query() query: CancellationQuery): Answer<BookingRS> {
    return this.cancellation.cancel(vendor, reference, query.cancellationFlag);
  }
}
