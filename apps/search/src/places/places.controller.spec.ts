import { PlacesController } from './places.controller';

describe('places (the search service)', () => {
  const controller = new PlacesController();

  it('answers the matching places as domain data, best first, as many as asked', () => {
    const { places } = controller.find({ text: 'sao paulo', limit: 2 });
    expect(places[0]).toEqual({ placeId: 'gn:3448439', destinationId: 'city-3448439', name: 'São Paulo', formattedAddress: 'São Paulo, Brazil', kind: 'city' });
    expect(places.length).toBeLessThanOrEqual(2);
    expect(controller.find({ text: 'brazil' }).places[0]).toMatchObject({ placeId: 'cc:BR', kind: 'country' });
  });

  it('still answers the previous version (the API query and reply) for the gateways of the previous release', () => {
    expect(controller.findV1({ text_query: 'sao paulo', limit: 1 })).toEqual({
      results: [{ place_id: 'gn:3448439', destination_id: 'city-3448439', display_name: 'São Paulo', formatted_address: 'São Paulo, Brazil', types: ['locality', 'political'] }],
    });
    expect(controller.findV1({ text_query: 'brazil', limit: 1 }).results[0]).toMatchObject({ place_id: 'cc:BR', types: ['country', 'political'] });
  });
});
