import { Actor, ClientPricing, RoomRequest, SUBJECTS, SearchProgress, StaySearch, hotelRatesAnswer, rateOf, toMilli } from '@hotel/contracts';
import { findPlace, hotelById, hotelsForPlace, toHotelDetails } from '@hotel/inventory';
import { TEST_FX_RATES, refusalOf } from '@hotel/testing';
import { startSearchHarness } from '../../test/search-fixtures';
import { V2RatesService } from '../v2/v2-rates.service';
import { SessionsService } from './sessions.service';

// Service tier: the search service's V1 sessions and V2 rates with its real repositories on a
// fresh PostgreSQL database, its vendors at a vendor simulator over HTTP, and the rates
// service (exchange rates) a fake answering by subject.

const PARIS = findPlace('gn:2988507')!;
const DAY_MS = 86_400_000;
const day = (offset: number) => new Date(Date.now() + offset * DAY_MS).toISOString().slice(0, 10);
const ROOMS: RoomRequest[] = [{ adults: 2, children: 0, children_ages: [] }];
const STAY = { check_in: day(45), check_out: day(47), rooms: ROOMS };
const PARIS_STAY: StaySearch = { placeId: PARIS.placeId, checkIn: STAY.check_in, checkOut: STAY.check_out, rooms: [{ adults: 2, children: 0, childAges: [] }] };
const client = (clientId: number): Actor => ({ clientId, userId: null, role: 'api', sandbox: false });
const userOf = (clientId: number, userId: number): Actor => ({ clientId, userId, role: 'user', sandbox: false });
const USD: ClientPricing = { currency: 'USD', fxMarginPercent: '0' };

