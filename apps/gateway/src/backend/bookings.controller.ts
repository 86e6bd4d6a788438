import { Readable } from 'node:stream';
import { Controller, Get, Header, Inject, Param, Query } from '@nestjs/common';
import { Actor, BackendBookingQuery, IsIdString, SUBJECTS } from '@hotel/contracts';
import { ServiceClient } from '@hotel/platform';
import { BackendApi, CurrentActor } from '../auth/api-family';
import { SERVICE_CLIENT } from '../gateway.tokens';
import { rawPage } from '../http/paginated';

export class BookingUserParams {
  @IsIdString()
  userId: string;
}

/** Backend bookings: the client's (a user token: that user's), newest first, `page`/`limit` (default 100, at most 500). */
@Controller('api/booking')
@BackendApi()
export class BackendBookingsController {
  constructor(@Inject(SERVICE_CLIENT) private readonly services: ServiceClient) {}

  /** The bookings come as raw bytes from the booking service and are joined into the envelope undecoded (see rawPage). */
  @Get()
  @Header('content-type', 'application/json; charset=utf-8')
  async list(@CurrentActor() actor: Actor, @Query() query: BackendBookingQuery): Promise<Readable> {
    return rawPage(await this.services.sendForAll(SUBJECTS.BOOKING_BACKEND_BOOKING_LIST, { actor, query }));
  }

  @Get('user/:userId')
  @Header('content-type', 'application/json; charset=utf-8')
  async forUser(@CurrentActor() actor: Actor, @Param() params: BookingUserParams, @Query() query: BackendBookingQuery): Promise<Readable> {
    return rawPage(await this.services.sendForAll(SUBJECTS.BOOKING_BACKEND_BOOKING_LIST, { actor, userId: Number(params.userId), query }));
  }
}
