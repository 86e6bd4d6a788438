import { FastifyReply } from 'fastify';
import { Actor, BookingCreated, BookingView, CreateBookingRequest, SUBJECTS, bookRequestFingerprint, bookingAnswer, bookingOrderOf, inBookApiWords, isOwnBookRefusal } from '@hotel/contracts';
import { DomainError, ServiceClient } from '@hotel/platform';

/** The API's Booking of a book request: 201 when created; a repeat with the same idempotency_key answers the original with 200. */
export function bookedAnswer(result: BookingCreated, reply: FastifyReply): BookingView {
  reply.status(result.replayed ? 200 : 201);
  return bookingAnswer(result.booking);
}

/** How long a client should wait before repeating a book request whose answer was lost. */
const REPEAT_AFTER_S = 2;
/** How long the gateway asks which booking a lost answer recorded. */
const LOOKUP_TIMEOUT_MS = 1500;

/**
 * Books (booking.booking.create): the partner's request as the booking service takes it (a
 * BookingOrder, and the request's fingerprint for its idempotency key), its refusals named
 * in the API's words. `request` is the partner's request as the API has it (the selector, the
 * body, the sandbox scenario). When the booking service's answer does not come (a replica
 * gone mid-request: 503), the booking may have been recorded all the same, and the platform
 * finishes it whatever happens. So the 503 says which booking it was, when the request's
 * idempotency key (or V2, its prebook) finds one, and always how to get its outcome: repeat
 * with the same key, which answers that booking and never makes a second.
 */
export async function createBooking(services: ServiceClient, request: CreateBookingRequest): Promise<BookingCreated> {
  const { body, ...selector } = request;
  try {
    return await services.send(SUBJECTS.BOOKING_BOOKING_CREATE, { ...selector, order: bookingOrderOf(body), fingerprint: bookRequestFingerprint(request) });
  } catch (error) {
    if (!(error instanceof DomainError)) throw error;
    if (error.code !== 'SERVICE_UNAVAILABLE') throw isOwnBookRefusal(error.code) ? error.reworded(inBookApiWords) : error;
    const key = request.body.idempotency_key;
    const bookingId = await recordedBooking(services, request.actor, key, request.prebookId);
    const repeat = key ? 'repeat this request with the same idempotency_key for its outcome' : 'send an idempotency_key with every book request, so that a repeat answers the booking';
    if (bookingId !== null) {
      throw new DomainError(
        'SERVICE_UNAVAILABLE',
        `booking ${bookingId} is recorded and the platform is finishing it; ${repeat} (or read it: GET /book?id=${bookingId}); it is never booked twice`,
        undefined,
        REPEAT_AFTER_S,
      );
    }
    throw new DomainError('SERVICE_UNAVAILABLE', `${error.message}; the booking may have been recorded: ${repeat}`, undefined, error.retryAfterSeconds ?? REPEAT_AFTER_S);
  }
}

/** The booking the request recorded, if the booking service can say now; null otherwise. */
async function recordedBooking(services: ServiceClient, actor: Actor, idempotencyKey: string | undefined, prebookId: string | undefined): Promise<number | null> {
  if (!idempotencyKey && !prebookId) return null;
  try {
    // Briefly: the client has waited a whole call already.
    return (await services.send(SUBJECTS.BOOKING_BOOKING_FIND_RECORDED, { actor, ...(idempotencyKey ? { idempotencyKey } : { prebookId }) }, { timeoutMs: LOOKUP_TIMEOUT_MS })).bookingId;
  } catch {
    return null;
  }
}
