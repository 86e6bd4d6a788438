import { SearchBody, searchAnswer, staySearchOf } from '@hotel/contracts';
import { DomainError } from '@hotel/platform';
import { cancelAnswer, placesAnswer, precancelAnswer, unknownPlaceInApiWords } from './booking-api-shapes';

describe("the booking API's answers rendered by the gateway", () => {
  it('places: the ids, the name and address, and Google-style types by kind', () => {
    const answer = placesAnswer({
      places: [
        { placeId: 'gn:3448439', destinationId: 'city-3448439', name: 'São Paulo', formattedAddress: 'São Paulo, Brazil', kind: 'city' },
        { placeId: 'cc:BR', destinationId: 'country-BR', name: 'Brazil', formattedAddress: 'Brazil', kind: 'country' },
      ],
    });
    expect(answer).toEqual({
      results: [
        { place_id: 'gn:3448439', destination_id: 'city-3448439', display_name: 'São Paulo', formatted_address: 'São Paulo, Brazil', types: ['locality', 'political'] },
        { place_id: 'cc:BR', destination_id: 'country-BR', display_name: 'Brazil', formatted_address: 'Brazil', types: ['country', 'political'] },
      ],
    });
    expect(placesAnswer({ places: [] })).toEqual({ results: [] });
  });

  it("precancel: the penalty as an exact JSON number in any currency's decimals", () => {
    expect(precancelAnswer({ bookingId: 1, penalty: '12.50', currency: 'USD' })).toEqual({ price_cancellation_penalty: 12.5, price_currency: 'USD' });
    expect(precancelAnswer({ bookingId: 1, penalty: '1500', currency: 'JPY' })).toEqual({ price_cancellation_penalty: 1500, price_currency: 'JPY' });
    expect(precancelAnswer({ bookingId: 1, penalty: '1.234', currency: 'KWD' })).toEqual({ price_cancellation_penalty: 1.234, price_currency: 'KWD' });
    expect(precancelAnswer({ bookingId: 1, penalty: '0.00', currency: 'EUR' })).toEqual({ price_cancellation_penalty: 0, price_currency: 'EUR' });
  });

  it("cancel: done, with the cancellation's reference", () => {
    expect(cancelAnswer({ bookingId: 7, cancelled: true, reference: 'CXL-7' })).toEqual({ cancelled: true, cancellation_reference: 'CXL-7' });
  });

  it("search: each hotel's lowest rate with its amount as an exact JSON number, in the service's order", () => {
    const answer = searchAnswer({
      sessionId: 's-1',
      completed: false,
      hotels: [
        { id: 7, name: 'Hotel A', stars: 4, lowestRate: { id: 'r-7', amount: '1500', currency: 'JPY' } },
        { id: 3, name: 'Hotel B', stars: 3, lowestRate: { id: 'r-3', amount: '1.234', currency: 'KWD' } },
        { id: 9, name: 'Hotel C', stars: 5, lowestRate: { id: 'r-9', amount: '99999999999.99', currency: 'USD' } },
      ],
    });
    expect(answer).toEqual({
      session_id: 's-1',
      search_completed: false,
      results: [
        { hotel: { id: 7, name: 'Hotel A', stars: 4, lowest_rate: { id: 'r-7', price_chargeable: 1500, price_currency: 'JPY' } } },
        { hotel: { id: 3, name: 'Hotel B', stars: 3, lowest_rate: { id: 'r-3', price_chargeable: 1.234, price_currency: 'KWD' } } },
        { hotel: { id: 9, name: 'Hotel C', stars: 5, lowest_rate: { id: 'r-9', price_chargeable: 99999999999.99, price_currency: 'USD' } } },
      ],
    });
    // Nothing else: the answer's JSON is exactly the API's fields.
    expect(JSON.stringify(answer.results[0])).toBe('{"hotel":{"id":7,"name":"Hotel A","stars":4,"lowest_rate":{"id":"r-7","price_chargeable":1500,"price_currency":"JPY"}}}');
  });

  it('search request: a place or a destination, the dates and the rooms in domain words', () => {
    const rooms = [{ adults: 2, children: 1, children_ages: [7] }];
    const byPlace: SearchBody = { place_id: 'gn:2988507', check_in: '2027-01-10', check_out: '2027-01-12', rooms };
    expect(staySearchOf(byPlace)).toEqual({ placeId: 'gn:2988507', checkIn: '2027-01-10', checkOut: '2027-01-12', rooms: [{ adults: 2, children: 1, childAges: [7] }] });
    expect(staySearchOf({ ...byPlace, place_id: undefined, destination_id: 'city-2988507' }).placeId).toBe('city-2988507');
  });

  it("an unknown place: named by the field the partner sent (V1 search and V2 rates), other refusals as they came", () => {
    const unknown = DomainError.validation([{ field: 'placeId', message: 'placeId names no known place' }]);
    for (const [body, field] of [[{ place_id: 'gn:1' }, 'place_id'], [{ destination_id: 'city-1' } as { place_id?: string }, 'destination_id']] as const) {
      const reworded = unknownPlaceInApiWords(unknown, body) as DomainError;
      expect(reworded.code).toBe('VALIDATION_FAILED');
      expect(reworded.errors).toEqual([{ field, message: `${field} names no known place; find one with GET /places/search` }]);
    }
    const other = DomainError.validation([{ field: 'checkIn', message: 'checkIn is in the past' }]);
    expect(unknownPlaceInApiWords(other, { place_id: 'gn:1' })).toBe(other);
  });
});
