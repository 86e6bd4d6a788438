import { HotelbedsError, type BookingRS } from '@hotel/hotelbeds';
import { allotmentCapacity } from '../src/inventory/simulated-inventory';
import { roomIdOfCode } from '../src/inventory/vendor-codes';
import { FoundRate, SimulatorHarness, allRates, carriedCodes, firstRate, startSimulatorHarness } from './simulator-harness';

/** Bookings that race for the same rooms, against the real PostgreSQL. */
describe('vendor simulator: racing bookings', () => {
  let harness: SimulatorHarness;

  beforeAll(async () => {
    harness = await startSimulatorHarness({ DB_POOL_SIZE: '8' });
  });

  afterAll(async () => {
    await harness?.close();
  });

  const couple = [{ rooms: 1, adults: 2, children: 0 }];

  it('never sells a night beyond the allotment: many bookings of overlapping stays for the last rooms at once', async () => {
    const atlas = harness.client('atlas', { maxSockets: 64 });
    // Three overlapping stays: nights 70-72, 71-73 and 72-74 days ahead; night 72 is in all three, so exactly its capacity can be sold.
    const stays = [70, 71, 72].map((offset) => ({ checkIn: harness.clock.day(offset), checkOut: harness.clock.day(offset + 3) }));
    const codes = carriedCodes('atlas', 60);
    const answers = await Promise.all(stays.map((stay) => atlas.availability({ stay, occupancies: couple, hotels: { hotel: codes } })));
    // A refundable rate of one hotel, room type and board offered for all three stays (a vendor closes some nights).
    const sameRate = (a: FoundRate) => (b: FoundRate) => b.hotel.code === a.hotel.code && b.room.code === a.room.code && b.rate.rateClass === 'NOR' && b.rate.boardCode === a.rate.boardCode;
    const offeredInAll = (candidate: FoundRate) => candidate.rate.rateClass === 'NOR' && answers.every((answer) => allRates(answer).some(sameRate(candidate)));
    const wanted = firstRate(answers[0], offeredInAll);
    const keys = answers.map((answer) => firstRate(answer, sameRate(wanted)).rate.rateKey!);
    const roomId = roomIdOfCode(wanted.room.code!)!;
    const capacity = allotmentCapacity('atlas', wanted.hotel.code, roomId);

    const attempts = 3 * capacity + 6;
    const outcomes = await Promise.allSettled(
      Array.from({ length: attempts }, (_, index) =>
        atlas.book({ holder: { name: 'Racer', surname: `No${index}` }, rooms: [{ rateKey: keys[index % 3] }], clientReference: `RACE-${index}` }),
      ),
    );
    const booked = outcomes.filter((outcome): outcome is PromiseFulfilledResult<BookingRS> => outcome.status === 'fulfilled').map((outcome) => outcome.value.booking);
    const refused = outcomes.filter((outcome): outcome is PromiseRejectedResult => outcome.status === 'rejected').map((outcome) => outcome.reason as HotelbedsError);
    for (const error of refused) expect(error).toMatchObject({ kind: 'refused', code: 'RATE_NOT_AVAILABLE', vendorCode: 'PRODUCT_ERROR', vendorMessage: 'Insufficient allotment' });
    expect(booked.length).toBe(capacity);
    expect(booked.length + refused.length).toBe(attempts);

    // Every night: rooms sold as the bookings say, and never above capacity.
    const nights = await harness.query<{ night: string; rooms_sold: number; capacity: number }>(
      `SELECT to_char(night, 'YYYY-MM-DD') AS night, rooms_sold, capacity FROM vendor_simulator.allotments WHERE vendor = 'atlas' AND hotel_code = $1 AND room_id = $2 ORDER BY night`,
      [wanted.hotel.code, roomId],
    );
    // (A night only the losers asked for has no row: their transactions were rolled back.)
    expect(nights.length).toBeGreaterThanOrEqual(3);
    for (const row of nights) expect([70, 71, 72, 73, 74].map((offset) => harness.clock.day(offset))).toContain(row.night);
    for (const row of nights) {
      expect(row.capacity).toBe(capacity);
      expect(row.rooms_sold).toBeLessThanOrEqual(capacity);
      const covering = booked.filter((booking) => booking.hotel!.checkIn! <= row.night && row.night < booking.hotel!.checkOut!);
      expect(row.rooms_sold).toBe(covering.length);
    }
    // The night all three stays share is sold out.
    expect(nights.find((row) => row.night === harness.clock.day(72))!.rooms_sold).toBe(capacity);
  });

  it('the same client reference and rooms booked twice at once is one booking', async () => {
    const borealis = harness.client('borealis');
    const stay = { checkIn: harness.clock.day(90), checkOut: harness.clock.day(92) };
    const { hotel, room, rate } = firstRate(await borealis.availability({ stay, occupancies: couple, hotels: { hotel: carriedCodes('borealis', 40) } }), ({ rate }) => rate.rateType === 'BOOKABLE');
    const request = { holder: { name: 'Twin', surname: 'Request' }, rooms: [{ rateKey: rate.rateKey! }], clientReference: 'TWICE-1' };
    const answers = await Promise.all(Array.from({ length: 5 }, () => borealis.book(request)));
    expect(new Set(answers.map((answer) => answer.booking.reference)).size).toBe(1);
    const rows = await harness.query<{ count: string }>(`SELECT count(*) AS count FROM vendor_simulator.bookings WHERE vendor = 'borealis' AND client_reference = 'TWICE-1'`);
    expect(rows[0].count).toBe('1');
    const sold = await harness.query<{ rooms_sold: number }>(`SELECT rooms_sold FROM vendor_simulator.allotments WHERE vendor = 'borealis' AND hotel_code = $1 AND room_id = $2`, [
      hotel.code,
      roomIdOfCode(room.code!),
    ]);
    expect(sold.map((row) => row.rooms_sold)).toEqual([1, 1]);
    // Another booking with the same client reference but other rooms is another booking (the reference is a label).
    const other = firstRate(await borealis.availability({ stay, occupancies: [{ rooms: 1, adults: 1, children: 0 }], hotels: { hotel: [hotel.code] } }));
    const second = await borealis.book({ ...request, rooms: [{ rateKey: other.rate.rateKey! }] });
    expect(second.booking.reference).not.toBe(answers[0].booking.reference);
  });
});
