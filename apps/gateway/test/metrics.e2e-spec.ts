import { SERVICE_NAMES, SUBJECTS, ServiceName } from '@hotel/contracts';
import { GUEST, TWO_ADULTS, day, prebookV1 } from '@hotel/testing';
import { sample } from './metrics-text';
import { TestSystem } from './system';

const BOOK_ROUTE = '/book/:hotel_id/:session_id/:rate_id/:payment_method';

/** Prometheus metrics of every app (deploy/README.md), scraped after a booking and failed requests. */
describe('metrics', () => {
  let system: TestSystem;
  let auth: { authorization: string };
  const scrapes = new Map<string, { before: string; after: string }>();
  const scrape = async (url: string) => (await fetch(url)).text();
  const serviceUrl = (name: ServiceName) => `${system.replicas.get(name)![0].probeUrl}/metrics`;

  beforeAll(async () => {
    let acme: { backend_token: string };
    ({ system, auth, acme } = await TestSystem.startWithClient());
    const urls: [string, string][] = [['gateway', system.gateway.metricsUrl], ...SERVICE_NAMES.map((name): [string, string] => [name, serviceUrl(name)])];
    const before = new Map(await Promise.all(urls.map(async ([app, url]) => [app, await scrape(url)] as const)));
    // One booking, and requests that fail: an unknown booking (404 from the booking
    // service), an unknown promo code (400 from promo), a redemption promo refuses.
    const { path } = await prebookV1(system, auth, { check_in: day(50), check_out: day(52), rooms: TWO_ADULTS });
    expect((await system.request('POST', path, { headers: auth, json: GUEST })).status).toBe(201);
    expect((await system.request('GET', '/book/precancel/987654', { headers: auth })).status).toBe(404);
    expect((await system.request('GET', '/api/webhook', { headers: { authorization: acme.backend_token } })).status).toBe(200);
    expect((await system.request('POST', '/book/promocode', { headers: auth, json: { code: 'NOPE', booking_amount: 100 } })).status).toBe(400);
    const booking = await system.busClient('booking');
    await expect(booking.send(SUBJECTS.PROMO_CODE_REDEEM, { code: 'NOPE', amount: '100.00', currency: 'USD', clientId: 1, bookingId: 1, sandbox: false })).rejects.toMatchObject({ code: 'PROMO_CODE_INVALID' });
    for (const [app, url] of urls) scrapes.set(app, { before: before.get(app)!, after: await scrape(url) });
  });
  afterAll(() => system?.close());

  const moved = (app: string, name: string, labels: Record<string, string>) => {
    const { before, after } = scrapes.get(app)!;
    return sample(after, name, labels) - sample(before, name, labels);
  };

  it('the gateway counts HTTP requests by method, route template and status, with their durations, on its own port', () => {
    const { after } = scrapes.get('gateway')!;
    expect(system.gateway.metricsUrl).not.toContain(new URL(system.gateway.url).port);
    const book = { method: 'POST', route: BOOK_ROUTE, status: '201', app: 'gateway' };
    expect(moved('gateway', 'hotel_http_request_duration_seconds_count', book)).toBe(1);
    expect(moved('gateway', 'hotel_http_request_duration_seconds_bucket', { ...book, le: '+Inf' })).toBe(1);
    expect(moved('gateway', 'hotel_http_request_duration_seconds_sum', book)).toBeGreaterThan(0);
    expect(moved('gateway', 'hotel_http_request_duration_seconds_count', { method: 'GET', route: '/book/precancel/:booking_id', status: '404' })).toBe(1);
    expect(moved('gateway', 'hotel_http_request_duration_seconds_count', { method: 'POST', route: '/book/promocode', status: '400' })).toBe(1);
    // Route templates only: no raw path (ids) becomes a label value.
    expect(after).not.toContain('987654');
    // What it sent over NATS, with the services' answers as the outcome.
    expect(moved('gateway', 'hotel_rpc_sent_duration_seconds_count', { subject: SUBJECTS.BOOKING_BOOKING_CREATE, code: 'OK' })).toBe(1);
    expect(moved('gateway', 'hotel_rpc_sent_duration_seconds_count', { subject: SUBJECTS.BOOKING_BOOKING_PRECANCEL, code: 'NOT_FOUND' })).toBe(1);
    expect(sample(after, 'hotel_nats_connected', { app: 'gateway' })).toBe(1);
    expect(sample(after, 'process_cpu_user_seconds_total', { app: 'gateway' })).toBeGreaterThan(0);
  });

  it.each(SERVICE_NAMES)('%s serves its metrics on its health port: requests handled, its pool, its connections', (name) => {
    const { after } = scrapes.get(name)!;
    expect(sample(after, 'hotel_db_up', { app: name })).toBe(1);
    expect(sample(after, 'hotel_db_pool_connections', { app: name, state: 'total' })).toBeGreaterThanOrEqual(1);
    expect(after).toMatch(new RegExp(`^hotel_db_pool_connections\\{state="waiting",app="${name}"\\} \\d+$`, 'm'));
    expect(sample(after, 'hotel_nats_connected', { app: name })).toBe(1);
    expect(sample(after, 'nodejs_heap_size_used_bytes', { app: name })).toBeGreaterThan(0);
    expect(moved(name, 'hotel_rpc_handled_duration_seconds_count', { app: name })).toBeGreaterThan(0);
  });

  it('services record each request they handle by subject and outcome code, and what they send', () => {
    expect(moved('booking', 'hotel_rpc_handled_duration_seconds_count', { subject: SUBJECTS.BOOKING_BOOKING_CREATE, code: 'OK' })).toBe(1);
    expect(moved('booking', 'hotel_rpc_handled_duration_seconds_count', { subject: SUBJECTS.BOOKING_BOOKING_PRECANCEL, code: 'NOT_FOUND' })).toBe(1);
    expect(moved('booking', 'hotel_rpc_handled_duration_seconds_bucket', { subject: SUBJECTS.BOOKING_BOOKING_CREATE, code: 'OK', le: '+Inf' })).toBe(1);
    expect(moved('promo', 'hotel_rpc_handled_duration_seconds_count', { subject: SUBJECTS.PROMO_CODE_QUOTE, code: 'PROMO_CODE_INVALID' })).toBe(1);
    expect(moved('rates', 'hotel_rpc_handled_duration_seconds_count', { subject: SUBJECTS.RATES_PREBOOK_CREATE, code: 'OK' })).toBe(1);
    // The saga's calls: the supplier booking through rates.
    expect(moved('booking', 'hotel_rpc_sent_duration_seconds_count', { subject: SUBJECTS.RATES_SUPPLIER_BOOK, code: 'OK' })).toBe(1);
  });

  it('business figures: bookings by status and their value, sagas against their lease, holds, promo redemptions', () => {
    const { after } = scrapes.get('booking')!;
    expect(moved('booking', 'hotel_bookings_total', { status: 'confirmed', world: 'live' })).toBe(1);
    expect(moved('booking', 'hotel_booking_value_total', { status: 'confirmed', currency: 'USD', world: 'live' })).toBeGreaterThan(0);
    expect(moved('booking', 'hotel_booking_value_total', { world: 'sandbox' })).toBe(0);
    // SAGA_LEASE_S's default.
    expect(sample(after, 'hotel_saga_lease_seconds')).toBe(15);
    expect(sample(after, 'hotel_saga_overdue_seconds')).toBe(0);
    expect(sample(scrapes.get('accounting')!.after, 'hotel_holds_open', { app: 'accounting' })).toBe(0);
    expect(moved('promo', 'hotel_promo_redemptions_total', { outcome: 'rejected', world: 'live' })).toBe(1);
  });
});
