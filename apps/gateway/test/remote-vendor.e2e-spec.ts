import { GUEST, TestDatabase, bearer, createTestDatabase, queryTestDatabase, staySequence } from '@hotel/testing';
import { IMPORTED_HOTEL_ID_BASE, decodeV2RateId, findPlace } from '@hotel/inventory';
import { vendorHotelCodes } from '../../vendor-simulator/src/content/content-hotels';
import { hotelIdOfCode } from '../../vendor-simulator/src/inventory/vendor-codes';
import { VENDORS } from '../../vendor-simulator/src/inventory/vendors';
import type { RunningSimulator } from '../../vendor-simulator/src/start-simulator';
import { sample } from './metrics-text';
import { ClientKeys, TestSystem } from './system';

const RATE_ID_SECRET = 'remote-vendor-test-rate-id-secret';
const freshStay = staySequence(120);
/** The vendor numbers its hotels its own way: the platform learns its codes from the content import alone. */
const CODE_OFFSET = 700_000_000;
const PARIS = 2988507;

/**
 * The platform with a remote vendor: `hotelbeds` switched on by HOTELBEDS_API_KEY and pointed
 * at the vendor simulator (its atlas inventory) over HTTP, beside the built-in vendors. The
 * vendor numbers its hotels its own way and has hotels the platform's catalog lacks: the
 * platform imports its content at start (a few destinations) and matches them. Its rates are
 * searched, prebooked (CheckRate), booked under the platform's client reference and
 * cancelled at the vendor; a slow or failing vendor leaves the search incomplete with the
 * other vendors' rates.
 */
