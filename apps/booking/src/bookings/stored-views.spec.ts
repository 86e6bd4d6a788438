import { toBookingView } from './booking-view';
import { BookingEntity } from './booking.entity';
import { filledApiView, storedViewsOf } from './stored-views';
import { newBookingTemplate } from '../../test/booking-fixtures';

// A real offer's rate and hotel, with values that look like the slots, which must stay as they are.
const template = newBookingTemplate();
const rate = { ...template.rate, rooms: [{ ...template.rate.rooms[0], name: 'Double "deluxe" \u0001 "voucher_url":"\u0001" \u0002' }] };
const hotel = { ...template.hotel, name: 'Hôtel \u2603 "Lumière"' };

function booking(overrides: Partial<BookingEntity> = {}): BookingEntity {
  return {
    id: 42,
    clientId: 1,
    userId: null,
    sandbox: false,
    status: 'confirmed',
    step: 'done',
    paymentMethod: 'account',
    hotelId: hotel.id,
    hotelName: hotel.name,
    checkIn: '2027-03-10',
    checkOut: '2027-03-12',
    firstName: 'Ada',
    lastName: 'Lovelace',
    email: 'ada@example.com',
    phone: '+44 20 7946 0000',
    priceChargeable: template.priceChargeable,
    priceCurrency: template.priceCurrency,
    rate,
    hotel,
    rooms: [{ adults: [{ title: null, first_name: 'Ada', last_name: 'Lovelace' }], children: [] }],
    language: 'en',
    loyaltyNumber: null,
    specialRequest: 'a quiet room \u0002 please',
    remarks: 'Remarks\nwith "quotes"',
    clientReference: 'REF-1',
    promoCode: null,
    promoDiscount: '0.00',
    bookingReference: ['SUP-1', 'HB-42'],
    failureReason: null,
    createdAt: new Date('2026-11-01T10:00:00.123Z'),
    updatedAt: new Date('2026-11-01T10:00:01.456Z'),
    ...overrides,
  } as unknown as BookingEntity;
}

describe('stored booking views', () => {
  const link = 'https://hotel.example/vouchers/42?expires=1800000000&signature=abc';

  it.each(['confirmed', 'pending', 'cancelled', 'failed'] as const)('a %s booking filled in is exactly the Booking toBookingView serializes', (status) => {
    const stored = storedViewsOf(booking({ status, updatedAt: new Date('2000-01-01T00:00:00Z') })).apiView;
    const later = new Date('2026-11-02T08:30:00.789Z');
    expect(filledApiView(stored, later, () => link)).toBe(JSON.stringify(toBookingView(booking({ status, updatedAt: later }), link)));
  });

  it('stores no link slot for a booking that is not confirmed, and one fresh link per read for a confirmed one', () => {
    expect(storedViewsOf(booking({ status: 'pending' })).apiView).not.toContain('\u0001');
    const stored = storedViewsOf(booking()).apiView;
    expect(JSON.parse(filledApiView(stored, new Date(), () => 'first')).voucher_url).toBe('first');
    expect(JSON.parse(filledApiView(stored, new Date(), () => 'second')).voucher_url).toBe('second');
  });
});
