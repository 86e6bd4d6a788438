import { HEADERS } from '@hotel/contracts';
import { StreamMessage } from '@hotel/platform';
import { parseEvent } from './booking-events-consumer';

/** A message of the BOOKING_EVENTS stream as the consumer reads it. */
function message(event: unknown, headers: Record<string, string> = { 'Nats-Msg-Id': 'evt-1', [HEADERS.CLIENT_ID]: '7' }): StreamMessage {
  return { subject: 'booking.events.confirmed', data: new TextEncoder().encode(typeof event === 'string' ? event : JSON.stringify(event)), header: (name) => headers[name] ?? '', deliveryCount: 1 };
}

describe('reading a booking event off the stream', () => {
  const previousRelease = { type: 'booking.confirmed', timestamp: '2026-11-28T10:00:00.000Z', sequence: 2, data: { id: 42, status: 'confirmed' } };

  it("passes an event of the previous release's booking service (the Booking as data, no booking) on as it came", () => {
    const bytes = JSON.stringify(previousRelease);
    expect(parseEvent(message(bytes))).toEqual({ id: 'evt-1', type: 'booking.confirmed', clientId: 7, bookingId: 42, sequence: 2, payload: bytes, happenedAt: new Date(previousRelease.timestamp) });
  });

  it('skips what it cannot read: not JSON, no id or client, an unknown type, a booking it cannot render', () => {
    expect(parseEvent(message('{not json'))).toBeNull();
    expect(parseEvent(message(previousRelease, { [HEADERS.CLIENT_ID]: '7' }))).toBeNull();
    expect(parseEvent(message(previousRelease, { 'Nats-Msg-Id': 'evt-1' }))).toBeNull();
    expect(parseEvent(message({ ...previousRelease, type: 'booking.moved' }))).toBeNull();
    expect(parseEvent(message({ ...previousRelease, data: undefined, booking: { id: 42 } }))).toBeNull();
  });

  it('sends the Booking an event carries beside a booking it cannot render, rather than nothing', () => {
    const parsed = parseEvent(message({ ...previousRelease, booking: { id: 42 } }));
    expect(parsed?.bookingId).toBe(42);
    expect(JSON.parse(parsed!.payload)).toEqual(previousRelease);
  });
});
