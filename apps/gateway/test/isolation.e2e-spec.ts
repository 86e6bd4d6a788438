import { GUEST, bearer, bookV1, hotelRates, prebookV1, prebookV2, queryTestDatabase, staySequence, userToken } from '@hotel/testing';
import { ClientKeys, TestSystem } from './system';

const freshStay = staySequence(250);

/**
 * Sandbox and live are separate worlds, and a user token reaches its own user's
 * sessions, prebooks, bookings and idempotency keys only; the client's keys and
 * backend token reach all of the client's.
 */
describe('isolation of sandbox, live and users', () => {
  let system: TestSystem, acme: ClientKeys;
  let live: { authorization: string };
  let sandbox: { authorization: string };
  let ada: { authorization: string };
  let bob: { authorization: string };

  beforeAll(async () => {
    ({ system, acme, auth: live } = await TestSystem.startWithClient());
    sandbox = bearer(acme.sandbox_api_key);
    ada = bearer((await userToken(system, acme.backend_token)).token);
    bob = bearer((await userToken(system, acme.backend_token)).token);
  });
  afterAll(() => system?.close());

  const sql = <T = any>(text: string, params: unknown[] = []) => queryTestDatabase<T>(system.database.url, text, params);
  const book = (headers: { authorization: string }, body: Record<string, unknown> = {}) => bookV1(system, headers, freshStay(), { body });
  const ids = async (headers: { authorization: string }, query = '') => (await system.request('GET', `/book${query}`, { headers })).body.data.map((b: any) => b.id).sort();

  it('a sandbox key sees, cancels and replays only sandbox bookings; a live key only live ones', async () => {
    const liveBooking = await book(live, { idempotency_key: 'shared-key', client_reference: 'SHARED-REF' });
    const sandboxBooking = await book(sandbox, { idempotency_key: 'shared-key', client_reference: 'SHARED-REF' });
    expect(sandboxBooking.id).not.toBe(liveBooking.id);
    expect(sandboxBooking.is_sandbox).toBe(true);

    expect(await ids(sandbox, `?id=${liveBooking.id}`)).toEqual([]);
    expect(await ids(live, `?id=${sandboxBooking.id}`)).toEqual([]);
    expect(await ids(sandbox)).not.toContain(liveBooking.id);
    expect(await ids(live)).not.toContain(sandboxBooking.id);
    for (const [headers, id] of [[sandbox, liveBooking.id], [live, sandboxBooking.id]] as const) {
      expect((await system.request('GET', `/book/precancel/${id}`, { headers })).status).toBe(404);
      expect((await system.request('POST', `/book/cancel/${id}`, { headers })).status).toBe(404);
    }
    const [row] = await sql(`SELECT status FROM booking.bookings WHERE id = $1`, [liveBooking.id]);
    expect(row.status).toBe('confirmed');
    // The backend token, the client's finance credential, sees both.
    const backend = await system.request('GET', '/api/booking', { headers: { authorization: acme.backend_token } });
    expect(backend.body.data.map((b: any) => b.id)).toEqual(expect.arrayContaining([liveBooking.id, sandboxBooking.id]));
  });

  it('a sandbox booking takes no real allotment', async () => {
    // Every vendor's allotment, as the vendors keep it (at the vendor simulator).
    const sold = async () =>
      (await queryTestDatabase<{ n: number }>(system.vendorDatabase!.url, `SELECT coalesce(sum(rooms_sold), 0)::int AS n FROM vendor_simulator.allotments`))[0].n;
    const before = await sold();
    const booking = await book(sandbox);
    expect(booking.status).toBe('confirmed');
    expect(await sold()).toBe(before);
    expect(await sql(`SELECT sandbox FROM rates.supplier_bookings WHERE booking_id = $1`, [booking.id])).toEqual([{ sandbox: true }]);
    await system.request('POST', `/book/cancel/${booking.id}`, { headers: sandbox });
    expect(await sold()).toBe(before);
  });

  it("a user token reaches only its own user's sessions, prebooks, bookings and idempotency keys", async () => {
    const stay = freshStay();
    const { sessionId, hotelId, rates } = await hotelRates(system, ada, stay);
    // Ada's session is hers.
    expect((await system.request('GET', `/search/${sessionId}`, { headers: bob })).status).toBe(404);
    expect((await system.request('GET', `/hotel/${hotelId}/${sessionId}`, { headers: bob })).status).toBe(404);
    expect((await system.request('GET', `/prebook/${hotelId}/${sessionId}/${rates[0].id}/account`, { headers: bob })).status).toBe(404);
    // Ada's prebook is hers.
    const { prebook } = await prebookV2(system, ada, freshStay());
    const stolen = await system.request('POST', '/v2/book', { headers: bob, json: { ...GUEST, prebook_id: prebook.prebook_id } });
    expect(stolen.status).toBe(400);
    expect(stolen.body.code).toBe('PREBOOK_REQUIRED');
    // Ada's booking and idempotency key are hers.
    const adas = await system.request('POST', '/v2/book', { headers: ada, json: { ...GUEST, prebook_id: prebook.prebook_id, idempotency_key: 'ada-key' } });
    expect(adas.status).toBe(201);
    expect(await ids(bob, `?id=${adas.body.data.id}`)).toEqual([]);
    expect((await system.request('POST', `/book/cancel/${adas.body.data.id}`, { headers: bob })).status).toBe(404);
    const bobs = await book(bob, { idempotency_key: 'ada-key' });
    expect(bobs.id).not.toBe(adas.body.data.id);
    expect(bobs.email).toBe(GUEST.email);
    // The client's live key sees both users' bookings.
    expect(await ids(live)).toEqual(expect.arrayContaining([adas.body.data.id, bobs.id]));
  });

  it("a user token's client_reference is that user's: another user's or the keys' reference is no duplicate, so nothing leaks", async () => {
    const attempt = async (headers: { authorization: string }, body: Record<string, unknown>) => {
      const { path } = await prebookV1(system, headers, freshStay());
      let answer = await system.request('POST', path, { headers, json: { ...GUEST, ...body } });
      // A booking that could not finish in time is 503: a client asks again with the same idempotency key, as documented.
      for (let retry = 0; retry < 5 && answer.status === 503 && body.idempotency_key; retry++) {
        await new Promise((resolve) => setTimeout(resolve, 1000 * Number(answer.headers['retry-after'] ?? 1)));
        answer = await system.request('POST', path, { headers, json: { ...GUEST, ...body } });
      }
      return answer;
    };
    const adas = await book(ada, { client_reference: 'TEAM-REF-1' });
    // Bob learns nothing of Ada's booking: the same reference books for him.
    const bobs = await attempt(bob, { client_reference: 'TEAM-REF-1' });
    expect(bobs.status).toBe(201);
    expect(bobs.body.data.id).not.toBe(adas.id);
    // Among a user's own bookings a reference stays unique, as among the keys'.
    const again = await attempt(ada, { client_reference: 'TEAM-REF-1' });
    expect(again.status).toBe(400);
    expect(again.body).toMatchObject({ code: 'DUPLICATE_CLIENT_REFERENCE', message: 'duplicate client_reference' });
    const keys = await book(live, { client_reference: 'TEAM-REF-1' });
    expect((await attempt(live, { client_reference: 'TEAM-REF-1' })).body.code).toBe('DUPLICATE_CLIENT_REFERENCE');
    // Each user finds their own booking by it; the live key, which sees every user's, all three.
    expect(await ids(ada, '?client_reference=TEAM-REF-1')).toEqual([adas.id]);
    expect(await ids(bob, '?client_reference=TEAM-REF-1')).toEqual([bobs.body.data.id]);
    expect(await ids(live, '?client_reference=TEAM-REF-1')).toEqual([adas.id, bobs.body.data.id, keys.id].sort());

    // One idempotency key and reference for two users: each their own booking, never the other's replay nor an error.
    const [adaFirst, bobFirst] = await Promise.all([
      attempt(ada, { idempotency_key: 'team-key-2', client_reference: 'TEAM-REF-2' }),
      attempt(bob, { idempotency_key: 'team-key-2', client_reference: 'TEAM-REF-2' }),
    ]);
    expect([adaFirst.status, bobFirst.status]).toEqual([201, 201]);
    expect(adaFirst.body.data.id).not.toBe(bobFirst.body.data.id);
  });
});