describe('a remote vendor over the Hotelbeds protocol', () => {
  let simulatorDatabase: TestDatabase;
  let simulator: RunningSimulator;
  let system: TestSystem;
  let acme: ClientKeys;
  let auth: { authorization: string };
  /** Platform ids of the vendor's first hotels that the platform's catalog has too. */
  let hotelIds: number[];
  /** The destinations imported: the cities of those hotels, and Paris. */
  let destinations: number[];

  beforeAll(async () => {
    simulatorDatabase = await createTestDatabase();
    // A module registry of its own: the simulator keeps its hotel codes in module state,
    // and the platform's built-in vendors are at another simulator (TestSystem's) that numbers them as the platform does.
    await jest.isolateModulesAsync(async () => {
      const { loadEnv } = await import('@hotel/platform');
      const { SimulatorEnv } = await import('../../vendor-simulator/src/simulator.env');
      const { startSimulator } = await import('../../vendor-simulator/src/start-simulator');
      simulator = await startSimulator(
        loadEnv(SimulatorEnv, {
          DATABASE_URL: simulatorDatabase.url,
          PORT: '0',
          VENDOR_LATENCY_MS: 'atlas=0,borealis=0,cobalt=0',
          LOG_LEVEL: 'fatal',
          SIMULATOR_HOTEL_CODE_OFFSET: String(CODE_OFFSET),
          SIMULATOR_VENDOR_ONLY_HOTELS: 'true',
        }),
      );
    });
    hotelIds = vendorHotelCodes(VENDORS.atlas)
      .map(hotelIdOfCode)
      .filter((id) => id % 100 !== 0)
      .slice(0, 30);
    destinations = [...new Set([...hotelIds.map((id) => Math.floor(id / 100)), PARIS])];
    ({ system, acme, auth } = await TestSystem.startWithClient({
      HOTELBEDS_API_KEY: 'development-atlas-api-key',
      HOTELBEDS_SECRET: 'development-atlas-secret',
      HOTELBEDS_BASE_URL: `${simulator.url}/atlas`,
      CONTENT_IMPORT_DESTINATIONS: destinations.join(','),
      RATE_ID_SECRET,
      V2_DEADLINE_MS: '1500',
      // A V1 search is complete after 4 s whatever the vendors do.
      SEARCH_TIMEOUT_MS: '4000',
    }));
    // The import at start runs in the background: the vendor is asked about no hotel before it ends.
    const deadline = Date.now() + 60_000;
    while (!(await sql(`SELECT 1 FROM search.content_imports WHERE status = 'completed'`)).length) {
      if (Date.now() > deadline) throw new Error(`the content import did not complete: ${JSON.stringify(await sql('SELECT * FROM search.content_imports'))}`);
      await new Promise((resolve) => setTimeout(resolve, 200));
    }
  });

  const sql = (text: string, params: unknown[] = []) => queryTestDatabase(system.database.url, text, params);

  afterAll(async () => {
    await system?.close();
    await simulator?.close();
    await simulatorDatabase?.drop();
  });

  const vendorOf = (rate: { id: string }) => decodeV2RateId(rate.id, RATE_ID_SECRET, 3600)!.key.vendor;
  const v2Rates = (stay: object, headers = auth) => system.request('POST', '/v2/rates', { headers, json: { hotel_ids: hotelIds, ...stay } });
  const vendorBookings = (clientReference: string) =>
    queryTestDatabase<{ reference: string; status: string }>(simulatorDatabase.url, 'SELECT reference, status FROM vendor_simulator.bookings WHERE client_reference = $1', [clientReference]);
  const setFaults = (faults: object) =>
    fetch(`${simulator.url}/_simulator/faults`, { method: 'POST', headers: { 'content-type': 'application/json' }, body: JSON.stringify(faults) });

  it("searches the vendor's rates beside the built-in ones; one is prebooked, booked under the platform's reference and cancelled at the vendor", async () => {
    const stay = freshStay();
    const rates = await v2Rates(stay);
    expect(rates.status).toBe(200);
    expect(rates.body.search_completed).toBe(true);
    const remote = rates.body.rates.filter((rate: { id: string }) => vendorOf(rate) === 'hotelbeds');
    expect(remote.length).toBeGreaterThan(0);
    expect(rates.body.rates.some((rate: { id: string }) => vendorOf(rate) !== 'hotelbeds')).toBe(true);
    const rate = remote.find((candidate: { cancellation_policy: string }) => candidate.cancellation_policy === 'Refundable');
    // Converted from the vendor's euros into the client's dollars.
    expect(rate.price_currency).toBe('USD');

    const prebook = await system.request('POST', '/v2/prebook', { headers: auth, json: { rate_id: rate.id, payment_method: 'account' } });
    expect(prebook.status).toBe(200);
    expect(prebook.body.data).toMatchObject({ price_changed: false, rate: { price_chargeable: rate.price_chargeable, price_currency: 'USD' } });

    const booked = await system.request('POST', '/v2/book', { headers: auth, json: { ...GUEST, prebook_id: prebook.body.data.prebook_id } });
    expect(booked.status).toBe(201);
    const booking = booked.body.data;
    expect(booking.status).toBe('confirmed');
    const [vendorReference] = booking.booking_reference;
    expect(vendorReference).toMatch(/^101-\d+$/);
    expect(await vendorBookings(`HB${booking.id}`)).toEqual([{ reference: vendorReference, status: 'CONFIRMED' }]);
    expect(await sql('SELECT vendor, reference, status FROM rates.supplier_bookings WHERE booking_id = $1', [booking.id])).toEqual([
      { vendor: 'hotelbeds', reference: vendorReference, status: 'confirmed' },
    ]);
    // The vendor keeps its own allotment: the platform took nothing from its table.
    expect(await sql(`SELECT * FROM rates.allotments WHERE vendor = 'hotelbeds'`)).toEqual([]);

    const cancelled = await system.request('POST', `/book/cancel/${booking.id}`, { headers: auth });
    expect(cancelled.status).toBe(200);
    expect(await vendorBookings(`HB${booking.id}`)).toEqual([{ reference: vendorReference, status: 'CANCELLED' }]);
    // Months ahead the vendor charged nothing for cancelling: all of it comes back.
    expect(await sql('SELECT cancellation_charge, cancellation_currency FROM rates.supplier_bookings WHERE booking_id = $1', [booking.id])).toEqual([
      { cancellation_charge: '0.000', cancellation_currency: 'EUR' },
    ]);
    const [settled] = await sql('SELECT cancellation_penalty, price_chargeable FROM booking.bookings WHERE id = $1', [booking.id]);
    expect(Number(settled.cancellation_penalty)).toBe(0);
    expect(await sql(`SELECT credit FROM accounting.entries WHERE booking_id = $1 AND kind = 'booking_refund'`, [booking.id])).toEqual([{ credit: settled.price_chargeable }]);
  });

  it("imported the vendor's content at start: its codes matched to the platform's hotels of the same name and place, its other hotels added", async () => {
    const [run] = await sql(`SELECT * FROM search.content_imports ORDER BY id LIMIT 1`);
    expect(run).toMatchObject({ vendor: 'hotelbeds', trigger: 'start', status: 'completed', updated_since: null, known: 0, matched_by_giata: 0, skipped: 0, error: null });
    const codes = (await sql(`SELECT code, hotel_id, matched_by FROM search.vendor_hotel_codes WHERE vendor = 'hotelbeds'`)) as { code: string; hotel_id: number; matched_by: string }[];
    expect(codes.length).toBe(run.hotels);
    // Each destination's hotel only the vendor has (number 0 of the city) is a new platform hotel; every other is the platform's own.
    const created = codes.filter((row) => row.matched_by === 'new');
    expect(created.map((row) => Math.floor((Number(row.code) - CODE_OFFSET) / 100)).sort()).toEqual([...destinations].sort());
    for (const row of created) expect(row.hotel_id).toBeGreaterThanOrEqual(IMPORTED_HOTEL_ID_BASE);
    for (const row of codes.filter((candidate) => candidate.matched_by !== 'new')) {
      expect(row).toMatchObject({ matched_by: 'name_and_distance', hotel_id: Number(row.code) - CODE_OFFSET });
    }
    expect(run).toMatchObject({ matched_by_name: codes.length - destinations.length, created: destinations.length });
    expect(await sql(`SELECT count(*)::int AS hotels FROM search.catalog_hotels`)).toEqual([{ hotels: destinations.length }]);
  });

  it("a hotel only the vendor has is found by its city with the vendor's content, and booked; a hotel both have is one hotel with both vendors' rates", async () => {
    const [annex] = (await sql(`SELECT c.hotel_id, h.name FROM search.vendor_hotel_codes c JOIN search.catalog_hotels h ON h.id = c.hotel_id WHERE c.code = $1`, [PARIS * 100 + CODE_OFFSET])) as { hotel_id: number; name: string }[];
    expect(annex.name).toMatch(/ Annex$/);
    const stay = freshStay();
    const rates = await system.request('POST', '/v2/rates', { headers: auth, json: { place_id: `gn:${PARIS}`, ...stay, limit: 200 } });
    expect(rates.status).toBe(200);
    const byHotel = new Map<number, Set<string>>();
    for (const rate of rates.body.rates as { id: string; hotel_id: number }[]) byHotel.set(rate.hotel_id, (byHotel.get(rate.hotel_id) ?? new Set()).add(vendorOf(rate)));
    expect([...(byHotel.get(annex.hotel_id) ?? [])]).toEqual(['hotelbeds']);
    expect([...byHotel.values()].some((vendors) => vendors.has('hotelbeds') && vendors.size > 1)).toBe(true);

    const rate = (rates.body.rates as { id: string; hotel_id: number; cancellation_policy: string }[]).find((candidate) => candidate.hotel_id === annex.hotel_id && candidate.cancellation_policy === 'Refundable')!;
    const prebook = await system.request('POST', '/v2/prebook', { headers: auth, json: { rate_id: rate.id, payment_method: 'account' } });
    expect(prebook.status).toBe(200);
    // The rates service has the hotel from the catalog: the vendor's content.
    expect(prebook.body.data.hotel).toMatchObject({ id: annex.hotel_id, name: annex.name, rating: 0 });
    expect(prebook.body.data.hotel.images[0]).toMatch(/^https:\/\/photos\.hotelbeds\.com\/giata\//);
    const booked = await system.request('POST', '/v2/book', { headers: auth, json: { ...GUEST, prebook_id: prebook.body.data.prebook_id } });
    expect(booked.status).toBe(201);
    expect(booked.body.data).toMatchObject({ status: 'confirmed', hotel_id: annex.hotel_id });
    const [vendorBooking] = await queryTestDatabase<{ hotel_code: string }>(simulatorDatabase.url, `SELECT hotel_code FROM vendor_simulator.bookings WHERE client_reference = $1`, [`HB${booked.body.data.id}`]);
    expect(Number(vendorBooking.hotel_code)).toBe(PARIS * 100 + CODE_OFFSET);

    // V1: the session of the city shows it, and its page the vendor's content.
    const created = await system.request('POST', '/search', { headers: auth, json: { place_id: `gn:${PARIS}`, ...freshStay() } });
    const completed = await pollUntilCompleted(created.body.data.session_id);
    expect(completed.results.map((result: { hotel: { id: number } }) => result.hotel.id)).toContain(annex.hotel_id);
    const page = await system.request('GET', `/hotel/${annex.hotel_id}/${created.body.data.session_id}`, { headers: auth });
    expect(page.status).toBe(200);
    expect(page.body.data.hotel).toMatchObject({ id: annex.hotel_id, name: annex.name, address: { city: findPlace(`gn:${PARIS}`)!.name } });
    expect(page.body.data.rates.length).toBeGreaterThan(0);
  });

  it('import-content imports again now: every code known, nothing new; a vendor without content is a usage error', async () => {
    const before = await sql(`SELECT count(*)::int AS codes FROM search.vendor_hotel_codes`);
    const run = await system.admin('import-content', '--full');
    expect(run.code).toBe(0);
    expect(run.json.reports).toEqual([
      expect.objectContaining({ vendor: 'hotelbeds', trigger: 'command', status: 'completed', updated_since: null, known: before[0].codes, hotels: before[0].codes, created: 0, matched_by_name: 0 }),
    ]);
    expect(await sql(`SELECT count(*)::int AS codes FROM search.vendor_hotel_codes`)).toEqual(before);
    // Without --full only what the vendor changed since the day before the last import: its content is older.
    const since = await system.admin('import-content', '--vendor', 'hotelbeds');
    expect(since.json.reports[0]).toMatchObject({ status: 'completed', hotels: 0 });
    expect(since.json.reports[0].updated_since).toMatch(/^\d{4}-\d{2}-\d{2}$/);
    const unknown = await system.admin('import-content', '--vendor', 'atlas');
    expect(unknown).toMatchObject({ code: 2, stdout: '' });
    expect(unknown.stderr).toContain('vendor atlas has no content to import; these have: hotelbeds');
  });

  it("the refund follows what the vendor charged for cancelling, converted as the booking was, whatever the rate's policy said", async () => {
    const rates = await v2Rates(freshStay());
    const rate = rates.body.rates.find((candidate: { id: string; cancellation_policy: string }) => vendorOf(candidate) === 'hotelbeds' && candidate.cancellation_policy === 'NonRefundable');
    const prebook = await system.request('POST', '/v2/prebook', { headers: auth, json: { rate_id: rate.id, payment_method: 'account' } });
    const booked = await system.request('POST', '/v2/book', { headers: auth, json: { ...GUEST, prebook_id: prebook.body.data.prebook_id } });
    expect(booked.status).toBe(201);
    const { id, price_chargeable } = booked.body.data;
    // The platform's copy of the policy says free; the vendor (non-refundable) charges it all.
    await sql(`UPDATE booking.bookings SET rate = jsonb_set(rate, '{cancellation_policy_data}', '[]') WHERE id = $1`, [id]);
    const cancelled = await system.request('POST', `/book/cancel/${id}`, { headers: auth });
    expect(cancelled.status).toBe(200);
    const [charge] = await sql('SELECT cancellation_charge, cancellation_currency FROM rates.supplier_bookings WHERE booking_id = $1', [id]);
    const [{ vendor_price }] = await sql('SELECT vendor_price FROM booking.bookings WHERE id = $1', [id]);
    expect(charge).toEqual({ cancellation_charge: vendor_price, cancellation_currency: 'EUR' });
    const [settled] = await sql('SELECT status, cancellation_penalty FROM booking.bookings WHERE id = $1', [id]);
    expect(settled.status).toBe('cancelled');
    expect(Number(settled.cancellation_penalty)).toBe(price_chargeable);
    expect(await sql(`SELECT credit FROM accounting.entries WHERE booking_id = $1 AND kind = 'booking_refund'`, [id])).toEqual([]);
  });

  it("a sandbox key books nothing at the vendor: its prebook only searches, its booking goes to the vendor simulator's sandbox desk", async () => {
    const sandbox = bearer(acme.sandbox_api_key);
    const rates = await v2Rates(freshStay(), sandbox);
    const rate = rates.body.rates.find((candidate: { id: string }) => vendorOf(candidate) === 'hotelbeds');
    const prebook = await system.request('POST', '/v2/prebook', { headers: sandbox, json: { rate_id: rate.id, payment_method: 'account' } });
    expect(prebook.status).toBe(200);
    const booked = await system.request('POST', '/v2/book', { headers: sandbox, json: { ...GUEST, prebook_id: prebook.body.data.prebook_id } });
    expect(booked.status).toBe(201);
    expect(booked.body.data.status).toBe('confirmed');
    // The desk's office is 900 (the platform's simulator, VENDOR_SIMULATOR_URL, is there beside the vendor).
    expect(booked.body.data.booking_reference[0]).toMatch(/^900-\d+$/);
    expect(await vendorBookings(`HB${booked.body.data.id}`)).toEqual([]);
  });

  it.each([
    ['slower than the deadline', { latencyMs: 2500 }],
    ['answering 500', { serverErrorShare: 1 }],
    ['answering what is not JSON', { malformedShare: 1 }],
    ['whose answer trickles past the deadline', { trickleShare: 1, trickleChunkBytes: 64, trickleIntervalMs: 200 }],
    ['answering 429 with Retry-After', { throttleShare: 1, throttleStatus: 429, retryAfterSeconds: 1 }],
  ])('a vendor %s: search_completed false, with the other vendors\' rates', async (_, knobs) => {
    expect((await setFaults({ atlas: { ...knobs, operations: ['availability'] } })).status).toBe(200);
    try {
      const rates = await v2Rates(freshStay());
      expect(rates.status).toBe(200);
      expect(rates.body.search_completed).toBe(false);
      expect(rates.body.rates.length).toBeGreaterThan(0);
      expect(rates.body.rates.filter((rate: { id: string }) => vendorOf(rate) === 'hotelbeds')).toEqual([]);
    } finally {
      await setFaults({ atlas: {} });
    }
  });

  it('V1: the vendor is asked in the background and its answer kept for every poll; a lapsed ask is asked again', async () => {
    await setFaults({ atlas: { latencyMs: 1500, operations: ['availability'] } });
    try {
      const created = await system.request('POST', '/search', { headers: auth, json: { place_id: 'gn:2988507', ...freshStay() } });
      expect(created.status).toBe(200);
      const sessionId = created.body.data.session_id;
      // The built-in vendors (at the platform's simulator) answer at once; the slow one is still being asked.
      expect(created.body.data.search_completed).toBe(false);
      let first = created;
      for (let poll = 0; poll < 20 && first.body.data.results.length === 0; poll++) {
        await new Promise((resolve) => setTimeout(resolve, 50));
        first = await system.request('GET', `/search/${sessionId}`, { headers: auth });
      }
      expect(first.body.data.results.length).toBeGreaterThan(0);
      expect(first.body.data.search_completed).toBe(false);
      const polls = await Promise.all(Array.from({ length: 4 }, () => system.request('GET', `/search/${sessionId}`, { headers: auth })));
      expect(polls.map((poll) => poll.body.data.search_completed)).toEqual([false, false, false, false]);
      const answered = await pollUntilCompleted(sessionId);
      const [row] = await sql(`SELECT state, jsonb_array_length(lowest) AS hotels FROM search.vendor_answers WHERE session_id = $1 AND vendor = 'hotelbeds'`, [sessionId]);
      expect(row.state).toBe('answered');
      expect(row.hotels).toBeGreaterThan(0);
      const [{ lowest }] = (await sql(`SELECT lowest FROM search.vendor_answers WHERE session_id = $1 AND vendor = 'hotelbeds'`, [sessionId])) as { lowest: { key: { hotelId: number } }[] }[];
      const shown = new Set(answered.results.map((result: { hotel: { id: number } }) => result.hotel.id));
      for (const entry of lowest) expect(shown.has(entry.key.hotelId)).toBe(true);

      // A replica that took the ask and died: its claim runs out, the next poll asks again.
      await sql(
        `UPDATE search.vendor_answers SET state = 'asking', lowest = NULL, answered_at = NULL, asking_until = now() - interval '1 second' WHERE session_id = $1 AND vendor = 'hotelbeds'`,
        [sessionId],
      );
      expect((await system.request('GET', `/search/${sessionId}`, { headers: auth })).body.data.search_completed).toBe(false);
      await pollUntilCompleted(sessionId);
      expect(await sql(`SELECT state FROM search.vendor_answers WHERE session_id = $1 AND vendor = 'hotelbeds'`, [sessionId])).toEqual([{ state: 'answered' }]);
    } finally {
      await setFaults({ atlas: {} });
    }
  });

  it('V1: a vendor slower than the search window is left out; the search completes at the window with the others', async () => {
    await setFaults({ atlas: { latencyMs: 6000, operations: ['availability'] } });
    const started = Date.now();
    try {
      const created = await system.request('POST', '/search', { headers: auth, json: { place_id: 'gn:2988507', ...freshStay() } });
      const sessionId = created.body.data.session_id;
      const completed = await pollUntilCompleted(sessionId);
      expect(Date.now() - started).toBeGreaterThan(3000);
      expect(completed.results.length).toBeGreaterThan(0);
      // Its ask gave up at the window: failed, nothing of it shown.
      await new Promise((resolve) => setTimeout(resolve, 500));
      expect(await sql(`SELECT state, lowest FROM search.vendor_answers WHERE session_id = $1 AND vendor = 'hotelbeds'`, [sessionId])).toEqual([{ state: 'failed', lowest: null }]);
    } finally {
      await setFaults({ atlas: {} });
      // The vendor's late answer (6 s after the search) still reaches the client: it lands here, not in the next test's circuit breaker.
      await new Promise((resolve) => setTimeout(resolve, Math.max(0, started + 7000 - Date.now())));
    }
  });

  async function pollUntilCompleted(sessionId: string) {
    const deadline = Date.now() + 15_000;
    for (;;) {
      const polled = await system.request('GET', `/search/${sessionId}`, { headers: auth });
      if (polled.body.data.search_completed) return polled.body.data;
      if (Date.now() > deadline) throw new Error(`search ${sessionId} did not complete`);
      await new Promise((resolve) => setTimeout(resolve, 200));
    }
  }

  it("shows the vendor's circuit breakers in readiness and metrics; an open one leaves the platform ready", async () => {
    await setFaults({ atlas: { serverErrorShare: 1, operations: ['availability'] } });
    try {
      // Five failed searches in a row open the availability breaker (each search is one call; 5xx are retried inside it).
      for (let attempt = 0; attempt < 5; attempt++) await v2Rates(freshStay());
    } finally {
      await setFaults({ atlas: {} });
    }
    // Readiness is the background check's: the breaker shows within a round or two (the last
    // search's call may still be retrying past its deadline: its failure counts when it ends).
    let ready = await system.request('GET', '/health/ready');
    for (let round = 0; round < 150 && ready.body.data?.services.search.vendors.hotelbeds.availability !== 'open'; round++) {
      await new Promise((resolve) => setTimeout(resolve, 100));
      ready = await system.request('GET', '/health/ready');
    }
    expect(ready.status).toBe(200);
    expect(ready.body.data.services.search.vendors.hotelbeds).toMatchObject({ availability: 'open', booking: 'closed' });
    expect(ready.body.data.services.rates.vendors.hotelbeds).toMatchObject({ booking: 'closed' });
    expect(ready.body.data.services.booking.vendors).toBeUndefined();
    const metrics = await (await fetch(`${system.replicas.get('search')![0].probeUrl}/metrics`)).text();
    expect(sample(metrics, 'hotel_vendor_circuit_open', { vendor: 'hotelbeds', operation: 'availability' })).toBe(1);
    expect(sample(metrics, 'hotel_vendor_circuit_open', { vendor: 'hotelbeds', operation: 'checkRate' })).toBe(0);
    // While it is open the vendor is not asked: the search is incomplete at once, with the others' rates.
    const rates = await v2Rates(freshStay());
    expect(rates.body).toMatchObject({ search_completed: false });
    expect(rates.body.rates.length).toBeGreaterThan(0);
  });

  it("reconcile-vendors compares today's bookings with the vendor's list; the finance credential's reconciliation shows the report, a backend token's does not", async () => {
    const today = new Date().toISOString().slice(0, 10);
    const unknown = await system.admin('reconcile-vendors', '--vendor', 'nobody');
    expect(unknown).toMatchObject({ code: 2, stdout: '' });
    expect(unknown.stderr).toContain('nobody is not a remote vendor; the remote vendors configured are hotelbeds, atlas, borealis, cobalt');
    // A record of a booking the vendor never made, beside the file's bookings (made and cancelled at the vendor, or sandbox).
    const stay = freshStay();
    await queryTestDatabase(
      system.database.url,
      `INSERT INTO rates.supplier_bookings (booking_id, vendor, hotel_id, room_id, check_in, check_out, rooms, reference, status) VALUES (990001, 'hotelbeds', $1, 1, $2, $3, 1, '101-9999999', 'confirmed')`,
      [hotelIds[0], stay.check_in, stay.check_out],
    );
    const run = await system.admin('reconcile-vendors', '--vendor', 'hotelbeds', '--from', today);
    expect(run.code).toBe(0);
    expect(run.json).toEqual({
      reports: [
        expect.objectContaining({ vendor: 'hotelbeds', from: today, to: today, platform_bookings: 4, vendor_bookings: 3, missing_at_vendor: 1, unknown_to_platform: 0, status_mismatch: 0 }),
      ],
      failures: [],
    });
    expect(run.json.reports[0].differences).toEqual([expect.objectContaining({ kind: 'missing_at_vendor', booking_id: 990001, reference: '101-9999999' })]);

    const financeToken = (await system.admin('create-finance-token', '--name', 'Reconciler')).json.finance_token;
    const reconciliation = (headers: { authorization: string }) => system.request('GET', `/api/accounting/reconciliation?from=${today}&to=${today}&clientId=${acme.client_id}`, { headers });
    const seen = await reconciliation({ authorization: financeToken });
    expect(seen.status).toBe(200);
    expect(seen.body.data.vendors).toEqual({
      reports: [expect.objectContaining({ id: run.json.reports[0].id, vendor: 'hotelbeds', trigger: 'command', missingAtVendor: 1, differences: [expect.objectContaining({ bookingId: 990001 })] })],
      reportCount: 1,
    });
    expect((await reconciliation({ authorization: acme.backend_token })).body.data.vendors).toBeNull();
  });
});
