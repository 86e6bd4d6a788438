import { plainToInstance } from 'class-transformer';
import { validateSync } from 'class-validator';
import { V2RatesBody, V2RatesQuery, commaJoinedChunks, v2RatesHeadOf, v2RatesQueryOf } from './v2-rates';

describe('raw reply chunks', () => {
  const chunked = (values: (string | Uint8Array)[]) => [...commaJoinedChunks(values)];

  it('joins values into chunks under the NATS message size, each a comma-separated run of whole values', () => {
    expect(chunked([])).toEqual([]);
    expect(Buffer.from(chunked(['{"a":1}', '{"b":"é"}'])[0]).toString()).toBe('{"a":1},{"b":"é"}');
    const item = `{"x":"${'é'.repeat(5_000)}"}`;
    const chunks = chunked(Array.from({ length: 30 }, () => item));
    expect(chunks.length).toBeGreaterThan(1);
    for (const chunk of chunks) expect(chunk.length).toBeLessThanOrEqual(60 * 1024);
    expect(JSON.parse(`[${chunks.map((chunk) => Buffer.from(chunk).toString()).join(',')}]`)).toEqual(Array(30).fill({ x: 'é'.repeat(5_000) }));
    // An item larger than a chunk goes alone, whole.
    const big = `{"x":"${'é'.repeat(100_000)}"}`;
    const alone = chunked([item, big, item]);
    expect(alone.map((chunk) => Buffer.from(chunk).toString())).toEqual([item, big, item]);
  });

  it('takes UTF-8 bytes as well as strings (serialized rates)', () => {
    const rates = ['{"id":"a"}', '{"id":"é"}'].map((json) => Buffer.from(json));
    expect(chunked(rates).map((chunk) => Buffer.from(chunk).toString())).toEqual(['{"id":"a"},{"id":"é"}']);
  });
});

describe("POST /v2/rates's body in the search service's words, and its head rendered back", () => {
  const day = (offset: number) => new Date(Date.now() + offset * 86_400_000).toISOString().slice(0, 10);
  const stay = { check_in: day(20), check_out: day(23), rooms: [{ adults: 2, children: 1, children_ages: [4] }] };
  const body = (fields: object) => Object.assign(new V2RatesBody(), { ...stay, ...fields });
  const head = { completed: false, page: 2, limit: 10, totalHotels: 31, totalPages: 4, maxPricePerNightAvg: '1234.5', maxPriceInclusive: '0.00', nights: 3, rooms: 1, center: { lat: 48.85, long: 2.35 } };

  it('maps every field, a destination id as the place, and member rates on unless turned off', () => {
    const full = body({
      destination_id: 'city-2988507',
      nationality: 'FR',
      filters: { price_range: [10, 500], star_rating: [4, 5], property_types: ['hotel'], amenities: ['wifi'], room_type: 'double', sort_by: 'distance_asc' },
      search_loyalty_rates: false,
      page: 2,
      limit: 10,
    });
    const query = v2RatesQueryOf(full);
    expect(query).toEqual({
      placeId: 'city-2988507',
      checkIn: stay.check_in,
      checkOut: stay.check_out,
      rooms: [{ adults: 2, children: 1, childAges: [4] }],
      filter: { priceRange: [10, 500], starRating: [4, 5], propertyTypes: ['hotel'], amenities: ['wifi'], roomType: 'double' },
      sortBy: 'distance_asc',
      memberRates: false,
      page: 2,
      limit: 10,
    });
    expect(validateSync(plainToInstance(V2RatesQuery, query))).toEqual([]);
    const near = v2RatesQueryOf(body({ coordinates: { lat: 1, long: 2 }, radius: 300 }));
    expect(near).toEqual({ coordinates: { lat: 1, long: 2 }, radius: 300, checkIn: stay.check_in, checkOut: stay.check_out, rooms: [{ adults: 2, children: 1, childAges: [4] }], memberRates: true });
    expect(v2RatesQueryOf(body({ hotel_ids: [3, 4] })).hotelIds).toEqual([3, 4]);
  });

  it('refuses a query with no location or two', () => {
    const both = plainToInstance(V2RatesQuery, { ...v2RatesQueryOf(body({ hotel_ids: [3] })), placeId: 'gn:2988507' });
    expect(validateSync(both).map((error) => error.property)).toEqual(['location']);
    const none = plainToInstance(V2RatesQuery, { ...v2RatesQueryOf(body({ hotel_ids: [3] })), hotelIds: undefined });
    expect(validateSync(none).map((error) => error.property)).toEqual(['location']);
    // The API's body: a null location names nothing, alone or beside another.
    expect(validateSync(plainToInstance(V2RatesBody, { ...stay, place_id: null })).map((error) => error.property)).toEqual(['location']);
    expect(validateSync(plainToInstance(V2RatesBody, { ...stay, coordinates: null, hotel_ids: [1] })).map((error) => error.property)).toEqual(['location']);
    expect(validateSync(plainToInstance(V2RatesBody, { ...stay, hotel_ids: [1] }))).toEqual([]);
  });

  it('echoes the request with the defaults it was answered with, and the metadata with amounts as numbers', () => {
    const sent = body({ place_id: 'gn:2988507', limit: 10, page: 2 });
    const rendered = v2RatesHeadOf(sent, head);
    expect(rendered).toEqual({
      search_completed: false,
      search: { ...stay, place_id: 'gn:2988507', limit: 10, page: 2, nationality: 'US' },
      metadata: { total_hotels: 31, total_pages: 4, max_price_per_night_avg: 1234.5, max_price_inclusive: 0, nights: 3, rooms: 1, center_coordinates: { lat: 48.85, long: 2.35 } },
    });
    // The same bytes as when the search service echoed the body it got over the bus: the fields sent, in their order, then the defaults.
    expect(JSON.stringify(rendered.search)).toBe(JSON.stringify({ ...JSON.parse(JSON.stringify(sent)), nationality: 'US', page: 2, limit: 10 }));
    // A coordinates search says its radius.
    expect(v2RatesHeadOf(body({ coordinates: { lat: 1, long: 2 } }), { ...head, radius: 5000 }).search).toEqual(expect.objectContaining({ radius: 5000, nationality: 'US' }));
  });
});