describe('search sessions and V2 rates (service tier: real PostgreSQL, vendors over HTTP, fake rates service)', () => {
  let harness: Awaited<ReturnType<typeof startSearchHarness>>;
  let sessions: SessionsService;
  let v2: V2RatesService;

  /** Polls until the vendors have all answered (or the search's window passed). */
  async function completed(actor: Actor, sessionId: string): Promise<SearchProgress> {
    for (let attempt = 0; attempt < 200; attempt++) {
      const data = await sessions.poll(actor, sessionId);
      if (data.completed) return data;
      await new Promise((resolve) => setTimeout(resolve, 50));
    }
    throw new Error(`session ${sessionId} never completed`);
  }

  beforeAll(async () => {
    harness = await startSearchHarness({ env: { VENDOR_LATENCY_MS: 'atlas=0,borealis=5,cobalt=10' } });
    harness.client.on(SUBJECTS.RATES_FX_RATES_GET, () => ({ sets: [{ date: day(0), rates: TEST_FX_RATES, source: 'snapshot', importedAt: new Date().toISOString() }] }));
    sessions = harness.get(SessionsService);
    v2 = harness.get(V2RatesService);
  });

  afterAll(async () => {
    await harness?.close();
  });

  it("gathers each hotel's lowest offer of every vendor into the session, in the client's currency, and answers every poll the same once complete", async () => {
    const started = await sessions.create(client(1), USD, PARIS_STAY);
    expect(started.sessionId).toMatch(/^[0-9a-f-]{36}$/);
    const done = await completed(client(1), started.sessionId);
    expect(done.hotels.length).toBeGreaterThan(5);
    for (const hotel of done.hotels) {
      expect(hotel.lowestRate.currency).toBe('USD');
      // A decimal string in the currency's decimals.
      expect(hotel.lowestRate.amount).toMatch(/^\d+\.\d{2}$/);
      expect(Number(hotel.lowestRate.amount)).toBeGreaterThan(0);
    }
    const amounts = done.hotels.map((hotel) => Number(hotel.lowestRate.amount));
    expect(amounts).toEqual([...amounts].sort((a, b) => a - b));
    // Every hotel is one the place covers, each once.
    const covered = new Set(hotelsForPlace(PARIS.placeId)!.map((hotel) => hotel.id));
    const ids = done.hotels.map((hotel) => hotel.id);
    expect(ids.every((id) => covered.has(id))).toBe(true);
    expect(new Set(ids).size).toBe(ids.length);
    // Derived from what is stored: the same answer on every poll.
    expect(await sessions.poll(client(1), started.sessionId)).toEqual(done);
    const stored = await harness.dataSource.query(`SELECT count(*)::int AS n FROM search.sessions WHERE id = $1 AND client_id = 1`, [started.sessionId]);
    expect(stored).toEqual([{ n: 1 }]);
  });

  it("keeps a session to its client, and a user token's session to its user", async () => {
    const { sessionId } = await sessions.create(userOf(3, 30), USD, PARIS_STAY);
    expect((await refusalOf(sessions.poll(client(4), sessionId)))?.code).toBe('NOT_FOUND');
    expect((await refusalOf(sessions.poll(userOf(3, 31), sessionId)))?.code).toBe('NOT_FOUND');
    // The client's own keys reach every session of the client.
    expect((await sessions.poll(client(3), sessionId)).sessionId).toBe(sessionId);
    expect((await sessions.poll(userOf(3, 30), sessionId)).sessionId).toBe(sessionId);
  });

  it('answers SESSION_EXPIRED for a session idle past its lifetime', async () => {
    const { sessionId } = await sessions.create(client(5), USD, PARIS_STAY);
    await harness.dataSource.query(`UPDATE search.sessions SET last_used_at = now() - make_interval(secs => $2) WHERE id = $1`, [sessionId, harness.env.SESSION_TTL_S + 5]);
    expect((await refusalOf(sessions.poll(client(5), sessionId)))?.code).toBe('SESSION_EXPIRED');
  });

  it('refuses a place it does not know as invalid, naming the field', async () => {
    const error = await refusalOf(sessions.create(client(1), USD, { ...PARIS_STAY, placeId: 'gn:1' }));
    expect(error?.code).toBe('VALIDATION_FAILED');
    expect(error?.errors?.[0].field).toBe('placeId');
  });

  it("answers a hotel's rates of every vendor, cheapest first, and resolves a rate id of the session to its offer", async () => {
    const { sessionId: session_id } = await sessions.create(client(6), USD, PARIS_STAY);
    const { hotels } = await completed(client(6), session_id);
    const hotelId = hotels[0].id;
    const { hotel, rates, completed: done } = await sessions.hotelRates(client(6), session_id, hotelId);
    // In the search service's words: the hotel's profile, and amounts as decimal strings in the session's currency.
    expect(hotel).toMatchObject({ id: hotelId, reviewCount: expect.any(Number), address: { street: expect.any(String) } });
    expect(done).toBe(true);
    expect(rates.length).toBeGreaterThan(0);
    for (const rate of rates) expect(rate).toMatchObject({ hotelId, currency: 'USD', prices: { chargeable: expect.stringMatching(/^\d+(\.\d{1,3})?$/) } });
    const prices = rates.map((rate) => toMilli(rate.prices.chargeable));
    expect(prices).toEqual([...prices].sort((a, b) => a - b));
    // The API's answer the gateway renders: the same rates, the hotel's lowest derived from them.
    const answer = hotelRatesAnswer({ hotel, rates, completed: done });
    expect(answer.rates.map(rateOf)).toEqual(rates);
    expect(answer.hotel).toEqual({ ...toHotelDetails(hotelById(hotelId)!), lowest_rate: answer.rates[0], lowest_brand_loyalty_rate: answer.rates.find((rate) => rate.brand_loyalty_eligible) ?? null });
    const resolved = await sessions.resolveRate(client(6), session_id, hotelId, rates[0].id);
    expect(resolved.key.hotelId).toBe(hotelId);
    expect(resolved.pricing).toEqual(USD);
    expect(resolved.search.check_in).toBe(STAY.check_in);
    expect((await refusalOf(sessions.resolveRate(client(6), session_id, hotelId, `${rates[0].id}x`)))?.code).toBe('RATE_NOT_AVAILABLE');
    // A hotel the search does not cover is not in the session.
    const outside = (await refusalOf(sessions.hotelRates(client(6), session_id, 987_654_321)))?.code;
    expect(outside).toBe('NOT_FOUND');
  });

  it('answers V2 rates for hotel ids at once, every rate with an id and a price in the currency asked for', async () => {
    const ids = hotelsForPlace(PARIS.placeId)!.slice(0, 10).map((hotel) => hotel.id);
    const query = { hotelIds: ids, checkIn: PARIS_STAY.checkIn, checkOut: PARIS_STAY.checkOut, rooms: PARIS_STAY.rooms, memberRates: true };
    const { head, rates } = await v2.search(query, { currency: 'EUR', fxMarginPercent: '0' });
    expect(rates.length).toBeGreaterThan(0);
    const parsed = rates.map((rate) => JSON.parse(rate.json.toString('utf8')) as { id: string; hotel_id: number; price_currency: string; price_chargeable: number; price_per_night_avg: number });
    for (const rate of parsed) {
      expect(ids).toContain(rate.hotel_id);
      expect(rate.price_currency).toBe('EUR');
      expect(rate.id.length).toBeGreaterThan(20);
    }
    expect(new Set(parsed.map((rate) => rate.id)).size).toBe(parsed.length);
    expect(head).toEqual(expect.objectContaining({ completed: true, page: 1, limit: ids.length, nights: 2, rooms: 1 }));
    expect(head.totalHotels).toBe(new Set(parsed.map((rate) => rate.hotel_id)).size);
    // Amounts as decimal strings: the highest average night of the answer.
    expect(head.maxPricePerNightAvg).toMatch(/^\d+\.\d{2,3}$/);
    expect(Number(head.maxPricePerNightAvg)).toBe(Math.max(...parsed.map((rate) => rate.price_per_night_avg)));
    expect(head.radius).toBeUndefined();
  });
});
