import { toBookingView } from './booking-view';
import { BookingEntity } from './booking.entity';
import { filledApiView, storedViewsOf } from './stored-views';

const rate = {
  rooms: [{ name: 'Double "deluxe"' }],
  price_per_night_avg: 120.5,
  price_per_night: [120, 121],
  price_per_room: 241,
  price_per_night_per_room: 120.5,
  price_before_fees: 220,
  price_fees: 21,
  price_due_at_hotel: 0,
  price_inclusive: 241,
  price_retail: 260,
  price_currency: 'USD',
  cancellation_policy: 'Refundable',
  cancellation_policy_datetime: '2027-03-01T12:00:00.000Z',
  cancellation_policy_data: [{ from_datetime: '2027-03-01T12:00:00.000Z', price_cancellation_penalty: 120.5, price_currency: 'USD' }],
  price_commission: 12.05,
  price_commission_currency: 'USD',
  // Values that look like the slots must stay as they are.
  note: '\u0001 "voucher_url":"\u0001" \u0002',
};

const hotel = {
  id: 7,
  name: 'Hôtel \u2603 "Lumière"',
  stars: 4,
  rating: 4.4,
  review_count: 120,
  coordinates: { lat: 48.85, long: 2.35 },
  address: { address: '1 rue de Rivoli', postal_code: '75001', city: 'Paris', country: 'FR' },
  amenities: ['wifi'],
  images: [],
  exclusive: false,
  type: 'hotel',
};

function booking(overrides: Partial<BookingEntity> = {}): BookingEntity {
  return {
    id: 42,
    clientId: 1,
    userId: null,
    sandbox: false,
    status: 'confirmed',
    step: 'done',
    paymentMethod: 'account',
    hotelId: 7,
    hotelName: hotel.name,
    checkIn: '2027-03-10',
    checkOut: '2027-03-12',
    firstName: 'Ada',
    lastName: 'Lovelace',
    email: 'ada@example.com',
    phone: '+44 20 7946 0000',
    priceChargeable: '241.00',
    priceCurrency: 'USD',
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
