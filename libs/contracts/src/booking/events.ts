import { BOOKING_EVENT_SUBJECTS } from '../channels';
import { BookingView } from './book';

/** What happened to a booking: one event per status change (pending when created, then its outcome, then a cancellation). */
export type BookingEventType = keyof typeof BOOKING_EVENT_SUBJECTS;
export const BOOKING_EVENT_TYPES = Object.keys(BOOKING_EVENT_SUBJECTS) as BookingEventType[];

/**
 * A booking event as it is on the BOOKING_EVENTS stream, shaped as a Standard
 * Webhooks payload: `type`, `timestamp` (the change's time, ISO 8601) and `data`,
 * the Booking exactly as GET /book returned it at that moment (`is_sandbox` says
 * which world). `sequence` counts the booking's events from 1 without gaps, so a
 * receiver orders the events of one booking and sees one it missed. The event's id
 * is the message's `Nats-Msg-Id` header (the stream drops a repeat of an id).
 */
export interface BookingEvent {
  type: BookingEventType;
  timestamp: string;
  sequence: number;
  data: BookingView;
}

/** The event type a booking status change publishes, by the status it reaches. */
export const BOOKING_EVENT_BY_STATUS = {
  pending: 'booking.created',
  confirmed: 'booking.confirmed',
  failed: 'booking.failed',
  cancelled: 'booking.cancelled',
} as const satisfies Record<BookingView['status'], BookingEventType>;
