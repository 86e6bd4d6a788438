import { readFileSync } from 'node:fs';
import { join } from 'node:path';
import { toMilli } from '@hotel/contracts';
import { OfferKey, findPlace, hotelsForPlace } from '@hotel/inventory';
import type { AvailabilityRS, CheckRateRS, Hotel as WireHotel, Rate } from '../wire';
import { availabilityRequest, occupanciesOf, offersOfHotel, recheckedOffer, splitExactly } from './offer-mapping';

const fixture = <T>(name: string): { request: { body: unknown }; response: { body: T } } =>
  JSON.parse(readFileSync(join(__dirname, '../../test/fixtures', name), 'utf8'));

const NOW = new Date('2021-06-01T10:00:00.000Z');
// The documented answers name the vendor's hotels; here they are a catalog hotel (Lisbon's first: every hotel has a DBL.ST).
const hotel = hotelsForPlace(findPlace('gn:2267057')!.placeId, 1)![0];
const room = (adults: number, children_ages: number[] = []) => ({ adults, children: children_ages.length, children_ages });

describe('occupancies', () => {
  it('asks identical rooms as one occupancy, in the order first seen, with a CH pax per child of each room', () => {
    const stay = { check_in: '2027-03-01', check_out: '2027-03-03', rooms: [room(2), room(2, [5]), room(2), room(2, [5])] };
    expect(occupanciesOf(stay)).toEqual({
      occupancies: [
        { rooms: 2, guests: room(2) },
        { rooms: 2, guests: room(2, [5]) },
      ],
      roomOf: [
        { group: 0, index: 0 },
        { group: 1, index: 0 },
        { group: 0, index: 1 },
        { group: 1, index: 1 },
      ],
    });
    expect(availabilityRequest([11, 12], stay)).toEqual({
      stay: { checkIn: '2027-03-01', checkOut: '2027-03-03' },
      occupancies: [
        { rooms: 2, adults: 2, children: 0 },
        { rooms: 2, adults: 2, children: 1, paxes: [{ type: 'CH', age: 5 }, { type: 'CH', age: 5 }] },
      ],
      hotels: { hotel: [11, 12] },
    });
  });

  it('the documented request of the availability example is what one room of two adults asks', () => {
    const { request } = fixture('availability.json');
    const stay = { check_in: '2021-06-15', check_out: '2021-06-16', rooms: [room(2)] };
    expect(availabilityRequest([3424, 168], stay)).toEqual(request.body);
  });
});

describe('splitExactly', () => {
  it('splits into whole minor units that add up to the total, the first shares taking the remainder', () => {
    expect(splitExactly(100_010, 3, 'EUR')).toEqual([33_340, 33_340, 33_330]);
    expect(splitExactly(1_000_000, 3, 'JPY')).toEqual([334_000, 333_000, 333_000]);
    expect(splitExactly(10_005, 2, 'KWD')).toEqual([5_003, 5_002]);
    // A total finer than the currency's unit keeps its residue in the first share.
    expect(splitExactly(10_005, 2, 'EUR').reduce((sum, share) => sum + share, 0)).toBe(10_005);
  });
});

