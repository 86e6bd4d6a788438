import { Controller, Get, Inject, Param, Query } from '@nestjs/common';
import { Actor, BackendBooking, BackendBookingQuery, IsIdString, SUBJECTS } from '@hotel/contracts';
import { ServiceClient } from '@hotel/platform';
import { BackendApi, CurrentActor } from '../auth/api-family';
import { SERVICE_CLIENT } from '../gateway.tokens';
import { Paginated } from '../http/paginated';

export class BookingUserParams {
  @IsIdString()
  userId: string;
}

/** Backend bookings: the client's (a user token: that user's), newest first, `page`/`limit` (default 100, at most 500). */
@Controller('api/booking')
@BackendApi()
export class BackendBookingsController {
  constructor(@Inject(SERVICE_CLIENT) private readonly services: ServiceClient) {}

  @Get()
  async list(@CurrentActor() actor: Actor, @Query() query: BackendBookingQuery): Promise<Paginated<BackendBooking>> {
    const page = await this.services.send(SUBJECTS.BOOKING_BACKEND_BOOKING_LIST, { actor, query });
    return new Paginated(page.bookings, page.total);
  }

  @Get('user/:userId')
  async forUser(@CurrentActor() actor: Actor, @Param() params: BookingUserParams, @Query() query: BackendBookingQuery): Promise<Paginated<BackendBooking>> {
    const page = await this.services.send(SUBJECTS.BOOKING_BACKEND_BOOKING_LIST, { actor, userId: Number(params.userId), query });
    return new Paginated(page.bookings, page.total);
  }
}
