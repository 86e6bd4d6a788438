import { SupplierBookRequest } from '@hotel/contracts';
import { allotmentCapacity } from '@hotel/inventory';
import { ServiceHarness } from '@hotel/testing';
import { startRatesHarness } from '../../test/rates-fixtures';
import { RatesEnv } from '../rates.env';
import { SupplierService } from './supplier.service';

// Service tier: SupplierService with the rates app's providers on a fresh PostgreSQL
// database: the rooms of a stay are taken by one statement for all its nights.

const day = (offset: number) => new Date(Date.now() + offset * 86_400_000).toISOString().slice(0, 10);
const HOTEL = 298850701;
const ROOM = 1;

describe('SupplierService (service tier: real PostgreSQL)', () => {
  let harness: ServiceHarness<RatesEnv>;
  let supplier: SupplierService;
  const capacity = allotmentCapacity('atlas', HOTEL, ROOM);

  const request = (bookingId: number, checkIn: number, checkOut: number): SupplierBookRequest => ({
    bookingId,
    vendor: 'atlas',
    hotelId: HOTEL,
    roomId: ROOM,
    checkIn: day(checkIn),
    checkOut: day(checkOut),
    rooms: 1,
    sandbox: false,
  });
  const soldPerNight = async () =>
    (await harness.dataSource.query(`SELECT night::text AS night, rooms_sold FROM rates.allotments WHERE hotel_id = $1 ORDER BY night`, [HOTEL])) as { night: string; rooms_sold: number }[];

  beforeAll(async () => {
    harness = await startRatesHarness();
    supplier = harness.get(SupplierService);
  });
  afterAll(async () => {
    await harness?.close();
  });

  it('bookings racing for a stay never take more rooms than the allotment on any night', async () => {
    const racers = capacity + 4;
    const outcomes = await Promise.allSettled(Array.from({ length: racers }, (_, i) => supplier.book(request(1000 + i, 50, 53))));
    const booked = outcomes.filter((outcome) => outcome.status === 'fulfilled');
    const refused = outcomes.filter((outcome): outcome is PromiseRejectedResult => outcome.status === 'rejected');
    expect(booked).toHaveLength(capacity);
    expect(refused.map((outcome) => (outcome.reason as { code: string }).code)).toEqual(Array(racers - capacity).fill('RATE_NOT_AVAILABLE'));
    expect(await soldPerNight()).toEqual([day(50), day(51), day(52)].map((night) => ({ night, rooms_sold: capacity })));
    const [{ records }] = await harness.dataSource.query(`SELECT count(*)::int AS records FROM rates.supplier_bookings WHERE hotel_id = $1`, [HOTEL]);
    expect(records).toBe(capacity);
  });

  it('a stay whose last night is full takes no room on its other nights', async () => {
    // Nights 48 and 49 are free; night 50 is full (the race above).
    await expect(supplier.book(request(2000, 48, 51))).rejects.toMatchObject({ code: 'RATE_NOT_AVAILABLE' });
    expect((await soldPerNight()).map((row) => row.night)).toEqual([day(50), day(51), day(52)]);
    // The same nights without the full one are booked, in one go.
    await expect(supplier.book(request(2001, 48, 50))).resolves.toMatchObject({ status: 'confirmed' });
    expect((await soldPerNight()).slice(0, 2)).toEqual([
      { night: day(48), rooms_sold: 1 },
      { night: day(49), rooms_sold: 1 },
    ]);
  });
});