describe('offers from an availability answer', () => {
  const { response } = fixture<AvailabilityRS>('availability.json');
  const wire = { ...response.body.hotels.hotels![0], code: hotel.id };
  const stay = { check_in: '2021-06-15', check_out: '2021-06-16', rooms: [room(2)] };

  it('the documented example: one offer, priced as the vendor answered, with its key kept for CheckRate', () => {
    const offers = offersOfHotel('hotelbeds', hotel, wire, stay, NOW);
    expect(offers).toHaveLength(1);
    const [{ key, rate }] = offers;
    const documented = wire.rooms![0].rates![0];
    expect(key).toEqual({
      vendor: 'hotelbeds',
      hotelId: hotel.id,
      roomId: 2,
      board: 'BB',
      refundable: true,
      memberRate: false,
      vendorRate: { keys: [documented.rateKey], occupancies: [{ rooms: 1, guests: room(2) }], recheck: true, net: '118.270', currency: 'EUR', hotelCode: hotel.id },
    });
    expect(rate).toMatchObject({
      hotel_id: hotel.id,
      price_chargeable: 118.27,
      price_per_night: [118.27],
      price_per_room: [118.27],
      price_currency: 'EUR',
      price_due_at_hotel: 0,
      price_inclusive: 118.27,
      cancellation_policy: 'Refundable',
      cancellation_policy_datetime: '2021-06-13T22:59:00.000Z',
      cancellation_policy_data: [{ from_datetime: '2021-06-13T22:59:00.000Z', price_cancellation_penalty: 118.27, price_currency: 'EUR' }],
      payment_type: 'account',
      price_commission: 0,
    });
    expect(rate.rooms).toHaveLength(1);
    expect(rate.rooms[0]).toMatchObject({ name: 'DOUBLE STANDARD', board: 'BB', adults: 2, children: 0, price_chargeable: 118.27 });
    expect(rate.rooms[0].room_data.room_id).toBe(2);
  });

  const rate = (overrides: Partial<Rate>): Rate => ({
    rateKey: `key-${Math.random()}`,
    rateClass: 'NOR',
    rateType: 'BOOKABLE',
    net: '100.00',
    paymentType: 'AT_WEB',
    boardCode: 'RO',
    rooms: 1,
    adults: 2,
    children: 0,
    ...overrides,
  });
  const hotelAnswer = (rates: Rate[], code = 'DBL.ST'): WireHotel => ({ code: hotel.id, currency: 'EUR', rooms: [{ code, name: 'DOUBLE', rates }] });

  it('rooms of two occupancies: a rate of each makes one offer, its nets added and split exactly per room and night', () => {
    const twoStay = { check_in: '2027-03-01', check_out: '2027-03-04', rooms: [room(2), room(1), room(2)] };
    const answer = hotelAnswer([
      rate({ net: '300.01', rooms: 2, adults: 2, taxes: { taxes: [{ included: true, amount: '30.00', currency: 'EUR' }, { included: false, amount: '9.00', currency: 'EUR' }] } }),
      rate({ net: '99.99', rooms: 1, adults: 1 }),
      // A dearer contract of the same room, board and class is not a second offer.
      rate({ net: '500.00', rooms: 1, adults: 1 }),
    ]);
    const [offer, ...others] = offersOfHotel('hotelbeds', hotel, answer, twoStay, NOW);
    expect(others).toEqual([]);
    expect(offer.key.vendorRate!.net).toBe('400.000');
    expect(offer.key.vendorRate!.occupancies.map((group) => group.rooms)).toEqual([2, 1]);
    const { rate: priced } = offer;
    expect(priced.price_chargeable).toBe(400);
    expect(priced.price_per_room).toEqual([150.01, 99.99, 150]);
    expect(priced.price_per_room.reduce((sum, value) => toMilli(value) + sum, 0)).toBe(400_000);
    for (const [index, perRoom] of priced.price_per_room.entries()) {
      expect(priced.rooms[index].price_per_night.reduce((sum, value) => sum + toMilli(value), 0)).toBe(toMilli(perRoom));
    }
    expect(priced.price_per_night.reduce((sum, value) => sum + toMilli(value), 0)).toBe(400_000);
    expect(priced.price_fees).toBe(30);
    expect(priced.price_due_at_hotel).toBe(9);
    expect(priced.price_inclusive).toBe(409);
    expect(priced.rooms.map((one) => one.adults)).toEqual([2, 1, 2]);
  });

  it('an offer needs a rate for every occupancy; an unknown room code or board, or a rate without a key, is left out', () => {
    const twoStay = { check_in: '2027-03-01', check_out: '2027-03-02', rooms: [room(2), room(1)] };
    expect(offersOfHotel('hotelbeds', hotel, hotelAnswer([rate({ adults: 2 })]), twoStay, NOW)).toEqual([]);
    const oneStay = { check_in: '2027-03-01', check_out: '2027-03-02', rooms: [room(2)] };
    expect(offersOfHotel('hotelbeds', hotel, hotelAnswer([rate({})], 'XXX.YY'), oneStay, NOW)).toEqual([]);
    expect(offersOfHotel('hotelbeds', hotel, hotelAnswer([rate({ boardCode: 'SC' }), rate({ rateKey: undefined })]), oneStay, NOW)).toEqual([]);
  });

  it('NRF is non-refundable, charged in full from now; AT_HOTEL is paid by card', () => {
    const oneStay = { check_in: '2027-03-01', check_out: '2027-03-02', rooms: [room(2)] };
    const [offer] = offersOfHotel('hotelbeds', hotel, hotelAnswer([rate({ rateClass: 'NRF', paymentType: 'AT_HOTEL' })]), oneStay, NOW);
    expect(offer.key.refundable).toBe(false);
    expect(offer.rate).toMatchObject({
      cancellation_policy: 'NonRefundable',
      cancellation_policy_datetime: NOW.toISOString(),
      cancellation_policy_data: [{ from_datetime: NOW.toISOString(), price_cancellation_penalty: 100, price_currency: 'EUR' }],
      payment_type: 'credit_card',
    });
  });
});

describe('the offer from a CheckRate answer', () => {
  it('the documented example: the key it gave is the one to book, at its price, no longer to recheck', () => {
    const { request, response } = fixture<CheckRateRS>('checkrate.json');
    const wire = { ...response.body.hotel, code: hotel.id };
    const stay = { check_in: '2019-06-15', check_out: '2019-06-16', rooms: [room(2), room(2)] };
    const asked: OfferKey = {
      vendor: 'hotelbeds',
      hotelId: hotel.id,
      roomId: 2,
      board: 'RO',
      refundable: true,
      memberRate: false,
      vendorRate: { keys: [(request.body as { rooms: { rateKey: string }[] }).rooms[0].rateKey], occupancies: [{ rooms: 2, guests: room(2) }], recheck: true, net: '350.000', currency: 'EUR' },
    };
    const checked = recheckedOffer(hotel, asked, wire, stay, NOW)!;
    expect(checked.key.vendorRate).toEqual({ keys: [wire.rooms![0].rates![0].rateKey], occupancies: asked.vendorRate!.occupancies, recheck: false, net: '357.900', currency: 'EUR' });
    expect(checked.rate.price_chargeable).toBe(357.9);
    expect(checked.rate.price_per_room).toEqual([178.95, 178.95]);
    expect(checked.rate.cancellation_policy_data).toEqual([{ from_datetime: '2019-06-13T21:59:00.000Z', price_cancellation_penalty: 178.95, price_currency: 'EUR' }]);
    // An answer without a rate for every key asked is no offer.
    expect(recheckedOffer(hotel, { ...asked, vendorRate: { ...asked.vendorRate!, keys: ['a', 'b'] } }, wire, stay, NOW)).toBeNull();
  });
});
