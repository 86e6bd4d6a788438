import { FastifyReply } from 'fastify';
import { BookingView, CreateBookingReply } from '@hotel/contracts';

/** A created booking is 201; a repeat with the same idempotency_key answers the original with 200. */
export function bookingAnswer(result: CreateBookingReply, reply: FastifyReply): BookingView {
  reply.status(result.replayed ? 200 : 201);
  return result.booking;
}
