import { decodeV2RateId, encodeV2RateId } from '@hotel/inventory';
import { RateIdEnv, loadEnv } from '@hotel/platform';
import { GUEST, TWO_ADULTS, bearer, day, hotelRates, prebookV1, queryTestDatabase, staySequence, userToken, v2Rate } from '@hotel/testing';
import { ClientKeys, TestSystem } from './system';

const STAY = { check_in: day(30), check_out: day(33), rooms: TWO_ADULTS };
/** Each booking its own dates, so bookings never compete for one night's allotment. */
const freshStay = staySequence(60, 2);

/** Prebook, V1 and V2: recheck, funds, promo codes, stored for book. */
describe('prebook', () => {
  let system: TestSystem, acme: ClientKeys, auth: { authorization: string };
  beforeAll(async () => {
    ({ system, acme, auth } = await TestSystem.startWithClient());
    await system.admin('create-promo', '--code', 'TENOFF', '--amount', '10');
  });
  afterAll(() => system?.close());

  it('V1 account: the validated rate, search, hotel and no payment session token', async () => {
    const { sessionId, hotelId, rates } = await hotelRates(system, auth, STAY);
    const rate = rates[0];
    const response = await system.request('GET', `/prebook/${hotelId}/${sessionId}/${rate.id}/account`, { headers: auth });
    expect(response.status).toBe(200);
    const data = response.body.data;
    expect(data).toMatchObject({
      prebook_id: expect.any(String),
      search: { place_id: 'gn:2988507', destination_id: 'city-2988507', coordinates: null, radius: null, check_in: STAY.check_in, check_out: STAY.check_out, rooms: TWO_ADULTS },
      hotel: { id: hotelId },
      nights: 3,
      rooms: TWO_ADULTS,
      is_booking_processing: false,
      booking_id: null,
      payment_session_token: null,
      promo_code_response: null,
      price_changed: false,
      previous_price_chargeable: rate.price_chargeable,
    });
    expect(data.rate).toMatchObject({ id: rate.id, payment_type: 'account', price_chargeable: rate.price_chargeable, rooms: rate.rooms });
    expect(typeof data.remarks).toBe('string');
    const ttl = Date.parse(data.expires_at) - Date.now();
    expect(ttl).toBeGreaterThan(14 * 60_000);
    expect(ttl).toBeLessThanOrEqual(15 * 60_000);
    const [stored] = await queryTestDatabase<{ price_chargeable: string; client_id: number }>(system.database.url, 'SELECT price_chargeable, client_id FROM rates.prebooks WHERE id = $1', [data.prebook_id]);
    expect(stored).toEqual({ price_chargeable: rate.price_chargeable.toFixed(3), client_id: acme.client_id });
  });

  it('V1 credit card: a payment session token and payment_type credit_card', async () => {
    const { sessionId, hotelId, rates } = await hotelRates(system, auth, STAY);
    const response = await system.request('GET', `/prebook/${hotelId}/${sessionId}/${rates[0].id}/credit_card`, { headers: auth });
    expect(response.status).toBe(200);
    expect(response.body.data.payment_session_token).toMatch(/^pst_/);
    expect(response.body.data.rate.payment_type).toBe('credit_card');
  });

  it('applies a valid promo code and reports an invalid one without failing', async () => {
    const { sessionId, hotelId, rates } = await hotelRates(system, auth, STAY);
    const rate = rates[0];
    const valid = await system.request('GET', `/prebook/${hotelId}/${sessionId}/${rate.id}/account?promo_code=TENOFF`, { headers: auth });
    expect(valid.body.data.promo_code_response).toEqual({ success: true, message: expect.any(String), discount_amount: 10 });
    expect(valid.body.data.rate.price_chargeable).toBe(Number((rate.price_chargeable - 10).toFixed(2)));
    const invalid = await system.request('GET', `/prebook/${hotelId}/${sessionId}/${rate.id}/account?promo_code=NOPE`, { headers: auth });
    expect(invalid.status).toBe(200);
    expect(invalid.body.data.promo_code_response).toEqual({ success: false, message: 'unknown promo code', discount_amount: 0 });
    expect(invalid.body.data.rate.price_chargeable).toBe(rate.price_chargeable);
  });

  it('book keeps the discount fixed at prebook: the same code (any case) books, another code or a late one is 400 naming promo_code', async () => {
    const discounted = await prebookV1(system, auth, freshStay(), { query: '?promo_code=TENOFF' });
    const again = await system.request('POST', discounted.path, { headers: auth, json: { ...GUEST, promo_code: 'tenoff' } });
    expect(again.status).toBe(201);
    expect(again.body.data.price_chargeable).toBe(discounted.prebook.rate.price_chargeable);

    const other = await prebookV1(system, auth, freshStay(), { query: '?promo_code=TENOFF' });
    const otherCode = await system.request('POST', other.path, { headers: auth, json: { ...GUEST, promo_code: 'SOMETHINGELSE' } });
    expect(otherCode.status).toBe(400);
    expect(otherCode.body.errors).toEqual([{ field: 'promo_code', message: 'promo_code must be the code applied at prebook (TENOFF)' }]);

    const plain = await prebookV1(system, auth, freshStay());
    const late = await system.request('POST', plain.path, { headers: auth, json: { ...GUEST, promo_code: 'TENOFF' } });
    expect(late.status).toBe(400);
    expect(late.body.errors[0]).toMatchObject({ field: 'promo_code', message: expect.stringContaining('prebook again with promo_code') });
  });

  it('answers 400 insufficient funds for account payment beyond the available funds', async () => {
    const poor = await system.createClient('Poor Travel', '10');
    const { sessionId, hotelId, rates } = await hotelRates(system, bearer(poor.api_key), STAY);
    const account = await system.request('GET', `/prebook/${hotelId}/${sessionId}/${rates[0].id}/account`, { headers: bearer(poor.api_key) });
    expect(account.status).toBe(400);
    expect(account.body).toMatchObject({ data: null, success: false, code: 'INSUFFICIENT_FUNDS', message: 'insufficient funds' });
    // A card pays, so funds do not matter; a sandbox key moves no money.
    expect((await system.request('GET', `/prebook/${hotelId}/${sessionId}/${rates[0].id}/credit_card`, { headers: bearer(poor.api_key) })).status).toBe(200);
  });

  it("answers 400 insufficient funds for a user over their clientAccountLimit", async () => {
    const { token } = await userToken(system, acme.backend_token, { firstName: 'Tim', lastName: 'Tight', email: 'tim@example.com', phone: '1', clientAccountLimit: 50 });
    const { sessionId, hotelId, rates } = await hotelRates(system, bearer(token), STAY);
    const response = await system.request('GET', `/prebook/${hotelId}/${sessionId}/${rates[0].id}/account`, { headers: bearer(token) });
    expect(response.status).toBe(400);
    expect(response.body.code).toBe('INSUFFICIENT_FUNDS');
  });

  it('answers 404 for a rate that does not exist, a sold-out rate, and an expired or foreign session', async () => {
    const { sessionId, hotelId, rates } = await hotelRates(system, auth, STAY);
    const unknown = await system.request('GET', `/prebook/${hotelId}/${sessionId}/7d1f4c8e-0000-4000-8000-000000000000/account`, { headers: auth });
    expect(unknown.status).toBe(404);
    expect(unknown.body).toMatchObject({ code: 'RATE_NOT_AVAILABLE', message: 'rate not available' });

    const rate = rates[0];
    // Every vendor's allotment of the room on the first night used up, at the vendors (the simulator numbers hotels by the platform's ids).
    await queryTestDatabase(
      system.vendorDatabase!.url,
      `INSERT INTO vendor_simulator.allotments (vendor, hotel_code, room_id, night, capacity, rooms_sold) SELECT v, $1, $2, $3, 2, 2 FROM unnest(ARRAY['atlas','borealis','cobalt']) v`,
      [hotelId, rate.rooms[0].room_data.room_id, STAY.check_in],
    );
    const soldOut = await system.request('GET', `/prebook/${hotelId}/${sessionId}/${rate.id}/account`, { headers: auth });
    expect(soldOut.status).toBe(404);
    expect(soldOut.body.code).toBe('RATE_NOT_AVAILABLE');

    const globex = await system.createClient('Globex');
    const foreign = await system.request('GET', `/prebook/${hotelId}/${sessionId}/${rates[1]?.id ?? rate.id}/account`, { headers: bearer(globex.api_key) });
    expect(foreign.status).toBe(404);

    await queryTestDatabase(system.database.url, `UPDATE search.sessions SET last_used_at = now() - interval '2 hours' WHERE id = $1`, [sessionId]);
    const expired = await system.request('GET', `/prebook/${hotelId}/${sessionId}/${rates[1]?.id ?? rate.id}/account`, { headers: auth });
    expect(expired.status).toBe(404);
    expect(expired.body.code).toBe('SESSION_EXPIRED');
  });

  it('reports a changed price with the previous one', async () => {
    // A V2 rate carries the price the vendor answered; the client saw it when the vendor's
    // price was a tenth lower (a rate id signed as search would have issued it then).
    const secret = loadEnv(RateIdEnv, system.env).RATE_ID_SECRET;
    const rate = await v2Rate(system, auth, freshStay());
    const genuine = decodeV2RateId(rate.id, secret, 1800)!;
    const vendorRate = genuine.key.vendorRate!;
    const seen = encodeV2RateId({ ...genuine, key: { ...genuine.key, vendorRate: { ...vendorRate, net: (Number(vendorRate.net) * 0.9).toFixed(3) } } }, secret);
    const response = await system.request('POST', '/v2/prebook', { headers: auth, json: { rate_id: seen, payment_method: 'account' } });
    expect(response.status).toBe(200);
    const changed = response.body.data;
    expect(changed.price_changed).toBe(true);
    // The price now is the vendor's (its CheckRate), what was shown the previous one.
    expect(changed.rate.price_chargeable).toBe(rate.price_chargeable);
    expect(changed.previous_price_chargeable).toBeLessThan(changed.rate.price_chargeable);
  });

  it.each([
    ['a payment method that does not exist', 'cash', null],
    ['a rate id that is not a UUID', 'account', 'not-a-uuid'],
  ])('answers 400 for %s', async (_name, method, rateId) => {
    const { sessionId, hotelId, rates } = await hotelRates(system, auth, STAY);
    const response = await system.request('GET', `/prebook/${hotelId}/${sessionId}/${rateId ?? rates[0].id}/${method}`, { headers: auth });
    expect(response.status).toBe(400);
  });

  describe('POST /v2/prebook', () => {
    it('prebooks a V2 rate id with prebook_id and the same response shape', async () => {
      const rate = await v2Rate(system, auth, STAY);
      const response = await system.request('POST', '/v2/prebook', { headers: auth, json: { rate_id: rate.id, payment_method: 'credit_card', promo_code: 'TENOFF' } });
      expect(response.status).toBe(200);
      expect(response.body.data).toMatchObject({
        prebook_id: expect.stringMatching(/^[0-9a-f-]{36}$/),
        search: { destination_id: null, place_id: null, coordinates: null, check_in: STAY.check_in, rooms: TWO_ADULTS },
        nights: 3,
        payment_session_token: expect.stringMatching(/^pst_/),
        promo_code_response: { success: true, discount_amount: 10 },
        rate: { id: rate.id, payment_type: 'credit_card', price_chargeable: Number((rate.price_chargeable - 10).toFixed(2)) },
      });
    });

    it('answers 404 for a forged rate id and 400 for a bad body', async () => {
      const rate = await v2Rate(system, auth, STAY);
      const forged = await system.request('POST', '/v2/prebook', { headers: auth, json: { rate_id: rate.id.replace(/.$/, rate.id.endsWith('A') ? 'B' : 'A'), payment_method: 'account' } });
      expect(forged.status).toBe(404);
      expect(forged.body.code).toBe('RATE_NOT_AVAILABLE');
      for (const body of [{ payment_method: 'account' }, { rate_id: rate.id }, { rate_id: rate.id, payment_method: 'cash' }, { rate_id: 5, payment_method: 'account' }]) {
        expect((await system.request('POST', '/v2/prebook', { headers: auth, json: body })).status).toBe(400);
      }
    });

    // As if the signing secret had leaked: ids signed with the right secret, carrying a stay no search would accept.
    it.each([
      ['0 nights', (stay: { check_in: string }) => ({ check_out: stay.check_in })],
      ['a check-out before the check-in', () => ({ check_in: day(40), check_out: day(38) })],
      ['a check-in in the past', () => ({ check_in: day(-3), check_out: day(1) })],
      ['31 nights', () => ({ check_in: day(40), check_out: day(71) })],
      ['a check-in beyond 500 days', () => ({ check_in: day(520), check_out: day(522) })],
    ])('refuses a correctly signed rate id with %s (404, nothing prebooked)', async (_what, change) => {
      const secret = loadEnv(RateIdEnv, system.env).RATE_ID_SECRET;
      const rate = await v2Rate(system, auth, STAY);
      const genuine = decodeV2RateId(rate.id, secret, 1800);
      expect(genuine).not.toBeNull();
      const forged = encodeV2RateId({ ...genuine!, stay: { ...genuine!.stay, ...change(genuine!.stay) } }, secret);
      const response = await system.request('POST', '/v2/prebook', { headers: auth, json: { rate_id: forged, payment_method: 'account' } });
      expect(response.status).toBe(404);
      expect(response.body).toMatchObject({ success: false, code: 'RATE_NOT_AVAILABLE' });
    });

    it('refuses a correctly signed rate id issued in the future', async () => {
      const secret = loadEnv(RateIdEnv, system.env).RATE_ID_SECRET;
      const genuine = decodeV2RateId((await v2Rate(system, auth, STAY)).id, secret, 1800)!;
      const forged = encodeV2RateId({ ...genuine, issuedAt: new Date(Date.now() + 10 * 365 * 86_400_000) }, secret);
      const response = await system.request('POST', '/v2/prebook', { headers: auth, json: { rate_id: forged, payment_method: 'account' } });
      expect(response.status).toBe(404);
    });
  });
});
