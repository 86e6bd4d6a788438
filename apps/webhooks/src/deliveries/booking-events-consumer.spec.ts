import { readFileSync } from 'node:fs';
import { join } from 'node:path';
import { BookingSnapshot, HEADERS, hotelProfileOf, rateOf } from '@hotel/contracts';
import { StreamMessage } from '@hotel/platform';
import { parseEvent } from './booking-events-consumer';

/** A message of the BOOKING_EVENTS stream as the consumer reads it. */
function message(event: unknown, headers: Record<string, string> = { 'Nats-Msg-Id': 'evt-1', [HEADERS.CLIENT_ID]: '7' }): StreamMessage {
  return { subject: 'booking.events.confirmed', data: new TextEncoder().encode(typeof event === 'string' ? event : JSON.stringify(event)), header: (name) => headers[name] ?? '', deliveryCount: 1 };
}

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

  it("renders the partner's payload from the event's booking: the Booking exactly as the previous release rendered it", () => {
    // A confirmed booking as stored, and its Booking as release-2026.11.27's booking service rendered it (the booking service's golden files).
    const golden = (file: string) => JSON.parse(readFileSync(join(__dirname, '../../../booking/src/bookings/__golden__', file), 'utf8'));
    const { row, link } = golden('booking-row.json');
    const booking: BookingSnapshot = {
      id: row.id,
      status: 'confirmed',
      sandbox: false,
      vendorReferences: row.bookingReference,
      voucherUrl: link,
      hotel: hotelProfileOf(row.hotel),
      checkIn: row.checkIn,
      checkOut: row.checkOut,
      lead: { firstName: row.firstName, lastName: row.lastName, email: row.email, phone: row.phone },
      rooms: row.rooms.map((room: { adults: { title: null; first_name: string; last_name: string }[]; children: { title: null; first_name: string; last_name: string; age: number }[] }) => ({
        adults: room.adults.map((guest) => ({ title: guest.title, firstName: guest.first_name, lastName: guest.last_name })),
        children: room.children.map((child) => ({ title: child.title, firstName: child.first_name, lastName: child.last_name, age: child.age })),
      })),
      rate: rateOf(row.rate),
      charged: { amount: row.priceChargeable, currency: row.priceCurrency },
      remarks: row.remarks,
      paymentMethod: row.paymentMethod,
      loyaltyNumber: row.loyaltyNumber,
      specialRequest: row.specialRequest,
      clientReference: row.clientReference,
      createdAt: row.createdAt,
      updatedAt: row.updatedAt,
      failureReason: null,
      cancellation: null,
    };
    const parsed = parseEvent(message({ ...event, booking }));
    expect(parsed).toMatchObject({ id: 'evt-1', type: 'booking.confirmed', clientId: 7, bookingId: row.id, sequence: 2, happenedAt: new Date(event.timestamp) });
    expect(JSON.parse(parsed!.payload)).toStrictEqual({ type: 'booking.confirmed', timestamp: event.timestamp, sequence: 2, data: golden('booking-view.json').confirmed });
  });
});
