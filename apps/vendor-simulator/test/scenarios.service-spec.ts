import { HotelbedsClient } from '@hotel/hotelbeds';
import { SimulatorHarness, allRates, carriedCodes, firstRate, startSimulatorHarness } from './simulator-harness';

const FIFTEEN_MINUTES = 15 * 60_000;

/** The platform's sandbox scenarios, asked with the simulator's X-Test-Scenario header, and the price rules of rate keys. */
describe('vendor simulator: sandbox scenarios and prices', () => {
  let harness: SimulatorHarness;
  let atlas: HotelbedsClient;

  beforeAll(async () => {
    harness = await startSimulatorHarness({ SUPPLIER_PENDING_S: '30' });
    atlas = harness.client('atlas');
  });

  afterAll(async () => {
    await harness?.close();
  });

  const couple = [{ rooms: 1, adults: 2, children: 0 }];
  let nextOffset = 30;
  /** A bookable rate of a stay no other test uses. */
  async function aRate(accept: Parameters<typeof firstRate>[1] = ({ rate }) => rate.rateType === 'BOOKABLE') {
    const offset = (nextOffset += 3);
    const stay = { checkIn: harness.clock.day(offset), checkOut: harness.clock.day(offset + 2) };
    return { stay, ...firstRate(await atlas.availability({ stay, occupancies: couple, hotels: { hotel: carriedCodes('atlas', 60) } }), accept) };
  }
  const holder = { name: 'Sandbox', surname: 'Tester' };

  it('supplier_pending: the booking is PRECONFIRMED, then CONFIRMED SUPPLIER_PENDING_S later', async () => {
    const { rate } = await aRate();
    const pending = await harness.scenarioClient('atlas', 'supplier_pending');
    const { booking } = await pending.book({ holder, rooms: [{ rateKey: rate.rateKey! }], clientReference: 'PENDING-1' });
    expect(booking.status).toBe('PRECONFIRMED');
    expect(booking.hotel!.rooms![0].status).toBe('PRECONFIRMED');
    harness.clock.advance(29_000);
    expect((await atlas.bookingDetail(booking.reference)).booking.status).toBe('PRECONFIRMED');
    harness.clock.advance(2_000);
    expect((await atlas.bookingDetail(booking.reference)).booking.status).toBe('CONFIRMED');
    expect(await atlas.findByClientReference('PENDING-1', { start: harness.clock.day(), end: harness.clock.day() })).toMatchObject([{ status: 'CONFIRMED' }]);
  });

  it('supplier_error: the booking is refused with the documented error, and nothing is taken', async () => {
    const { stay, rate, hotel } = await aRate();
    const failing = await harness.scenarioClient('atlas', 'supplier_error');
    await expect(failing.book({ holder, rooms: [{ rateKey: rate.rateKey! }], clientReference: 'ERROR-1' })).rejects.toMatchObject({
      kind: 'refused',
      code: 'REFUSED',
      status: 400,
      vendorCode: 'PRODUCT_ERROR',
    });
    expect(await harness.query(`SELECT reference FROM vendor_simulator.bookings WHERE client_reference = 'ERROR-1'`)).toEqual([]);
    const taken = `SELECT night FROM vendor_simulator.allotments WHERE vendor = 'atlas' AND hotel_code = $1 AND night >= $2 AND night < $3`;
    expect(await harness.query(taken, [hotel.code, stay.checkIn, stay.checkOut])).toEqual([]);
  });

  it('price_changed: CheckRate answers another price, with a key that books at it', async () => {
    const { rate } = await aRate();
    const changing = await harness.scenarioClient('atlas', 'price_changed');
    const checked = await changing.checkRate({ rooms: [{ rateKey: rate.rateKey! }] });
    const repriced = checked.hotel.rooms![0].rates![0];
    expect(repriced.net).not.toBe(rate.net);
    expect(repriced.rateType).toBe('BOOKABLE');
    const { booking } = await atlas.book({ holder, rooms: [{ rateKey: repriced.rateKey! }], clientReference: 'CHANGED-1' });
    expect(booking.totalNet).toBe(repriced.net);
  });

  it('sold_out: CheckRate and booking answer the rate gone', async () => {
    const { rate } = await aRate();
    const gone = await harness.scenarioClient('atlas', 'sold_out');
    const refusal = { kind: 'refused', code: 'RATE_NOT_AVAILABLE', vendorCode: 'PRODUCT_ERROR' };
    await expect(gone.checkRate({ rooms: [{ rateKey: rate.rateKey! }] })).rejects.toMatchObject(refusal);
    await expect(gone.book({ holder, rooms: [{ rateKey: rate.rateKey! }], clientReference: 'GONE-1' })).rejects.toMatchObject(refusal);
  });

  it('an unknown scenario is an invalid request', async () => {
    const unknown = await harness.scenarioClient('atlas', 'card_declined');
    await expect(unknown.contentHotels({ from: 1, to: 1 })).rejects.toMatchObject({ kind: 'invalid', code: 'INVALID_REQUEST', vendorCode: 'INVALID_REQUEST' });
  });

  it("a RECHECK rate booked without CheckRate after its price rose is refused (Price has changed), unless within the booking's tolerance", async () => {
    const { stay, hotel, room, rate } = await aRate(({ rate }) => rate.rateType === 'RECHECK');
    const start = harness.clock.now();
    try {
      // Walk the price steps until this rate costs more (in about one step in twenty).
      let rose;
      for (let step = 1; step <= 300 && !rose; step++) {
        harness.clock.advance(FIFTEEN_MINUTES);
        const again = await atlas.availability({ stay, occupancies: couple, hotels: { hotel: [hotel.code] } });
        rose = allRates(again).find((found) => found.room.code === room.code && found.rate.boardCode === rate.boardCode && found.rate.rateClass === rate.rateClass && Number(found.rate.net) > Number(rate.net));
      }
      expect(rose).toBeDefined();
      const request = { holder, rooms: [{ rateKey: rate.rateKey! }], clientReference: 'RECHECK-1' };
      await expect(atlas.book(request)).rejects.toMatchObject({ kind: 'refused', code: 'PRICE_CHANGED', vendorCode: 'PRODUCT_ERROR' });
      const { booking } = await atlas.book({ ...request, tolerance: 10 });
      expect(booking.totalNet).toBe(rose!.rate.net);
    } finally {
      harness.clock.advance(start - harness.clock.now());
    }
  });

  it('a BOOKABLE key books at its own price for three hours, then it has expired', async () => {
    const { rate } = await aRate(({ rate }) => rate.rateType === 'BOOKABLE' && rate.rateClass === 'NOR');
    const start = harness.clock.now();
    try {
      harness.clock.advance(2 * 3600_000);
      const { booking } = await atlas.book({ holder, rooms: [{ rateKey: rate.rateKey! }], clientReference: 'FRESH-1' });
      expect(booking.totalNet).toBe(rate.net);
      harness.clock.advance(3600_000 + FIFTEEN_MINUTES);
      await expect(atlas.book({ holder, rooms: [{ rateKey: rate.rateKey! }], clientReference: 'STALE-1' })).rejects.toMatchObject({ kind: 'refused', code: 'RATE_NOT_AVAILABLE' });
    } finally {
      harness.clock.advance(start - harness.clock.now());
    }
  });

  it("refuses a rate key altered, or another vendor's", async () => {
    const { rate } = await aRate();
    // The other refund terms, under the same signature.
    const altered = rate.rateKey!.replace(/\|(NOR|NRF)\|/, (_, rateClass: string) => (rateClass === 'NOR' ? '|NRF|' : '|NOR|'));
    expect(altered).not.toBe(rate.rateKey);
    await expect(atlas.checkRate({ rooms: [{ rateKey: altered }] })).rejects.toMatchObject({ kind: 'invalid', code: 'INVALID_REQUEST', vendorCode: 'INVALID_DATA' });
    await expect(harness.client('cobalt').checkRate({ rooms: [{ rateKey: rate.rateKey! }] })).rejects.toMatchObject({ kind: 'invalid', vendorCode: 'INVALID_DATA' });
  });
});
