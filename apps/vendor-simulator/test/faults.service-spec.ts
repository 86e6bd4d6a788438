import { HotelbedsError } from '@hotel/hotelbeds';
import { SimulatorHarness, carriedCodes, firstRate, startSimulatorHarness } from './simulator-harness';

/** Each fault knob, set through the admin route and observed through the documentation-based client. */
describe('vendor simulator: fault knobs', () => {
  let harness: SimulatorHarness;

  beforeAll(async () => {
    harness = await startSimulatorHarness();
  });

  afterEach(async () => {
    await harness.setFaults({ atlas: {}, borealis: {}, cobalt: {} });
  });

  afterAll(async () => {
    await harness?.close();
  });

  const couple = [{ rooms: 1, adults: 2, children: 0 }];
  const search = (offset = 40) => ({ stay: { checkIn: harness.clock.day(offset), checkOut: harness.clock.day(offset + 2) }, occupancies: couple, hotels: { hotel: carriedCodes('atlas', 20) } });
  const failure = (promise: Promise<unknown>) => promise.then(() => undefined, (error: unknown) => error as HotelbedsError);

  async function set(settings: Record<string, unknown>): Promise<void> {
    const answer = await harness.setFaults(settings);
    expect(answer.status).toBe(200);
  }

  it('the admin route reads and sets the knobs, and refuses what it does not know', async () => {
    await set({ cobalt: { latencyMs: 250, serverErrorShare: 0.5, operations: ['availability'] } });
    const knobs = (await (await fetch(`${harness.simulator.url}/_simulator/faults`)).json()) as Record<string, Record<string, unknown>>;
    expect(knobs.cobalt).toMatchObject({ latencyMs: 250, serverErrorShare: 0.5, operations: ['availability'], vendorLatencyMs: 0 });
    expect(knobs.atlas).toMatchObject({ latencyMs: 0, serverErrorShare: 0, operations: null });
    const refused = await harness.setFaults({ cobalt: { serverErrorShare: 2, latency: 5 }, zephyr: {} });
    expect(refused.status).toBe(400);
    const { error } = (await refused.json()) as { error: { message: string } };
    expect(error.message).toContain('cobalt.serverErrorShare: a share from 0 to 1');
    expect(error.message).toContain('cobalt.latency: no such knob');
    expect(error.message).toContain('zephyr: not a vendor');
  });

  it('latency: an answer later than the deadline is a timeout; operations the knob leaves out answer at once', async () => {
    await set({ atlas: { latencyMs: 1500, operations: ['availability'] } });
    const atlas = harness.client('atlas', { timeoutsMs: { availability: 400 } });
    const request = search();
    const started = Date.now();
    expect(await failure(atlas.availability(request))).toMatchObject({ kind: 'unavailable', code: 'TIMEOUT' });
    expect(Date.now() - started).toBeLessThan(1400);
    const content = Date.now();
    await atlas.contentHotels({ from: 1, to: 1 });
    expect(Date.now() - content).toBeLessThan(1000);
  });

  it('5xx: the share of SYSTEM_ERROR answers, retried by the client where safe', async () => {
    await set({ atlas: { serverErrorShare: 1, operations: ['availability'] } });
    const atlas = harness.client('atlas', { retry: { maxAttempts: 3, baseDelayMs: 10 } });
    expect(await failure(atlas.availability(search()))).toMatchObject({ kind: 'unavailable', code: 'VENDOR_FAILURE', status: 500, vendorCode: 'SYSTEM_ERROR', attempts: 3 });
    // Every second request fails, the first among them: the retry gets the answer.
    await set({ atlas: { serverErrorShare: 0.5, operations: ['availability'] } });
    const answer = await atlas.availability(search());
    expect(answer.hotels.total).toBeGreaterThan(0);
  });

  it('429 with Retry-After: over the client’s cap it gives up at once, telling how long to wait', async () => {
    await set({ borealis: { throttleShare: 1, throttleStatus: 429, retryAfterSeconds: 7 } });
    const borealis = harness.client('borealis', { retry: { maxAttempts: 3 } });
    expect(await failure(borealis.contentHotels({ from: 1, to: 1 }))).toMatchObject({ kind: 'unavailable', code: 'RATE_LIMITED', status: 429, retryAfterMs: 7000, attempts: 1 });
  });

  it("the vendor's documented throttle (403 Developer Over Qps) with Retry-After is waited out and retried", async () => {
    await set({ borealis: { throttleShare: 0.5, throttleStatus: 403, retryAfterSeconds: 1 } });
    const borealis = harness.client('borealis', { retry: { maxAttempts: 2, baseDelayMs: 1 } });
    const started = Date.now();
    const answer = await borealis.contentHotels({ from: 1, to: 1 });
    expect(answer.hotels).toHaveLength(1);
    expect(Date.now() - started).toBeGreaterThanOrEqual(1000);
    await set({ borealis: { throttleShare: 1, retryAfterSeconds: 1 } });
    expect(await failure(harness.client('borealis').contentHotels({ from: 1, to: 1 }))).toMatchObject({
      code: 'RATE_LIMITED',
      status: 403,
      vendorCode: 'ERR_403_DEVELOPER_OVER_QPS',
      retryAfterMs: 1000,
    });
  });

  it('malformed JSON: a 200 whose body does not parse', async () => {
    await set({ cobalt: { malformedShare: 1, operations: ['contentHotels'] } });
    expect(await failure(harness.client('cobalt').contentHotels({ from: 1, to: 5 }))).toMatchObject({ kind: 'malformed', code: 'BAD_JSON', status: 200 });
  });

  it('a trickling body runs past the deadline', async () => {
    await set({ cobalt: { trickleShare: 1, trickleChunkBytes: 4, trickleIntervalMs: 100, operations: ['contentHotels'] } });
    const cobalt = harness.client('cobalt', { timeoutsMs: { contentHotels: 700 } });
    const started = Date.now();
    expect(await failure(cobalt.contentHotels({ fields: 'all', from: 1, to: 5 }))).toMatchObject({ kind: 'unavailable', code: 'TIMEOUT' });
    expect(Date.now() - started).toBeLessThan(2000);
    // Slow but within the deadline, the answer arrives whole.
    await set({ cobalt: { trickleShare: 1, trickleChunkBytes: 4096, trickleIntervalMs: 20, operations: ['contentHotels'] } });
    expect((await cobalt.contentHotels({ fields: 'all', from: 1, to: 5 })).hotels).toHaveLength(5);
  });

  it('a lost answer: the booking is made, the client reports an unknown outcome, and finds it by client reference', async () => {
    const atlas = harness.client('atlas');
    const { rate } = firstRate(await atlas.availability(search(60)), ({ rate }) => rate.rateType === 'BOOKABLE');
    await set({ atlas: { loseAnswerShare: 1, operations: ['booking', 'cancellation'] } });
    const lost = await failure(atlas.book({ holder: { name: 'Lost', surname: 'Answer' }, rooms: [{ rateKey: rate.rateKey! }], clientReference: 'LOST-1' }));
    expect(lost).toMatchObject({ kind: 'unavailable', code: 'CONNECTION_FAILED', outcomeUnknown: true });
    const [found] = await atlas.findByClientReference('lost-1', { start: harness.clock.day(), end: harness.clock.day() });
    expect(found).toMatchObject({ clientReference: 'LOST-1', status: 'CONFIRMED', totalNet: rate.net });
    // A lost cancellation was carried out too.
    expect(await failure(atlas.cancel(found.reference))).toMatchObject({ outcomeUnknown: true });
    expect((await atlas.bookingDetail(found.reference)).booking.status).toBe('CANCELLED');
  });

  it('knobs of one vendor leave the others alone', async () => {
    await set({ atlas: { serverErrorShare: 1 } });
    await expect(harness.client('atlas').contentHotels({ from: 1, to: 1 })).rejects.toMatchObject({ code: 'VENDOR_FAILURE' });
    expect((await harness.client('cobalt').contentHotels({ from: 1, to: 1 })).hotels).toHaveLength(1);
  });
});
