import { TWO_ADULTS, bearer, completedSearch, day, queryTestDatabase, repeatWhileUnavailable } from '@hotel/testing';
import { TestSystem } from './system';

const PARIS = { lat: 48.85341, long: 2.3488 };

/** POST /v2/rates: one call, every rate, no session. */
describe('V2 rates', () => {
  let system: TestSystem, auth: { authorization: string };
  let parisHotelIds: number[];

  beforeAll(async () => {
    // A country's 2,000 hotels priced on a cold cache take seconds on a loaded 2-core machine:
    // more than the tests' usual 3 s call timeout, which is not what these tests are about. The
    // vendors (the simulator, in this process) price them too, so they get as long to answer.
    ({ system, auth } = await TestSystem.startWithClient({ RPC_TIMEOUT_MS: '10000', V2_DEADLINE_MS: '8000' }));
    const all = await v2({ place_id: 'gn:2988507' });
    parisHotelIds = [...new Set<number>(all.body.rates.map((rate: any) => rate.hotel_id))];
  });
  afterAll(() => system?.close());

  function v2(body: Record<string, unknown>, headers = auth) {
    return system.request('POST', '/v2/rates', { headers, json: { check_in: day(40), check_out: day(42), rooms: TWO_ADULTS, ...body } });
  }

  const hotelsOf = (rates: any[]) => [...new Set(rates.map((rate) => rate.hotel_id))];

  it('answers the V2RatesSearchResponse without an envelope', async () => {
    const response = await v2({ destination_id: 'city-2988507' });
    expect(response.status).toBe(200);
    expect(Object.keys(response.body).sort()).toEqual(['metadata', 'rates', 'search', 'search_completed']);
    expect(response.body.search_completed).toBe(true);
    expect(response.body.search).toMatchObject({ destination_id: 'city-2988507', nationality: 'US', check_in: day(40), rooms: TWO_ADULTS });
    const { metadata, rates } = response.body;
    expect(metadata).toEqual({
      total_hotels: hotelsOf(rates).length,
      total_pages: 1,
      max_price_per_night_avg: Math.max(...rates.map((rate: any) => rate.price_per_night_avg)),
      max_price_inclusive: Math.max(...rates.map((rate: any) => rate.price_inclusive)),
      nights: 2,
      rooms: 1,
      center_coordinates: PARIS,
    });
    for (const rate of rates) {
      expect(typeof rate.id).toBe('string');
      expect(rate.rooms[0].room_data).toMatchObject({ room_id: expect.any(Number), beds: expect.any(Array), size_sqm: expect.any(Number) });
      expect(rate.price_per_night).toHaveLength(2);
    }
    expect(new Set(rates.map((rate: any) => rate.id)).size).toBe(rates.length);
  });

  it('searches by place_id, coordinates with a radius, and hotel_ids', async () => {
    const byPlace = await v2({ place_id: 'gn:2988507' });
    expect(byPlace.body.rates.length).toBeGreaterThan(0);

    const near = await v2({ coordinates: PARIS, radius: 2000 });
    expect(near.status).toBe(200);
    expect(near.body.search.radius).toBe(2000);
    const wide = await v2({ coordinates: PARIS });
    expect(wide.body.search.radius).toBe(5000);
    expect(hotelsOf(wide.body.rates).length).toBeGreaterThanOrEqual(hotelsOf(near.body.rates).length);

    const ids = parisHotelIds.slice(0, 3);
    const byIds = await v2({ hotel_ids: ids });
    expect(hotelsOf(byIds.body.rates).every((id) => ids.includes(id as number))).toBe(true);
    expect(byIds.body.search.limit).toBe(3);
  });

  it('takes 2000 hotel ids in one page, and refuses 2001', async () => {
    const ids = Array.from({ length: 2000 }, (_, i) => parisHotelIds[i % parisHotelIds.length] + 0 * i);
    const response = await v2({ hotel_ids: ids });
    expect(response.status).toBe(200);
    expect(response.body.metadata.total_pages).toBeLessThanOrEqual(1);
    const tooMany = await v2({ hotel_ids: Array.from({ length: 2001 }, (_, i) => i + 1) });
    expect(tooMany.status).toBe(400);
    expect(tooMany.body.errors.map((error: any) => error.field)).toContain('hotel_ids');
  });

  it('answers a large page (a country) in chunks, streamed into one valid response', async () => {
    // A country on a cold cache: two CI runs on a slow machine met 503 with Retry-After (the
    // search outlived the call), which a partner repeats (V2 rates are safe to repeat) and
    // which warms the vendors' answers. An answer other than 200 is shown with its message.
    const response = await repeatWhileUnavailable(() => v2({ place_id: 'cc:FR', limit: 2000 }));
    expect({ status: response.status, message: response.body?.message }).toEqual({ status: 200, message: undefined });
    expect(response.text.length).toBeGreaterThan(1024 * 1024);
    expect(response.body.metadata.total_hotels).toBeGreaterThan(500);
    expect(hotelsOf(response.body.rates).length).toBe(response.body.metadata.total_hotels);
    // Every rate once, none lost or repeated where the chunks were joined.
    expect(new Set(response.body.rates.map((rate: { id: string }) => rate.id)).size).toBe(response.body.rates.length);
    // Streamed as the chunks arrive (chunked transfer), not gathered first.
    expect(response.headers['transfer-encoding']).toBe('chunked');
    expect(response.headers['content-length']).toBeUndefined();
  });

  it('answers an empty rates array when nothing matches', async () => {
    const response = await v2({ place_id: 'gn:2988507', filters: { price_range: [0, 1] } });
    expect(response.status).toBe(200);
    expect(response.body.rates).toEqual([]);
    expect(response.body.metadata.total_hotels).toBe(0);
  });

  it.each([
    ['no location', {}],
    ['two locations', { place_id: 'gn:2988507', hotel_ids: [1] }],
    ['an unknown sort_by', { place_id: 'gn:2988507', filters: { sort_by: 'cheapest' } }],
    ['an unknown room_type', { place_id: 'gn:2988507', filters: { room_type: 'penthouse' } }],
    ['a bad price_range', { place_id: 'gn:2988507', filters: { price_range: [300, 100] } }],
    ['a star rating of 6', { place_id: 'gn:2988507', filters: { star_rating: [6] } }],
    ['a radius over 50 km', { coordinates: PARIS, radius: 50001 }],
    ['a latitude of 91', { coordinates: { lat: 91, long: 0 } }],
    ['a lowercase nationality', { place_id: 'gn:2988507', nationality: 'us' }],
    ['limit 0', { place_id: 'gn:2988507', limit: 0 }],
    ['limit 2001', { place_id: 'gn:2988507', limit: 2001 }],
    ['nine rooms', { place_id: 'gn:2988507', rooms: Array.from({ length: 9 }, () => TWO_ADULTS[0]) }],
    ['an unknown place', { place_id: 'gn:1' }],
    ['a null location', { place_id: null }],
    ['a null location beside another', { coordinates: null, hotel_ids: [1] }],
  ])('answers 400 for %s', async (_name, body) => {
    const response = await v2(body);
    expect(response.status).toBe(400);
    expect(response.body).toMatchObject({ data: null, success: false, code: 'VALIDATION_FAILED' });
    // Named in the API's words, never the search service's (placeId, query.location).
    for (const error of response.body.errors) expect(error.field).not.toMatch(/placeId|query|hotelIds/);
  });

  describe('filters and sorting', () => {
    const base = { coordinates: PARIS, radius: 20000, limit: 2000 };

    it('price_range keeps rates whose nightly average lies within it', async () => {
      const all = (await v2(base)).body.rates.map((rate: any) => rate.price_per_night_avg).sort((a: number, b: number) => a - b);
      const [min, max] = [all[Math.floor(all.length / 4)], all[Math.floor((all.length * 3) / 4)]];
      const response = await v2({ ...base, filters: { price_range: [min, max] } });
      expect(response.body.rates.length).toBeGreaterThan(0);
      expect(response.body.rates.length).toBeLessThan(all.length);
      for (const rate of response.body.rates) expect(rate.price_per_night_avg >= min && rate.price_per_night_avg <= max).toBe(true);
    });

    it('star_rating, property_types and amenities keep matching hotels only', async () => {
      const withStars = await v2({ ...base, filters: { star_rating: [4] } });
      const ids = hotelsOf(withStars.body.rates);
      expect(ids.length).toBeGreaterThan(0);
      for (const id of ids) {
        const hotel = await hotelDetails(id as number);
        expect(Math.floor(hotel.stars)).toBe(4);
      }
      const hostels = await v2({ ...base, filters: { property_types: ['resort', 'hostel'], amenities: ['wifi'] } });
      for (const id of hotelsOf(hostels.body.rates)) {
        const hotel = await hotelDetails(id as number);
        expect(['resort', 'hostel']).toContain(hotel.type);
        expect(hotel.amenities).toContain('wifi');
      }
    });

    it('room_type keeps rates of that kind of room', async () => {
      const response = await v2({ ...base, filters: { room_type: 'twin' } });
      expect(response.body.rates.length).toBeGreaterThan(0);
      // Named as the vendor names its rooms (TWIN STANDARD).
      for (const rate of response.body.rates) expect(rate.rooms[0].name).toMatch(/\btwin\b/i);
    });

    it.each([
      ['price_asc', (a: any, b: any) => a.lowest <= b.lowest],
      ['price_desc', (a: any, b: any) => a.lowest >= b.lowest],
      ['stars_desc', (a: any, b: any) => a.hotel.stars >= b.hotel.stars],
      ['rating_desc', (a: any, b: any) => a.hotel.rating >= b.hotel.rating],
      ['distance_asc', (a: any, b: any) => a.distance <= b.distance],
    ])('sort_by %s orders hotels', async (sort_by, inOrder) => {
      const response = await v2({ ...base, radius: 4000, filters: { sort_by } });
      const order = hotelsOf(response.body.rates) as number[];
      const hotels = [];
      for (const id of order) {
        const rates = response.body.rates.filter((rate: any) => rate.hotel_id === id);
        const hotel = await hotelDetails(id);
        const distance = Math.hypot(hotel.coordinates.lat - PARIS.lat, (hotel.coordinates.long - PARIS.long) * Math.cos((PARIS.lat * Math.PI) / 180));
        hotels.push({ hotel, lowest: Math.min(...rates.map((rate: any) => rate.price_chargeable)), distance });
      }
      expect(hotels.length).toBeGreaterThan(2);
      for (let i = 1; i < hotels.length; i++) expect(inOrder(hotels[i - 1], hotels[i])).toBe(true);
    });

    it('pages through hotels with page and limit', async () => {
      const first = await v2({ ...base, limit: 5, page: 1 });
      const second = await v2({ ...base, limit: 5, page: 2 });
      expect(first.body.metadata.total_pages).toBe(Math.ceil(first.body.metadata.total_hotels / 5));
      expect(hotelsOf(first.body.rates)).toHaveLength(5);
      expect(hotelsOf(second.body.rates).some((id) => hotelsOf(first.body.rates).includes(id))).toBe(false);
      const beyond = await v2({ ...base, limit: 5, page: 10_000 });
      expect(beyond.body.rates).toEqual([]);
      expect(beyond.body.metadata.total_hotels).toBe(first.body.metadata.total_hotels);
    });

    it('search_loyalty_rates: false leaves out member rates', async () => {
      const withLoyalty = await v2({ ...base, radius: 30000 });
      expect(withLoyalty.body.rates.some((rate: any) => rate.brand_loyalty_required)).toBe(true);
      const without = await v2({ ...base, radius: 30000, search_loyalty_rates: false });
      expect(without.body.rates.some((rate: any) => rate.brand_loyalty_required)).toBe(false);
    });
  });

  it('prices a hotel the same in V1 search, V1 hotel rates and V2', async () => {
    const stay = { check_in: day(40), check_out: day(42), rooms: TWO_ADULTS };
    const session = await system.request('POST', '/search', { headers: auth, json: { place_id: 'gn:2988507', ...stay } });
    const hotelId = parisHotelIds[0];
    let v1: any;
    for (let i = 0; i < 60; i++) {
      v1 = await system.request('GET', `/hotel/${hotelId}/${session.body.data.session_id}`, { headers: auth });
      if (v1.body.data.search_completed) break;
      await new Promise((resolve) => setTimeout(resolve, 100));
    }
    const v2Rates = (await v2({ hotel_ids: [hotelId] })).body.rates;
    const shape = (rate: any) => `${rate.rooms[0].name}|${rate.rooms[0].board}|${rate.cancellation_policy}|${rate.brand_loyalty_required}|${rate.price_chargeable}`;
    expect(v1.body.data.rates.map(shape).sort()).toEqual(v2Rates.map(shape).sort());
  });

  it('a sold-out room type disappears once its allotment is used', async () => {
    // The vendors keep their allotments (at the vendor simulator), and V2 keeps what they
    // answered for the rest of a price step: the room is seen before in V1's hotel view (the
    // vendors are asked each time), after in a V2 answer for the same stay, not asked before.
    const stay = { check_in: day(60), check_out: day(62), rooms: TWO_ADULTS };
    const hotelId = parisHotelIds[0];
    const { sessionId } = await completedSearch(system, auth, { place_id: 'gn:2988507', ...stay });
    const hotelRates = async () => (await system.request('GET', `/hotel/${hotelId}/${sessionId}`, { headers: auth })).body.data.rates;
    const before = await hotelRates();
    const victim = before[0];
    const roomId = victim.rooms[0].room_data.room_id;
    const sameRoom = (rate: any) => rate.hotel_id === hotelId && rate.rooms[0].room_data.room_id === roomId;
    const vendorsOfRoom = before.filter(sameRoom).length;
    expect(vendorsOfRoom).toBeGreaterThan(0);
    // Use up the allotment of that room type at every vendor for the second night (the simulator numbers hotels by the platform's ids).
    for (const vendor of ['atlas', 'borealis', 'cobalt']) {
      await queryTestDatabase(
        system.vendorDatabase!.url,
        `INSERT INTO vendor_simulator.allotments (vendor, hotel_code, room_id, night, capacity, rooms_sold) VALUES ($1, $2, $3, $4, 3, 3)`,
        [vendor, hotelId, roomId, day(61)],
      );
    }
    const after = (await v2({ hotel_ids: [hotelId], check_in: stay.check_in, check_out: stay.check_out })).body.rates;
    expect(after.filter(sameRoom)).toEqual([]);
    expect(after.length).toBe(before.length - vendorsOfRoom);
    expect((await hotelRates()).filter(sameRoom)).toEqual([]);
    // Other dates are unaffected.
    const otherDates = await v2({ hotel_ids: [hotelId], check_in: day(70), check_out: day(72) });
    expect(otherDates.body.rates.some(sameRoom)).toBe(true);
  });

  it('reports search_completed: false when a vendor misses the deadline', async () => {
    const slow = await TestSystem.start({ VENDOR_LATENCY_MS: 'atlas=5,borealis=5,cobalt=5000', V2_DEADLINE_MS: '300' }, ['users', 'search', 'rates']);
    try {
      const key = (await slow.createClient('Slow')).api_key;
      const started = Date.now();
      const response = await slow.request('POST', '/v2/rates', {
        headers: bearer(key),
        json: { place_id: 'gn:2988507', check_in: day(40), check_out: day(42), rooms: TWO_ADULTS },
      });
      expect(Date.now() - started).toBeLessThan(3000);
      expect(response.body.search_completed).toBe(false);
      expect(response.body.rates.length).toBeGreaterThan(0);
      expect(response.body.rates.every((rate: any) => rate.payment_type !== 'credit_card')).toBe(true);
    } finally {
      await slow.close();
    }
  });

  async function hotelDetails(hotelId: number) {
    const { hotelById, toHotelDetails } = await import('@hotel/inventory');
    return toHotelDetails(hotelById(hotelId)!);
  }
});
