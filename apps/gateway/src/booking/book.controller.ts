import { Readable } from 'node:stream';
import { Body, Controller, Header, Headers, Inject, Param, Query, Res } from '@nestjs/common';
import { FastifyReply } from 'fastify';
import {
  Actor,
  BookCreateBody,
  BookingListQuery,
  bookingListFilterOf,
  BookingView,
  CancelView,
  IsIdString,
  PrecancelView,
  SUBJECTS,
  TestScenario,
} from '@hotel/contracts';
import { ifNoneMatchOf, taggedPageAnswer } from '../http/paginated';
import { ServiceClient } from '@hotel/platform';
import { cancelAnswer, precancelAnswer } from './booking-api-shapes';
import { BookingApi, CurrentActor } from '../auth/api-family';
import { SERVICE_CLIENT } from '../gateway.tokens';
import { bookedAnswer, createBooking } from './booking-answer';
import { PrebookParams } from './prebook.controller';
import { TestScenarioHeader } from './test-scenario';
import { Route } from '../http/route';

export class BookingIdParams {
  @IsIdString()
  booking_id: string;
}

@Controller()
@BookingApi()
export class BookController {
  constructor(@Inject(SERVICE_CLIENT) private readonly services: ServiceClient) {}

  /**
   * 201 with the Booking; a repeat with the same idempotency_key answers the original with 200.
   * The booking service answers within this call's timeout (RPC_TIMEOUT_MS): a booking
   * that needs longer (a slow supplier, a service down) answers with status `pending`
   * and is confirmed or failed later.
   */
  @Route('POST /book/{hotel_id}/{session_id}/{rate_id}/{payment_method}')
  async v1(
    @CurrentActor() actor: Actor,
    @Param() params: PrebookParams,
    @Body() body: BookCreateBody,
    @Res({ passthrough: true }) reply: FastifyReply,
    @TestScenarioHeader() scenario?: TestScenario,
  ): Promise<BookingView> {
    const result = await createBooking(this.services, {
      actor,
      sessionId: params.session_id,
      hotelId: Number(params.hotel_id),
      rateId: params.rate_id,
      paymentMethod: params.payment_method,
      body,
      ...(scenario && { testScenario: scenario }),
    });
    return bookedAnswer(result, reply);
  }

  /**
   * The client's bookings (a user token: that user's), filtered, sorted and paged; `total` counts all matches.
   * The booking service sends the bookings already serialized (raw bytes): the page is
   * joined here into the envelope without being decoded (see rawPage). It carries an ETag:
   * asked again with If-None-Match, an unchanged page is 304 with no body.
   */
  @Route('GET /book')
  @Header('content-type', 'application/json; charset=utf-8')
  async list(
    @CurrentActor() actor: Actor,
    @Query() query: BookingListQuery,
    @Headers('if-none-match') ifNoneMatch: string | undefined,
    @Res({ passthrough: true }) reply: FastifyReply,
  ): Promise<Readable | undefined> {
    return taggedPageAnswer(await this.services.sendForAll(SUBJECTS.BOOKING_BOOKING_LIST, { actor, filter: bookingListFilterOf(query), ...ifNoneMatchOf(ifNoneMatch) }), reply);
  }

  @Route('GET /book/precancel/{booking_id}')
  async precancel(@CurrentActor() actor: Actor, @Param() params: BookingIdParams): Promise<PrecancelView> {
    return precancelAnswer(await this.services.send(SUBJECTS.BOOKING_BOOKING_PRECANCEL, { actor, bookingId: Number(params.booking_id) }));
  }

  @Route('POST /book/cancel/{booking_id}')
  async cancel(@CurrentActor() actor: Actor, @Param() params: BookingIdParams): Promise<CancelView> {
    return cancelAnswer(await this.services.send(SUBJECTS.BOOKING_BOOKING_CANCEL, { actor, bookingId: Number(params.booking_id) }));
  }
}
