import { HotelRate } from './hotel';
import fc from 'fast-check';
import { formatAmount } from '../common/currencies';
import { toMilli } from '../common/money';
import { hotelAnswer, rateAnswer, rateOf } from './rate';

/** A rate with every part the API has: two rooms, fees, penalties, elite benefits, amounts of 0 to 3 decimals. */
const API_RATE: HotelRate = {
  id: 'rate-1',
  hotel_id: 42,
  rooms: [0, 1].map((index) => ({
    name: `Room ${index}`,
    board: 'BB',
    room_data: { images: ['a.jpg'], size_sqft: 215, size_sqm: 20, max_occupancy: 3, max_adults: 2, max_children: 1, beds: [{ name: 'Queen', size: 'queen', quantity: 1 }], amenities: ['wifi'], room_id: 7 + index },
    price_per_night_avg: 50.125,
    price_per_night: [50.1, 50.15],
    price_chargeable: 100.25,
    price_per_room: 100.25,
    price_before_fees: 90,
    price_fees: 10.25,
    price_due_at_hotel: 0,
    price_inclusive: 100.25,
    price_currency: 'KWD',
    fees: [{ name: 'City tax', price: 10.25, due_at_hotel: index === 1, price_currency: 'KWD' }],
    deposit_per_accomodation_per_night: 15,
    deposit_currency: 'EUR',
    adults: 2,
    children: index,
    children_ages: index ? [7] : [],
  })),
  price_per_night_avg: 100.25,
  price_per_night: [100.2, 100.3],
  price_chargeable: 200.5,
  price_per_room: [100.25, 100.25],
  price_per_night_per_room: [[50.1, 50.15], [50.1, 50.15]],
  price_before_fees: 180,
  price_fees: 20.5,
  price_due_at_hotel: 0,
  price_inclusive: 200.5,
  price_currency: 'KWD',
  price_retail: 250.999,
  cancellation_policy: 'Refundable',
  cancellation_policy_datetime: '2026-12-01T12:00:00Z',
  cancellation_policy_data: [{ from_datetime: '2026-12-01T12:00:00Z', price_cancellation_penalty: 100.25, price_currency: 'KWD' }],
  brand_loyalty_eligible: true,
  brand_loyalty_required: false,
  brand_loyalty_name: 'Bonvoy',
  elite: {
    room_upgrade_guaranteed: false,
    room_upgrade_subject_availability: true,
    late_checkout_guaranteed: true,
    late_checkout_subject_availability: false,
    welcome_amenity: true,
    breakfast_included: true,
    travel_agent: false,
    description: ['Upgrade on arrival'],
    price_property_credit: 100,
    price_property_credit_currency: 'USD',
    property_credit_description: 'USD 100 to spend',
    breakfast_description: 'Daily for two',
    breakfast_pax: 2,
  },
  price_commission: 12.345,
  price_commission_currency: 'KWD',
  payment_type: 'account',
};

describe('a rate in the services\' words', () => {
  it('carries every amount as an exact decimal string, and renders back to the same HotelRate', () => {
    const rate = rateOf(API_RATE);
    // In each amount's currency's decimals: KWD three, USD two.
    expect(rate.prices).toMatchObject({ chargeable: '200.500', perNightAvg: '100.250', retail: '250.999', perNightPerRoom: [['50.100', '50.150'], ['50.100', '50.150']] });
    expect(rate.rooms[0].prices).toMatchObject({ perNightAvg: '50.125', total: '100.250' });
    expect(rate.rooms[0].depositPerNight).toEqual({ amount: '15.00', currency: 'EUR' });
    expect(rate.commission).toEqual({ amount: '12.345', currency: 'KWD' });
    expect(rate.cancellation).toEqual({ refundable: true, freeUntil: '2026-12-01T12:00:00Z', penalties: [{ from: '2026-12-01T12:00:00Z', amount: '100.250', currency: 'KWD' }] });
    expect(rate.elite?.propertyCredit).toEqual({ amount: '100.00', currency: 'USD' });
    const yen = rateOf({ ...API_RATE, price_currency: 'JPY', price_chargeable: 20050, price_per_night: [10025, 10025] });
    expect(yen.prices).toMatchObject({ chargeable: '20050', perNight: ['10025', '10025'] });
    expect(JSON.stringify(rate)).not.toMatch(/"[a-z]+_[a-z_]+":/);
    expect(rateAnswer(rate)).toEqual(API_RATE);
    expect(rateAnswer(rateOf({ ...API_RATE, elite: null, cancellation_policy: 'NonRefundable' }))).toEqual({ ...API_RATE, elite: null, cancellation_policy: 'NonRefundable' });
  });

  it("writes every amount as formatAmount does, in its currency's decimals or finer, never rounded", () => {
    fc.assert(
      fc.property(fc.integer({ min: 0, max: 999_999_999_999 }), fc.constantFrom('JPY', 'USD', 'KWD'), (milli, currency) => {
        const amount = milli / 1000;
        expect(rateOf({ ...API_RATE, price_currency: currency, price_chargeable: amount }).prices.chargeable).toBe(formatAmount(toMilli(amount), currency));
      }),
      { numRuns: 3000 },
    );
  });

  it('refuses an amount finer than a thousandth rather than rounding it', () => {
    expect(() => rateOf({ ...API_RATE, price_chargeable: 1.0005 })).toThrow(/three decimals/);
  });

  it("renders a hotel's lowest and lowest brand-loyalty rate from its rates, cheapest first", () => {
    const profile = {
      id: 42,
      name: 'Hôtel Exemple',
      stars: 4,
      rating: 8.6,
      reviewCount: 120,
      minimumAge: 18,
      amenities: ['wifi'],
      checkInFrom: '15:00',
      checkInUntil: '23:00',
      checkOutBefore: '11:00',
      description: 'Near the river.',
      images: ['h.jpg'],
      coordinates: { lat: 48.85, long: 2.35 },
      address: { street: '1 Rue X', city: 'Paris', country: 'France', postalCode: '75001', region: 'Île-de-France' },
      phone: null,
      email: 'desk@example.com',
      type: 'hotel',
      exclusive: false,
    };
    const cheaper = { ...API_RATE, id: 'rate-0', brand_loyalty_eligible: false };
    const details = hotelAnswer(profile, [cheaper, API_RATE]);
    expect(details).toMatchObject({ review_count: 120, minimum_age: 18, check_in_begin_time: '15:00', check_in_end_time: '23:00', check_out_before_time: '11:00', address: { address: '1 Rue X', postal_code: '75001' } });
    expect(details.lowest_rate?.id).toBe('rate-0');
    expect(details.lowest_brand_loyalty_rate?.id).toBe('rate-1');
    expect(hotelAnswer(profile)).toMatchObject({ lowest_rate: null, lowest_brand_loyalty_rate: null });
  });
});
