import { Body, Controller, Inject, Res } from '@nestjs/common';
import { FastifyReply } from 'fastify';
import { Actor, BookingView, TestScenario, V2BookBody } from '@hotel/contracts';
import { ServiceClient } from '@hotel/platform';
import { BookingApi, CurrentActor } from '../auth/api-family';
import { bookedAnswer, createBooking } from '../booking/booking-answer';
import { TestScenarioHeader } from '../booking/test-scenario';
import { SERVICE_CLIENT } from '../gateway.tokens';
import { Route } from '../http/route';

/** V2 book: books a prebook (its prebook_id), with the same answers as V1 book. */
@Controller()
@BookingApi()
export class V2BookController {
  constructor(@Inject(SERVICE_CLIENT) private readonly services: ServiceClient) {}

  /** 201 with the Booking; a repeat with the same idempotency_key answers the original with 200 (see BookController). */
  @Route('POST /v2/book')
  async book(
    @CurrentActor() actor: Actor,
    @Body() v2Body: V2BookBody,
    @Res({ passthrough: true }) reply: FastifyReply,
    @TestScenarioHeader() scenario?: TestScenario,
  ): Promise<BookingView> {
    const { prebook_id, ...body } = v2Body;
    const result = await createBooking(this.services, { actor, prebookId: prebook_id, body, ...(scenario && { testScenario: scenario }) });
    return bookedAnswer(result, reply);
  }
}
