import { CARD, GUEST, bearer, hotelRates, repeatWhileUnavailable, sleep, staySequence } from '@hotel/testing';
import { ClientKeys, TestSystem } from './system';

const freshStay = staySequence(30);

/** Sandbox test scenarios forced with X-Test-Scenario; live keys ignore the header. */
describe('sandbox test scenarios', () => {
  let system: TestSystem, acme: ClientKeys;
  let sandbox: { authorization: string };

  beforeAll(async () => {
    // A saga lease far longer than the supplier's pending time: a pending booking is asked about at
    // its own cadence (SUPPLIER_CHECK_S), not when a lease runs out.
    ({ system, acme } = await TestSystem.startWithClient({ SUPPLIER_PENDING_S: '2', SUPPLIER_CHECK_S: '1', SAGA_LEASE_S: '60', RECOVERY_INTERVAL_MS: '300' }));
    sandbox = bearer(acme.sandbox_api_key);
  });
  afterAll(() => system?.close());

  /** A fresh rate's `hotelId/sessionId/rateId`, for a prebook and book path. */
  async function rate(headers: Record<string, string>) {
    const { sessionId, hotelId, rates } = await hotelRates(system, headers, freshStay());
    return `${hotelId}/${sessionId}/${rates[0].id}`;
  }

  const withScenario = (headers: Record<string, string>, scenario: string) => ({ ...headers, 'x-test-scenario': scenario });

  it('price_changed: prebook reports a changed price; a live key ignores the header', async () => {
    const path = await rate(sandbox);
    const changed = await system.request('GET', `/prebook/${path}/account`, { headers: withScenario(sandbox, 'price_changed') });
    expect(changed.status).toBe(200);
    expect(changed.body.data.price_changed).toBe(true);
    expect(changed.body.data.previous_price_chargeable).toBeLessThan(changed.body.data.rate.price_chargeable);
    const live = bearer(acme.api_key);
    const livePath = await rate(live);
    const ignored = await system.request('GET', `/prebook/${livePath}/account`, { headers: withScenario(live, 'sold_out') });
    expect(ignored.status).toBe(200);
  });

  it('sold_out: prebook answers 404', async () => {
    const path = await rate(sandbox);
    const response = await system.request('GET', `/prebook/${path}/account`, { headers: withScenario(sandbox, 'sold_out') });
    expect(response.status).toBe(404);
    expect(response.body.code).toBe('RATE_NOT_AVAILABLE');
  });

  it('supplier_pending: the booking is pending, then confirmed by the supplier later', async () => {
    const path = await rate(sandbox);
    await system.request('GET', `/prebook/${path}/account`, { headers: sandbox });
    const response = await system.request('POST', `/book/${path}/account`, { headers: withScenario(sandbox, 'supplier_pending'), json: { ...GUEST, client_reference: 'PENDING-1' } });
    expect(response.status).toBe(201);
    expect(response.body.data).toMatchObject({ status: 'pending', voucher_url: null, is_sandbox: true });
    // While it is under way, prebooking the same rate says so.
    const again = await system.request('GET', `/prebook/${path}/account`, { headers: sandbox });
    expect(again.body.data).toMatchObject({ is_booking_processing: true, booking_id: response.body.data.id });
    // Confirmed by the supplier 2 s after it accepted; asked every second: confirmed well before the 60 s lease.
    const accepted = Date.now();
    let status = 'pending';
    for (let i = 0; i < 100 && status === 'pending'; i++) {
      await sleep(200);
      status = (await system.request('GET', '/book?client_reference=PENDING-1', { headers: sandbox })).body.data[0].status;
    }
    expect(status).toBe('confirmed');
    expect(Date.now() - accepted).toBeLessThan(15_000);
    const after = await system.request('GET', `/prebook/${path}/account`, { headers: sandbox });
    expect(after.body.data).toMatchObject({ is_booking_processing: false, booking_id: null });
  });

  it('supplier_error: the booking fails with 400 and is listed as failed', async () => {
    const path = await rate(sandbox);
    await system.request('GET', `/prebook/${path}/account`, { headers: sandbox });
    const response = await system.request('POST', `/book/${path}/account`, { headers: withScenario(sandbox, 'supplier_error'), json: { ...GUEST, client_reference: 'ERROR-1' } });
    expect(response.status).toBe(400);
    expect(response.body.code).toBe('SUPPLIER_ERROR');
    const listed = await system.request('GET', '/book?client_reference=ERROR-1', { headers: sandbox });
    expect(listed.body.data[0]).toMatchObject({ status: 'failed', failure_reason: expect.stringMatching(/supplier/) });
  });

  it('card_declined: a card booking answers 400', async () => {
    const path = await rate(sandbox);
    await system.request('GET', `/prebook/${path}/credit_card`, { headers: sandbox });
    const response = await system.request('POST', `/book/${path}/credit_card`, { headers: withScenario(sandbox, 'card_declined'), json: { ...GUEST, ...CARD } });
    expect(response.status).toBe(400);
    expect(response.body.code).toBe('PAYMENT_DECLINED');
  });

  it('an unknown scenario is 400 with a sandbox key; a live key ignores the header whatever its value', async () => {
    const path = await rate(sandbox);
    const response = await system.request('GET', `/prebook/${path}/account`, { headers: withScenario(sandbox, 'meteor_strike') });
    expect(response.status).toBe(400);
    expect(response.body.errors[0].field).toBe('X-Test-Scenario');
    const live = bearer(acme.api_key);
    const livePath = await rate(live);
    // (A prebook slower than the call's timeout on a loaded machine, as a CI run met, answers 503 with Retry-After: repeated, as a partner would.)
    const liveResponse = await repeatWhileUnavailable(() => system.request('GET', `/prebook/${livePath}/account`, { headers: withScenario(live, 'meteor_strike') }));
    expect(liveResponse.status).toBe(200);
  });
});
