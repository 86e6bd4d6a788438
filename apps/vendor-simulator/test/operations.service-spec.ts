import { HotelbedsClient, HotelbedsError, hotelbedsSignature } from '@hotel/hotelbeds';
import { VENDORS, allotmentCapacity } from '../src/inventory/simulated-inventory';
import { roomIdOfCode } from '../src/inventory/vendor-codes';
import { SimulatorHarness, carriedCodes, firstRate, startSimulatorHarness } from './simulator-harness';

const FIFTEEN_MINUTES = 15 * 60_000;

/** Every operation of the simulated vendors, answered through the documentation-based client. */
describe('vendor simulator: the Hotelbeds operations through HotelbedsClient', () => {
  let harness: SimulatorHarness;

  beforeAll(async () => {
    harness = await startSimulatorHarness();
  });

  afterAll(async () => {
    await harness?.close();
  });

  const stay = (offset = 40, nights = 2) => ({ checkIn: harness.clock.day(offset), checkOut: harness.clock.day(offset + nights) });
  const couple = [{ rooms: 1, adults: 2, children: 0 }];

  it('answers /health', async () => {
    const answer = await fetch(`${harness.simulator.url}/health`);
    expect(answer.status).toBe(200);
    expect(await answer.json()).toEqual({ status: 'up' });
  });

  describe('Content API', () => {
    it('pages the hotels the vendor carries, in full with fields=all', async () => {
      const atlas = harness.client('atlas');
      const first = await atlas.contentHotels({ fields: 'all', language: 'ENG', from: 1, to: 20 });
      const codes = carriedCodes('atlas', 40);
      expect(first.total).toBeGreaterThan(100_000);
      expect(first.hotels!.map((hotel) => hotel.code)).toEqual(codes.slice(0, 20));
      const hotel = first.hotels![0];
      expect(hotel).toEqual(
        expect.objectContaining({
          name: { content: expect.any(String) },
          description: { content: expect.any(String), languageCode: 'ENG' },
          countryCode: expect.stringMatching(/^[A-Z]{2}$/),
          coordinates: { latitude: expect.stringMatching(/^-?\d+(\.\d+)?$/), longitude: expect.stringMatching(/^-?\d+(\.\d+)?$/) },
          categoryCode: expect.stringMatching(/^(\dEST|H\d_5)$/),
          boardCodes: VENDORS.atlas.boards,
          address: { content: expect.any(String) },
        }),
      );
      expect(hotel.rooms!.length).toBeGreaterThanOrEqual(3);
      for (const room of hotel.rooms!) expect(roomIdOfCode(room.roomCode!)).toBeDefined();
      expect(hotel.images!.some((image) => image.imageTypeCode === 'GEN')).toBe(true);
      const second = await atlas.contentHotels({ fields: 'all', language: 'ENG', from: 21, to: 40 });
      expect(second.hotels!.map((answer) => answer.code)).toEqual(codes.slice(20, 40));
    });

    it('answers the codes alone without fields, the codes asked for with codes, texts in the language asked', async () => {
      const borealis = harness.client('borealis');
      const codes = carriedCodes('borealis', 3);
      const bare = await borealis.contentHotels({ from: 1, to: 3 });
      expect(bare.hotels).toEqual(codes.map((code) => ({ code })));
      const chosen = await borealis.contentHotels({ codes: [codes[2], codes[0], 1], fields: ['name', 'description'], language: 'CAS', from: 1, to: 10 });
      expect(chosen.total).toBe(2);
      expect(chosen.hotels!.map((hotel) => hotel.code)).toEqual([codes[0], codes[2]].sort((a, b) => a - b));
      expect(Object.keys(chosen.hotels![0]).sort()).toEqual(['code', 'description', 'name']);
    });

    it('reads every page with contentHotelPages, until the total', async () => {
      const cobalt = harness.client('cobalt');
      const pages = [];
      for await (const page of cobalt.contentHotelPages({ codes: carriedCodes('cobalt', 25), fields: ['name'] }, 10)) pages.push(page.hotels!.length);
      expect(pages).toEqual([10, 10, 5]);
    });
  });

  describe('availability', () => {
    it.each([
      ['atlas', 'EUR'],
      ['borealis', 'GBP'],
      ['cobalt', 'USD'],
    ] as const)('%s answers 2000 hotel codes in %s, with RECHECK rates among them', async (vendor, currency) => {
      const client = harness.client(vendor, { timeoutsMs: { availability: 30_000 } });
      const answer = await client.availability({ stay: stay(), occupancies: couple, hotels: { hotel: carriedCodes(vendor, 2000) } });
      const hotels = answer.hotels.hotels!;
      expect(hotels.length).toBeGreaterThan(1000);
      expect(answer.hotels.total).toBe(hotels.length);
      expect(new Set(hotels.map((hotel) => hotel.currency))).toEqual(new Set([currency]));
      const rates = hotels.flatMap((hotel) => hotel.rooms!.flatMap((room) => room.rates!));
      const types = new Set(rates.map((rate) => rate.rateType));
      expect(types).toEqual(new Set(['BOOKABLE', 'RECHECK']));
      for (const rate of rates.slice(0, 50)) {
        expect(rate.net).toMatch(/^\d+\.\d{2}$/);
        expect(VENDORS[vendor].boards).toContain(rate.boardCode);
        expect(rate.paymentType).toBe(vendor === 'cobalt' ? 'AT_HOTEL' : 'AT_WEB');
        expect(rate.cancellationPolicies!.length).toBeGreaterThan(0);
        expect(rate).toEqual(expect.objectContaining({ rooms: 1, adults: 2, children: 0, rateKey: expect.any(String), allotment: expect.any(Number) }));
      }
      // Cobalt's resort fee is paid at the hotel, not in the net.
      if (vendor === 'cobalt') expect(rates[0].taxes).toEqual(expect.objectContaining({ allIncluded: false, taxes: expect.arrayContaining([expect.objectContaining({ type: 'FEE', included: false })]) }));
    });

    it('refuses more than 2000 hotel codes, as the vendor does', async () => {
      const { apiKey, secret } = { apiKey: harness.env.VENDOR_ATLAS_API_KEY, secret: harness.env.VENDOR_ATLAS_SECRET };
      const answer = await fetch(`${harness.simulator.url}/atlas/hotel-api/1.0/hotels`, {
        method: 'POST',
        headers: {
          'api-key': apiKey,
          'x-signature': hotelbedsSignature(apiKey, secret, Math.floor(harness.clock.now() / 1000)),
          accept: 'application/json',
          'accept-encoding': 'gzip',
          'content-type': 'application/json',
        },
        body: JSON.stringify({ stay: stay(), occupancies: couple, hotels: { hotel: carriedCodes('atlas', 2001) } }),
      });
      expect(answer.status).toBe(400);
      const body = (await answer.json()) as { error: { code: string; message: string } };
      expect(body.error.code).toBe('INVALID_REQUEST');
      expect(body.error.message).toMatch(/hotels\.hotel/);
    });

    it('answers in gzip when asked', async () => {
      const { VENDOR_COBALT_API_KEY: apiKey, VENDOR_COBALT_SECRET: secret } = harness.env;
      const answer = await fetch(`${harness.simulator.url}/cobalt/hotel-content-api/1.0/hotels?from=1&to=2`, {
        headers: { 'api-key': apiKey, 'x-signature': hotelbedsSignature(apiKey, secret, Math.floor(harness.clock.now() / 1000)), accept: 'application/json', 'accept-encoding': 'gzip' },
      });
      expect(answer.status).toBe(200);
      expect(answer.headers.get('content-encoding')).toBe('gzip');
      expect(((await answer.json()) as { hotels: unknown[] }).hotels).toHaveLength(2);
    });
  });

  it('a wrong signature is 401 with the gateway body', async () => {
    const wrong = new HotelbedsClient({ baseUrl: `${harness.simulator.url}/atlas`, apiKey: harness.env.VENDOR_ATLAS_API_KEY, secret: 'not-the-secret', clock: harness.clock });
    try {
      const error = await wrong.contentHotels({ from: 1, to: 1 }).catch((caught: unknown) => caught);
      expect(error).toBeInstanceOf(HotelbedsError);
      expect(error).toMatchObject({ kind: 'invalid', code: 'UNAUTHORIZED', status: 401, vendorCode: 'ERR_401_NOT_AUTHORIZED', vendorMessage: 'Not Authorized' });
    } finally {
      wrong.close();
    }
  });

  it("another vendor's credentials are 401 too, and so is a signature two minutes old", async () => {
    const crossed = new HotelbedsClient({ baseUrl: `${harness.simulator.url}/cobalt`, apiKey: harness.env.VENDOR_ATLAS_API_KEY, secret: harness.env.VENDOR_ATLAS_SECRET, clock: harness.clock });
    const late = new HotelbedsClient({
      baseUrl: `${harness.simulator.url}/atlas`,
      apiKey: harness.env.VENDOR_ATLAS_API_KEY,
      secret: harness.env.VENDOR_ATLAS_SECRET,
      clock: { now: () => harness.clock.now() - 120_000 },
    });
    try {
      await expect(crossed.contentHotels({ from: 1, to: 1 })).rejects.toMatchObject({ status: 401 });
      await expect(late.contentHotels({ from: 1, to: 1 })).rejects.toMatchObject({ status: 401 });
    } finally {
      crossed.close();
      late.close();
    }
  });

  it('CheckRate reports a price that moved between price steps, with a BOOKABLE key at the new price', async () => {
    const borealis = harness.client('borealis');
    const found = await borealis.availability({ stay: stay(60, 3), occupancies: couple, hotels: { hotel: carriedCodes('borealis', 30) } });
    const { hotel, rate } = firstRate(found);
    const first = await borealis.checkRate({ rooms: [{ rateKey: rate.rateKey! }] });
    expect(first.hotel.code).toBe(hotel.code);
    expect(first.hotel.rooms![0].rates![0]).toMatchObject({ net: rate.net, rateType: 'BOOKABLE' });
    expect(first.hotel.totalNet).toBe(rate.net);
    const start = harness.clock.now();
    try {
      // Prices move in about one step in ten: walk the clock a step at a time until this one does.
      let moved;
      for (let step = 1; step <= 100 && !moved; step++) {
        harness.clock.advance(FIFTEEN_MINUTES);
        const again = await borealis.checkRate({ rooms: [{ rateKey: rate.rateKey! }] });
        if (again.hotel.rooms![0].rates![0].net !== rate.net) moved = again;
      }
      expect(moved).toBeDefined();
      const repriced = moved!.hotel.rooms![0].rates![0];
      expect(repriced.rateType).toBe('BOOKABLE');
      expect(repriced.rateKey).not.toBe(rate.rateKey);
      expect(moved!.hotel.totalNet).toBe(repriced.net);
    } finally {
      harness.clock.advance(start - harness.clock.now());
    }
  });

  it('books, finds the booking by reference and by client reference, simulates its cancellation, cancels it, and the rooms come back', async () => {
    const atlas = harness.client('atlas');
    const search = () => atlas.availability({ stay: stay(45), occupancies: couple, hotels: { hotel: carriedCodes('atlas', 30) } });
    const { hotel, room, rate } = firstRate(await search(), ({ rate }) => rate.rateClass === 'NOR');
    const roomId = roomIdOfCode(room.code!)!;
    const capacity = allotmentCapacity('atlas', hotel.code, roomId);
    expect(rate.allotment).toBe(capacity);

    const { booking } = await atlas.book({
      holder: { name: 'Ada', surname: 'Lovelace' },
      rooms: [{ rateKey: rate.rateKey!, paxes: [{ roomId: 1, type: 'AD', name: 'Ada', surname: 'Lovelace' }] }],
      clientReference: 'bk-1001',
      remark: 'Late arrival',
    });
    expect(booking).toMatchObject({
      reference: expect.stringMatching(/^101-\d+$/),
      clientReference: 'BK-1001',
      status: 'CONFIRMED',
      holder: { name: 'ADA', surname: 'LOVELACE' },
      totalNet: rate.net,
      currency: 'EUR',
      remark: 'Late arrival',
      hotel: expect.objectContaining({ code: hotel.code, checkIn: stay(45).checkIn, checkOut: stay(45).checkOut, totalNet: rate.net }),
    });
    expect(booking.hotel!.rooms![0]).toMatchObject({ status: 'CONFIRMED', id: 1, code: room.code, rates: [expect.objectContaining({ net: rate.net, boardCode: rate.boardCode })] });

    const afterBooking = firstRate(await search(), (found) => found.hotel.code === hotel.code && found.room.code === room.code);
    expect(afterBooking.rate.allotment).toBe(capacity - 1);

    const detail = await atlas.bookingDetail(booking.reference);
    expect(detail.booking).toEqual(booking);

    const listed = await atlas.findByClientReference('BK-1001', { start: harness.clock.day(), end: harness.clock.day() });
    expect(listed.map((found) => found.reference)).toEqual([booking.reference]);
    expect(listed[0]).toMatchObject({ status: 'CONFIRMED', totalNet: rate.net, hotel: expect.objectContaining({ code: hotel.code }) });

    // Free cancellation until a few days before check-in: nothing to pay today.
    const simulated = await atlas.simulateCancellation(booking.reference);
    expect(simulated.booking).toMatchObject({ status: 'CONFIRMED', hotel: expect.objectContaining({ cancellationAmount: '0.00' }) });

    const cancelled = await atlas.cancel(booking.reference);
    expect(cancelled.booking).toMatchObject({ status: 'CANCELLED', cancellationReference: booking.reference, totalNet: '0.00', hotel: expect.objectContaining({ cancellationAmount: '0.00' }) });
    expect(await atlas.cancel(booking.reference)).toEqual({ ...cancelled, auditData: expect.anything() });

    const afterCancelling = firstRate(await search(), (found) => found.hotel.code === hotel.code && found.room.code === room.code);
    expect(afterCancelling.rate.allotment).toBe(capacity);
    const sold = await harness.query<{ rooms_sold: number }>(`SELECT rooms_sold FROM vendor_simulator.allotments WHERE vendor = 'atlas' AND hotel_code = $1`, [hotel.code]);
    expect(sold.map((row) => row.rooms_sold)).toEqual([0, 0]);
    expect(await atlas.findByClientReference('bk-1001', { start: harness.clock.day(), end: harness.clock.day() })).toMatchObject([{ status: 'CANCELLED' }]);
  });

  it('a non-refundable booking costs its whole price to cancel', async () => {
    const cobalt = harness.client('cobalt');
    const found = await cobalt.availability({ stay: stay(50), occupancies: couple, hotels: { hotel: carriedCodes('cobalt', 60) } });
    const { rate } = firstRate(found, (candidate) => candidate.rate.rateClass === 'NRF' && candidate.rate.rateType === 'BOOKABLE');
    const { booking } = await cobalt.book({ holder: { name: 'Grace', surname: 'Hopper' }, rooms: [{ rateKey: rate.rateKey! }], clientReference: 'NRF-1' });
    expect(booking.currency).toBe('USD');
    const simulated = await cobalt.simulateCancellation(booking.reference);
    expect(simulated.booking.hotel!.cancellationAmount).toBe(rate.net);
    const cancelled = await cobalt.cancel(booking.reference);
    expect(cancelled.booking).toMatchObject({ status: 'CANCELLED', totalNet: rate.net, pendingAmount: rate.net });
  });

  it('prices and books an occupancy of two rooms with a child each, taking two rooms of the allotment', async () => {
    const borealis = harness.client('borealis');
    const family = [{ rooms: 2, adults: 2, children: 1, paxes: [{ type: 'CH' as const, age: 8 }] }];
    const found = await borealis.availability({ stay: stay(100), occupancies: family, hotels: { hotel: carriedCodes('borealis', 60) } });
    const { hotel, room, rate } = firstRate(found, ({ rate }) => rate.rateType === 'BOOKABLE');
    expect(rate).toMatchObject({ rooms: 2, adults: 2, children: 1, childrenAges: '8' });
    const roomId = roomIdOfCode(room.code!)!;
    const paxes = [1, 2].flatMap((roomNumber) => [
      { roomId: roomNumber, type: 'AD' as const, name: 'Parent', surname: `Room${roomNumber}` },
      { roomId: roomNumber, type: 'CH' as const, age: 8, name: 'Child', surname: `Room${roomNumber}` },
    ]);
    const { booking } = await borealis.book({ holder: { name: 'Family', surname: 'Two Rooms' }, rooms: [{ rateKey: rate.rateKey!, paxes }], clientReference: 'FAMILY-1' });
    expect(booking).toMatchObject({ currency: 'GBP', totalNet: rate.net });
    expect(booking.hotel!.rooms![0]).toMatchObject({ paxes, rates: [expect.objectContaining({ rooms: 2, adults: 2, children: 1, childrenAges: '8' })] });
    const sold = await harness.query<{ rooms_sold: number }>(`SELECT rooms_sold FROM vendor_simulator.allotments WHERE vendor = 'borealis' AND hotel_code = $1 AND room_id = $2`, [hotel.code, roomId]);
    expect(sold.map((row) => row.rooms_sold)).toEqual([2, 2]);
    // Children need their ages; a pax in a third room of a two-room rate is refused.
    await expect(borealis.availability({ stay: stay(100), occupancies: [{ rooms: 1, adults: 2, children: 1 }], hotels: { hotel: [hotel.code] } })).rejects.toMatchObject({ kind: 'invalid', vendorCode: 'INVALID_DATA' });
    await expect(
      borealis.book({ holder: { name: 'A', surname: 'B' }, rooms: [{ rateKey: rate.rateKey!, paxes: [{ roomId: 3, type: 'AD' }] }], clientReference: 'FAMILY-2' }),
    ).rejects.toMatchObject({ kind: 'invalid', vendorCode: 'INVALID_DATA' });
  });

  it('refuses a check-in in the past with the documented INVALID_DATA', async () => {
    await expect(harness.client('atlas').availability({ stay: { checkIn: harness.clock.day(-1), checkOut: harness.clock.day(1) }, occupancies: couple, hotels: { hotel: carriedCodes('atlas', 1) } })).rejects.toMatchObject({
      kind: 'invalid',
      code: 'INVALID_REQUEST',
      status: 400,
      vendorCode: 'INVALID_DATA',
      vendorMessage: 'The check-in date cannot be in the past',
    });
  });

  it('an unknown booking reference is 404', async () => {
    await expect(harness.client('atlas').bookingDetail('101-1')).rejects.toMatchObject({ kind: 'invalid', code: 'NOT_FOUND', status: 404 });
  });
});
