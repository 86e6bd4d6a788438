import { TWO_ADULTS, bearer, completedSearch, day, queryTestDatabase, sleep } from '@hotel/testing';
import { TestSystem } from './system';

const PARIS = 'gn:2988507';
const UUID = /^[0-9a-f]{8}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{12}$/;

/** Places, V1 search with polling, one hotel's rates, and the validation limits. */
describe('places and V1 search', () => {
  let system: TestSystem, auth: { authorization: string };
  // Vendors of different speeds: atlas answers at once, borealis after 0.6 s, cobalt after 1.2 s.
  beforeAll(async () => ({ system, auth } = await TestSystem.startWithClient({ VENDOR_LATENCY_MS: 'atlas=0,borealis=600,cobalt=1200' })));
  afterAll(() => system?.close());

  const searchBody = (body: Record<string, unknown> = {}) => ({ place_id: PARIS, check_in: day(20), check_out: day(23), rooms: TWO_ADULTS, ...body });
  const newSearch = (body: Record<string, unknown> = {}) => system.request('POST', '/search', { headers: auth, json: searchBody(body) });
  /** A search polled until every vendor answered (the vendors are called over HTTP: the first answer has none of their rates yet). */
  const answeredSearch = (body: Record<string, unknown> = {}) => completedSearch(system, auth, searchBody(body));
  /** Each result as the API shows it, lowest first. */
  const expectResults = (results: any[]) => {
    for (const result of results) {
      expect(result).toEqual({
        hotel: {
          id: expect.any(Number),
          name: expect.any(String),
          stars: expect.any(Number),
          lowest_rate: { id: expect.stringMatching(UUID), price_chargeable: expect.any(Number), price_currency: 'USD' },
        },
      });
    }
    const prices = results.map((result: any) => result.hotel.lowest_rate.price_chargeable);
    expect(prices).toEqual([...prices].sort((a, b) => a - b));
  };

  describe('GET /places/search', () => {
    it('finds places case and accent insensitively, by prefix, with address and types', async () => {
      const response = await system.request('GET', '/places/search?text_query=SAO%20PAU', { headers: auth });
      expect(response.status).toBe(200);
      expect(response.body.success).toBe(true);
      expect(response.body.data.results[0]).toEqual({
        place_id: 'gn:3448439',
        destination_id: 'city-3448439',
        display_name: 'São Paulo',
        formatted_address: 'São Paulo, Brazil',
        types: ['locality', 'political'],
      });
      const country = await system.request('GET', '/places/search?text_query=france', { headers: auth });
      expect(country.body.data.results[0]).toMatchObject({ place_id: 'cc:FR', types: ['country', 'political'] });
      const region = await system.request('GET', '/places/search?text_query=lyon&limit=1', { headers: auth });
      expect(region.body.data.results).toEqual([expect.objectContaining({ display_name: 'Lyon', formatted_address: 'Lyon, Auvergne-Rhône-Alpes, France' })]);
    });

    it.each(['', '?text_query=', '?text_query=%20%20', '?text_query=a&limit=0', '?text_query=a&limit=500', '?text_query=a&other=1'])(
      'answers 400 for %p',
      async (query) => {
        const response = await system.request('GET', `/places/search${query}`, { headers: auth });
        expect(response.status).toBe(400);
        expect(response.body).toMatchObject({ success: false, code: 'VALIDATION_FAILED' });
      },
    );

    it('needs a credential', async () => {
      expect((await system.request('GET', '/places/search?text_query=paris')).status).toBe(401);
    });
  });

  describe('POST /search and polling', () => {
    it('answers at once, gathers vendors as they answer, and completes', async () => {
      const created = await newSearch();
      expect(created.status).toBe(200);
      const { session_id, search_completed, results } = created.body.data;
      expect(session_id).toMatch(UUID);
      expect(search_completed).toBe(false);
      const firstCount = results.length;
      expectResults(results);

      let polled = created;
      const seen = [firstCount];
      for (let i = 0; i < 40 && !polled.body.data.search_completed; i++) {
        await sleep(150);
        polled = await system.request('GET', `/search/${session_id}`, { headers: auth });
        expectResults(polled.body.data.results);
        seen.push(polled.body.data.results.length);
      }
      expect(polled.body.data.search_completed).toBe(true);
      expect(polled.body.data.results.length).toBeGreaterThan(0);
      // More vendors, more hotels (or cheaper rates): never fewer results.
      expect(seen[seen.length - 1]).toBeGreaterThanOrEqual(firstCount);
      expect(seen).toEqual([...seen].sort((a, b) => a - b));
      // The POST form of polling answers the same.
      const viaPost = await system.request('POST', '/search', { headers: auth, json: { session_id } });
      expect(viaPost.body.data).toEqual(polled.body.data);
    });

    it('accepts a destination_id for the same place', async () => {
      const response = await newSearch({ place_id: undefined, destination_id: 'city-2988507' });
      expect(response.status).toBe(200);
      expect(response.body.data.session_id).toMatch(UUID);
    });

    it('searches a whole country', async () => {
      const { results } = await answeredSearch({ place_id: 'cc:PT' });
      expect(results.length).toBeGreaterThan(20);
    });

    it('answers 400 for an unknown place and 404 for an unknown session', async () => {
      const unknown = await newSearch({ place_id: 'gn:1' });
      expect(unknown.status).toBe(400);
      expect(unknown.body.errors).toEqual([{ field: 'place_id', message: 'place_id names no known place; find one with GET /places/search' }]);
      // The field the partner sent is the one named.
      const unknownDestination = await newSearch({ place_id: undefined, destination_id: 'city-1' });
      expect(unknownDestination.status).toBe(400);
      expect(unknownDestination.body.errors).toEqual([{ field: 'destination_id', message: 'destination_id names no known place; find one with GET /places/search' }]);
      const missing = await system.request('GET', '/search/7d1f4c8e-0000-4000-8000-000000000000', { headers: auth });
      expect(missing.status).toBe(404);
      expect(missing.body.code).toBe('NOT_FOUND');
    });

    it("hides another client's session (404)", async () => {
      const created = await newSearch();
      const globex = await system.createClient('Globex');
      const response = await system.request('GET', `/search/${created.body.data.session_id}`, { headers: bearer(globex.api_key) });
      expect(response.status).toBe(404);
    });

    it('expires a session 30 minutes after its last use', async () => {
      const { sessionId: id, results } = await answeredSearch();
      await queryTestDatabase(system.database.url, `UPDATE search.sessions SET last_used_at = now() - interval '31 minutes' WHERE id = $1`, [id]);
      for (const path of [`/search/${id}`, `/hotel/${results[0].hotel.id}/${id}`]) {
        const response = await system.request('GET', path, { headers: auth });
        expect(response.status).toBe(404);
        expect(response.body).toMatchObject({ code: 'SESSION_EXPIRED', message: expect.stringMatching(/session expired/) });
      }
    });

    it('serves a session from another replica of the search service', async () => {
      // The vendors' answers are recorded with the session by the replica that asked them.
      const answered = await answeredSearch();
      const [first] = system.replicas.get('search')!;
      await system.startReplica('search');
      await first.close();
      system.replicas.set('search', system.replicas.get('search')!.slice(1));
      const polled = await system.request('GET', `/search/${answered.sessionId}`, { headers: auth });
      expect(polled.status).toBe(200);
      expect(polled.body.data.session_id).toBe(answered.sessionId);
      expect(polled.body.data.search_completed).toBe(true);
      expect(polled.body.data.results).toEqual(answered.results);
    });
  });

  describe('GET /hotel/{hotel_id}/{session_id}', () => {
    it('returns the hotel with every rate, polled until complete, with stable ids', async () => {
      const { sessionId: id, results } = await answeredSearch();
      const hotelId = results[0].hotel.id;
      let response = await system.request('GET', `/hotel/${hotelId}/${id}`, { headers: auth });
      expect(response.status).toBe(200);
      // One hotel's rates wait for the vendors (at most V2_DEADLINE_MS): the slowest, cobalt, answers within it.
      expect(response.body.data.search_completed).toBe(true);
      for (let i = 0; i < 40 && !response.body.data.search_completed; i++) {
        await sleep(100);
        response = await system.request('GET', `/hotel/${hotelId}/${id}`, { headers: auth });
      }
      const { hotel, rates, search_completed } = response.body.data;
      expect(search_completed).toBe(true);
      expect(hotel).toMatchObject({ id: hotelId, name: expect.any(String), stars: expect.any(Number), amenities: expect.any(Array) });
      for (const field of ['rating', 'review_count', 'minimum_age', 'check_in_begin_time', 'check_in_end_time', 'check_out_before_time', 'description', 'images', 'coordinates', 'address', 'type', 'exclusive']) {
        expect(hotel).toHaveProperty(field);
      }
      expect(rates.length).toBeGreaterThan(0);
      const ids = rates.map((rate: any) => rate.id);
      expect(new Set(ids).size).toBe(ids.length);
      for (const rate of rates) {
        expect(rate.id).toMatch(UUID);
        expect(rate.hotel_id).toBe(hotelId);
        expect(rate.rooms[0]).toMatchObject({ name: expect.any(String), board: expect.stringMatching(/^(RO|BB|HB|FB|AI)$/) });
        expect(['Refundable', 'NonRefundable']).toContain(rate.cancellation_policy);
        expect(rate.price_currency).toBe('USD');
      }
      // The search's lowest rate is one of the hotel's rates, with the same id and price.
      const lowest = results[0].hotel.lowest_rate;
      expect(rates).toEqual(expect.arrayContaining([expect.objectContaining({ id: lowest.id, price_chargeable: lowest.price_chargeable })]));
      const again = await system.request('GET', `/hotel/${hotelId}/${id}`, { headers: auth });
      expect(again.body.data.rates.map((rate: any) => rate.id)).toEqual(ids);
    });

    it('answers 404 for a hotel outside the search and 400 for a bad id', async () => {
      const created = await newSearch();
      const id = created.body.data.session_id;
      expect((await system.request('GET', `/hotel/344843901/${id}`, { headers: auth })).status).toBe(404);
      expect((await system.request('GET', `/hotel/abc/${id}`, { headers: auth })).status).toBe(400);
      expect((await system.request('GET', `/hotel/298850701/not-a-uuid`, { headers: auth })).status).toBe(400);
    });
  });

  describe('validation limits (400 naming the field)', () => {
    const room = (overrides: Record<string, unknown>) => [{ adults: 2, children: 0, children_ages: [], ...overrides }];
    const cases: [string, Record<string, unknown>, string][] = [
      ['no rooms', { rooms: [] }, 'rooms'],
      ['nine rooms', { rooms: Array.from({ length: 9 }, () => TWO_ADULTS[0]) }, 'rooms'],
      ['no adults', { rooms: room({ adults: 0 }) }, 'rooms.0.adults'],
      ['fifteen adults', { rooms: room({ adults: 15 }) }, 'rooms.0.adults'],
      ['seven children', { rooms: room({ children: 7, children_ages: [1, 2, 3, 4, 5, 6, 7] }) }, 'rooms.0.children'],
      ['a child of 18', { rooms: room({ children: 1, children_ages: [18] }) }, 'rooms.0.children_ages'],
      ['ages not matching children', { rooms: room({ children: 2, children_ages: [5] }) }, 'rooms.0.children_ages'],
      ['a fractional adult', { rooms: room({ adults: 1.5 }) }, 'rooms.0.adults'],
      ['check-in in the past', { check_in: day(-1), check_out: day(2) }, 'check_in'],
      ['check-out before check-in', { check_in: day(10), check_out: day(9) }, 'check_out'],
      ['check-out on check-in', { check_in: day(10), check_out: day(10) }, 'check_out'],
      ['31 nights', { check_in: day(10), check_out: day(41) }, 'check_out'],
      ['a date that does not exist', { check_in: '2027-02-30', check_out: '2027-03-02' }, 'check_in'],
      ['a date in another format', { check_in: '01/03/2027' }, 'check_in'],
      ['no place', { place_id: undefined }, 'place_id'],
      ['a malformed place_id', { place_id: 'paris' }, 'place_id'],
      ['session_id with search fields', { session_id: '7d1f4c8e-0000-4000-8000-000000000000' }, 'session_id'],
    ];
    it.each(cases)('%s', async (_name, overrides, field) => {
      const response = await newSearch(overrides);
      expect(response.status).toBe(400);
      expect(response.body.code).toBe('VALIDATION_FAILED');
      expect(response.body.errors.map((error: { field: string }) => error.field)).toContain(field);
    });

    it('accepts the largest valid stay', async () => {
      const rooms = Array.from({ length: 8 }, () => ({ adults: 1, children: 6, children_ages: [0, 3, 6, 9, 12, 17] }));
      const response = await newSearch({ check_in: day(0), check_out: day(30), rooms });
      expect(response.status).toBe(200);
    });
  });
});
