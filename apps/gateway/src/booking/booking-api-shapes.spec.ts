import { cancelAnswer, placesAnswer, precancelAnswer } from './booking-api-shapes';

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
});
