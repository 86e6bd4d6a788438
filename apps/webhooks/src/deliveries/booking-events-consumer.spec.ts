import { HEADERS } from '@hotel/contracts';
import { StreamMessage } from '@hotel/platform';
import { parseEvent } from './booking-events-consumer';

/** A message of the BOOKING_EVENTS stream as the consumer reads it. */
function message(event: unknown, headers: Record<string, string> = { 'Nats-Msg-Id': 'evt-1', [HEADERS.CLIENT_ID]: '7' }): StreamMessage {
  return { subject: 'booking.events.confirmed', data: new TextEncoder().encode(typeof event === 'string' ? event : JSON.stringify(event)), header: (name) => headers[name] ?? '', deliveryCount: 1 };
}

// (An event this release reads is rendered into the partner's payload: the webhooks system test checks it whole.)
describe('reading a booking event off the stream', () => {
  const event = { type: 'booking.confirmed', timestamp: '2026-11-28T10:00:00.000Z', sequence: 2, booking: { id: 42 } };

  it('skips what it cannot read: not JSON, no id or client, an unknown type, no booking, a booking it cannot render', () => {
    expect(parseEvent(message('{not json'))).toBeNull();
    expect(parseEvent(message(event, { [HEADERS.CLIENT_ID]: '7' }))).toBeNull();
    expect(parseEvent(message(event, { 'Nats-Msg-Id': 'evt-1' }))).toBeNull();
    expect(parseEvent(message({ ...event, type: 'booking.moved' }))).toBeNull();
    // Release-2026.11.27's events carried the API's Booking as data and no booking.
    expect(parseEvent(message({ ...event, booking: undefined, data: { id: 42, status: 'confirmed' } }))).toBeNull();
    expect(parseEvent(message(event))).toBeNull();
  });
});
