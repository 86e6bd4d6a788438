import { Readable } from 'node:stream';
import { Controller, Header, Headers, Inject, Param, Query, Res } from '@nestjs/common';
import { FastifyReply } from 'fastify';
import { Actor, BackendBookingQuery, IsIdString, SUBJECTS } from '@hotel/contracts';
import { ServiceClient } from '@hotel/platform';
import { BackendApi, CurrentActor } from '../auth/api-family';
import { SERVICE_CLIENT } from '../gateway.tokens';
import { ifNoneMatchOf, taggedPageAnswer } from '../http/paginated';
import { Route } from '../http/route';

export class BookingUserParams {
  @IsIdString()
  userId: string;
}

/** Backend bookings: the client's (a user token: that user's), newest first, `page`/`limit` (default 100, at most 500). */
@Controller()
@BackendApi()
export class BackendBookingsController {
  constructor(@Inject(SERVICE_CLIENT) private readonly services: ServiceClient) {}

  /**
   * The bookings come as raw bytes from the booking service and are joined into the envelope
   * undecoded (see rawPage); with an ETag, and 304 for an unchanged page asked with If-None-Match.
   */
  @Route('GET /api/booking')
  @Header('content-type', 'application/json; charset=utf-8')
  async list(
    @CurrentActor() actor: Actor,
    @Query() query: BackendBookingQuery,
    @Headers('if-none-match') ifNoneMatch: string | undefined,
    @Res({ passthrough: true }) reply: FastifyReply,
  ): Promise<Readable | undefined> {
    return taggedPageAnswer(await this.services.sendForAll(SUBJECTS.BOOKING_BACKEND_BOOKING_LIST, { actor, query, ...ifNoneMatchOf(ifNoneMatch) }), reply);
  }

  @Route('GET /api/booking/user/{userId}')
  @Header('content-type', 'application/json; charset=utf-8')
  async forUser(
    @CurrentActor() actor: Actor,
    @Param() params: BookingUserParams,
    @Query() query: BackendBookingQuery,
    @Headers('if-none-match') ifNoneMatch: string | undefined,
    @Res({ passthrough: true }) reply: FastifyReply,
  ): Promise<Readable | undefined> {
    const request = { actor, userId: Number(params.userId), query, ...ifNoneMatchOf(ifNoneMatch) };
    return taggedPageAnswer(await this.services.sendForAll(SUBJECTS.BOOKING_BACKEND_BOOKING_LIST, request), reply);
  }
}
