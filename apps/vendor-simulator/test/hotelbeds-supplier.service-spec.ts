import { HotelbedsSupplier, clientReferenceOf } from '@hotel/hotelbeds';
import { DomainError } from '@hotel/platform';
import { hotelById, priceEpoch, type Hotel, type SupplierBookingOrder } from '@hotel/inventory';
import { VENDORS } from '../src/inventory/vendors';
import { InProcessVendor } from './in-process-vendor';
import { SimulatorHarness, carriedCodes, startSimulatorHarness } from './simulator-harness';

/**
 * The platform's adapter (HotelbedsSupplier, the SupplierPort over HotelbedsClient) against the
 * simulator over real HTTP: what the platform makes of availability, CheckRate, bookings, the
 * booking list, detail and cancellation, and what it does when an answer is lost or refused.
 */
describe('HotelbedsSupplier against the vendor simulator', () => {
  let harness: SimulatorHarness;
  let atlas: HotelbedsSupplier;
  let hotels: Hotel[];
  let nextBookingId = 7_000_001;

  beforeAll(async () => {
    harness = await startSimulatorHarness();
    atlas = new HotelbedsSupplier({ code: 'atlas', name: 'Atlas Beds', client: harness.client('atlas'), clock: () => harness.clock.now(), sandboxDesk: desk() });
    hotels = carriedCodes('atlas', 12).map((code) => hotelById(code)!);
  });

  afterAll(async () => {
    await harness?.close();
  });

  /** The simulator's sandbox desk, where every sandbox prebook and booking goes. */
  const desk = () => ({ client: harness.client('sandbox'), secret: harness.env.VENDOR_SANDBOX_SECRET });

  const stay = () => ({ check_in: harness.clock.day(30), check_out: harness.clock.day(33), rooms: [{ adults: 2, children: 0, children_ages: [] }] });
  const request = () => ({ includeMemberRates: true, context: { epoch: priceEpoch(harness.clock.now()), issuedAt: new Date(harness.clock.now()) } });

  /** One refundable offer of the first hotel that has one, and an order for it. */
  async function anOffer() {
    const answer = await atlas.availability(hotels, stay(), request());
    const index = answer.findIndex((offers) => offers.some((offer) => offer.key.refundable));
    const offer = answer[index].find((candidate) => candidate.key.refundable)!;
    const hotel = hotels[index];
    const key = (await atlas.recheck(hotel, offer.key, stay()))!;
    const order: SupplierBookingOrder = {
      bookingId: nextBookingId++,
      hotelId: hotel.id,
      roomId: key.roomId,
      checkIn: stay().check_in,
      checkOut: stay().check_out,
      rooms: 1,
      sandbox: false,
      vendorRate: key.vendorRate,
      holder: { name: 'Ada', surname: 'Lovelace' },
    };
    return { hotel, offer, key, order };
  }

  it.each(['atlas', 'borealis', 'cobalt'] as const)('availability over the wire prices every offer of %s as the vendor does in process, with the rate keys to book it', async (code) => {
    const vendor = new HotelbedsSupplier({ code, name: code, client: harness.client(code), clock: () => harness.clock.now(), sandboxDesk: desk() });
    const carried = carriedCodes(code, 12).map((hotelCode) => hotelById(hotelCode)!);
    const answer = await vendor.availability(carried, stay(), request());
    const simulated = await new InProcessVendor(VENDORS[code]).availability(carried, stay(), request());
    let compared = 0;
    type Terms = { key: { roomId: number; refundable: boolean; memberRate: boolean } };
    const byTerms = (a: Terms, b: Terms) => a.key.roomId - b.key.roomId || Number(b.key.refundable) - Number(a.key.refundable) || Number(a.key.memberRate) - Number(b.key.memberRate);
    for (const [index, answered] of answer.entries()) {
      const offers = [...answered].sort(byTerms);
      const expected = [...simulated[index]].sort(byTerms);
      const terms = (offer: Terms & { key: { board: string } }) => [offer.key.roomId, offer.key.board, offer.key.refundable, offer.key.memberRate];
      expect(offers.map(terms)).toEqual(expected.map(terms));
      for (const [position, offer] of offers.entries()) {
        const want = expected[position].rate;
        expect(offer.key.vendorRate!.currency).toBe(VENDORS[code].currency);
        expect(offer.key.vendorRate!.keys).toHaveLength(1);
        expect(offer.rate).toMatchObject({
          price_chargeable: want.price_chargeable,
          price_fees: want.price_fees,
          price_due_at_hotel: want.price_due_at_hotel,
          price_currency: VENDORS[code].currency,
          payment_type: want.payment_type,
          cancellation_policy: want.cancellation_policy,
          brand_loyalty_required: want.brand_loyalty_required,
          ...(want.brand_loyalty_required && { brand_loyalty_name: want.brand_loyalty_name }),
        });
        expect(offer.rate.cancellation_policy_data.map((period) => period.price_cancellation_penalty)).toEqual(want.cancellation_policy_data.map((period) => period.price_cancellation_penalty));
        compared++;
      }
    }
    expect(compared).toBeGreaterThan(5);
  });

  it('recheck asks CheckRate and gives bookable keys at the checked price; the seen price is the availability answer', async () => {
    const { hotel, offer, key } = await anOffer();
    expect(key.vendorRate!.recheck).toBe(false);
    expect((await atlas.price(hotel, key, stay(), request().context)).price_chargeable).toBe(offer.rate.price_chargeable);
    expect(await atlas.seenPrice(hotel, offer.key)).toEqual({ milli: Math.round(offer.rate.price_chargeable * 1000), currency: 'EUR' });
  });

  it('books under the client reference, answers its detail, finds it by the booking list, and cancels it once', async () => {
    const { order } = await anOffer();
    const booked = await atlas.book(order);
    expect(booked).toEqual({ reference: expect.stringMatching(/^101-\d+$/), status: 'confirmed' });
    const [row] = await harness.query<{ client_reference: string; holder_surname: string }>(
      'SELECT client_reference, holder_surname FROM vendor_simulator.bookings WHERE reference = $1',
      [booked.reference],
    );
    expect(row).toEqual({ client_reference: clientReferenceOf(order.bookingId).toUpperCase(), holder_surname: 'LOVELACE' });
    expect(await atlas.find(order)).toEqual(booked);
    const placed = { bookingId: order.bookingId, reference: booked.reference, status: 'confirmed' as const, sandbox: false, placedAt: new Date() };
    expect(await atlas.status(placed)).toEqual(booked);
    // A month ahead, free: the vendor says what cancelling cost, again when asked again.
    const cancelled = { reference: booked.reference, status: 'cancelled', cancellationCharge: { amount: '0.00', currency: 'EUR' } };
    expect(await atlas.cancel(placed)).toEqual(cancelled);
    expect(await atlas.cancel(placed)).toEqual(cancelled);
    expect(await atlas.status(placed)).toEqual({ reference: booked.reference, status: 'cancelled' });
  });

  it('a lost answer is an error that is no refusal, and the booking it made is found before booking again', async () => {
    const { order } = await anOffer();
    await harness.setFaults({ atlas: { loseAnswerShare: 1, operations: ['booking'] } });
    try {
      const lost = await atlas.book(order).then(
        () => null,
        (error: unknown) => error,
      );
      expect(lost).toBeInstanceOf(Error);
      expect(lost).not.toBeInstanceOf(DomainError);
    } finally {
      await harness.setFaults({ atlas: {} });
    }
    const found = await atlas.find(order);
    expect(found).toEqual({ reference: expect.stringMatching(/^101-\d+$/), status: 'confirmed' });
    const rows = await harness.query('SELECT reference FROM vendor_simulator.bookings WHERE client_reference = $1', [clientReferenceOf(order.bookingId).toUpperCase()]);
    expect(rows).toHaveLength(1);
    // An order never booked is not found.
    expect(await atlas.find({ ...order, bookingId: nextBookingId++ })).toBeNull();
  });

  it('a refusal is SUPPLIER_ERROR, a rate gone at recheck is null, and neither books anything', async () => {
    const { order, hotel, offer } = await anOffer();
    const refusing = new HotelbedsSupplier({ code: 'atlas', name: 'Atlas Beds', client: await harness.scenarioClient('atlas', 'supplier_error'), clock: () => harness.clock.now(), sandboxDesk: desk() });
    await expect(refusing.book(order)).rejects.toMatchObject({ code: 'SUPPLIER_ERROR' });
    const soldOut = new HotelbedsSupplier({ code: 'atlas', name: 'Atlas Beds', client: await harness.scenarioClient('atlas', 'sold_out'), clock: () => harness.clock.now(), sandboxDesk: desk() });
    expect(await soldOut.recheck(hotel, offer.key, stay())).toBeNull();
    expect(await harness.query('SELECT 1 FROM vendor_simulator.bookings WHERE client_reference = $1', [clientReferenceOf(order.bookingId).toUpperCase()])).toEqual([]);
  });

  it('with the sandbox desk, a sandbox prebook and booking go to the desk whatever the vendor: its CheckRate at the price seen, its booking and scenarios, nothing at the vendor', async () => {
    const { hotel, offer, order } = await anOffer();
    const atVendor = async () => (await harness.query<{ count: string }>(`SELECT count(*) FROM vendor_simulator.bookings WHERE vendor = 'atlas'`))[0].count;
    const before = await atVendor();

    const key = (await atlas.recheck(hotel, offer.key, stay(), true))!;
    expect(key.vendorRate!.keys).toEqual([expect.stringMatching(/^SBX1\./)]);
    const priced = await atlas.price(hotel, key, stay(), { ...request().context, sandbox: true });
    // The desk answers the price the client saw, with the rate's own terms.
    expect(priced).toMatchObject({ price_chargeable: offer.rate.price_chargeable, price_currency: offer.rate.price_currency, cancellation_policy: 'Refundable' });

    const sandboxOrder: SupplierBookingOrder = { ...order, bookingId: nextBookingId++, sandbox: true, vendorRate: key.vendorRate, testScenario: 'supplier_pending' };
    const answer = await atlas.book(sandboxOrder);
    expect(answer).toEqual({ reference: expect.stringMatching(/^900-\d+$/), status: 'pending' });
    expect(await harness.query(`SELECT vendor, client_reference, status FROM vendor_simulator.bookings WHERE reference = $1`, [answer.reference])).toEqual([
      { vendor: 'sandbox', client_reference: clientReferenceOf(sandboxOrder.bookingId), status: 'PRECONFIRMED' },
    ]);
    // Booked again (a lost answer): the desk's booking, found by its client reference.
    expect(await atlas.find(sandboxOrder)).toEqual(answer);
    const placed = { bookingId: sandboxOrder.bookingId, reference: answer.reference, status: 'pending' as const, sandbox: true, placedAt: new Date(harness.clock.now()) };
    expect((await atlas.status(placed)).status).toBe('pending');
    harness.clock.advance(61_000);
    try {
      expect((await atlas.status(placed)).status).toBe('confirmed');
      // A month ahead a refundable rate costs nothing to cancel.
      expect(await atlas.cancel({ ...placed, status: 'confirmed' })).toEqual({ reference: answer.reference, status: 'cancelled', cancellationCharge: { amount: '0.00', currency: key.vendorRate!.currency } });
    } finally {
      harness.clock.advance(-61_000);
    }
    await expect(atlas.book({ ...sandboxOrder, bookingId: nextBookingId++, testScenario: 'supplier_error' })).rejects.toMatchObject({ code: 'SUPPLIER_ERROR' });
    // A key the desk did not sign (a vendor's own) is refused there.
    await expect(atlas.book({ ...order, bookingId: nextBookingId++, sandbox: true })).rejects.toMatchObject({ code: 'SUPPLIER_ERROR' });
    expect(await atVendor()).toBe(before);
    // A sandbox booking that no desk holds (answered by a release before the desk was required) is asked nowhere.
    const unheld = { bookingId: nextBookingId++, reference: 'ATL-1-ABCDEF', status: 'pending' as const, sandbox: true, placedAt: new Date(harness.clock.now()) };
    expect(await atlas.status(unheld)).toEqual({ reference: 'ATL-1-ABCDEF', status: 'confirmed' });
    expect(await atlas.cancel(unheld)).toEqual({ reference: 'ATL-1-ABCDEF', status: 'cancelled' });
  });

  it('lists every booking the vendor made on the days asked, whatever its status, read page by page as reconciliation reads it', async () => {
    const made = await atlas.bookingsMade(harness.clock.day(), harness.clock.day());
    const rows = await harness.query<{ reference: string; client_reference: string; status: string }>(
      `SELECT reference, client_reference, status FROM vendor_simulator.bookings WHERE vendor = 'atlas' ORDER BY created_at, reference`,
    );
    expect(rows.map((row) => row.status)).toEqual(expect.arrayContaining(['CONFIRMED', 'CANCELLED']));
    expect(made).toEqual(
      rows.map((row) => ({
        reference: row.reference,
        clientReference: row.client_reference,
        status: row.status === 'CANCELLED' ? 'cancelled' : 'confirmed',
        createdOn: harness.clock.day(),
        net: expect.stringMatching(/^\d+\.\d{2}$/),
        currency: 'EUR',
      })),
    );
    // Pages of one, until the vendor's total: the same bookings in the same order.
    const paged: string[] = [];
    for await (const page of harness.client('atlas').bookingListPages({ start: harness.clock.day(), end: harness.clock.day(), status: 'ALL' }, 1)) paged.push(...page.bookings.bookings!.map((booking) => booking.reference));
    expect(paged).toEqual(rows.map((row) => row.reference));
    expect(await atlas.bookingsMade(harness.clock.day(1), harness.clock.day(2))).toEqual([]);
  });
});
