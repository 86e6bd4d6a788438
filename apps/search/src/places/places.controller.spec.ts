import { PlacesController } from './places.controller';

describe('places (the search service)', () => {
  const controller = new PlacesController();

  it('answers the matching places as domain data, best first, as many as asked', () => {
    const { places } = controller.find({ text: 'sao paulo', limit: 2 });
    expect(places[0]).toEqual({ placeId: 'gn:3448439', destinationId: 'city-3448439', name: 'São Paulo', formattedAddress: 'São Paulo, Brazil', kind: 'city' });
    expect(places.length).toBeLessThanOrEqual(2);
    expect(controller.find({ text: 'brazil' }).places[0]).toMatchObject({ placeId: 'cc:BR', kind: 'country' });
  });
});
