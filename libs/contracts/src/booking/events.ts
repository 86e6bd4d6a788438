import { BOOKING_EVENT_SUBJECTS } from '../channels';
import { BookingView } from './book';
import { BookingSnapshot, bookingAnswer } from './booking-snapshot';

/** What happened to a booking: one event per status change (pending when created, then its outcome, then a cancellation). */
export type BookingEventType = keyof typeof BOOKING_EVENT_SUBJECTS;
export const BOOKING_EVENT_TYPES = Object.keys(BOOKING_EVENT_SUBJECTS) as BookingEventType[];

/**
 * A booking event as it is on the BOOKING_EVENTS stream: `type`, `timestamp` (the change's
 * time, ISO 8601), `sequence` (the booking's events counted from 1 without gaps, so a
 * receiver orders the events of one booking and sees one it missed) and `booking`, the
 * booking as of the change in the booking service's words. The event's id is the message's
 * `Nats-Msg-Id` header (the stream drops a repeat of an id). The webhooks service renders
 * the partner's payload from it (`bookingWebhookPayload`).
 */
export interface BookingEvent {
  type: BookingEventType;
  timestamp: string;
  sequence: number;
  booking: BookingSnapshot;
}

/**
 * What a partner's endpoint receives for a booking event, shaped as a Standard Webhooks
 * payload: `type`, `timestamp`, `sequence` and `data`, the Booking exactly as GET /book
 * answered it at that moment (`is_sandbox` says which world).
 */
export interface BookingWebhookPayload {
  type: BookingEventType;
  timestamp: string;
  sequence: number;
  data: BookingView;
}

/** The partner's payload of an event, serialized. */
export function bookingWebhookPayload(event: BookingEvent): string {
  const payload: BookingWebhookPayload = { type: event.type, timestamp: event.timestamp, sequence: event.sequence, data: bookingAnswer(event.booking) };
  return JSON.stringify(payload);
}

/** The event type a booking status change publishes, by the status it reaches. */
export const BOOKING_EVENT_BY_STATUS = {
  pending: 'booking.created',
  confirmed: 'booking.confirmed',
  failed: 'booking.failed',
  cancelled: 'booking.cancelled',
} as const satisfies Record<BookingView['status'], BookingEventType>;
