import { VendorDifference } from '@hotel/contracts';
import { Hotel, Stay, Suppliers, SupplierPort, hotelsForPlace, priceEpoch } from '@hotel/inventory';
import { loadEnv } from '@hotel/platform';
import { ServiceHarness, TestDatabase, createTestDatabase } from '@hotel/testing';
// eslint-disable-next-line @nx/enforce-module-boundaries -- the vendor simulator is this test's vendor, started in the test's process over HTTP as the system tests start it
import { SimulatorEnv } from '../../../vendor-simulator/src/simulator.env';
// eslint-disable-next-line @nx/enforce-module-boundaries -- as above
import { RunningSimulator, startSimulator } from '../../../vendor-simulator/src/start-simulator';
// eslint-disable-next-line @nx/enforce-module-boundaries -- as above
import { VENDORS, vendorCarries } from '../../../vendor-simulator/src/inventory/simulated-inventory';
import { startRatesHarness } from '../../test/rates-fixtures';
import { RatesEnv } from '../rates.env';
import { DAILY_RECONCILIATION_JOB, DailyVendorReconciliation } from './daily-vendor-reconciliation';
import { VendorReconciliationService } from './vendor-reconciliation.service';

// Service tier: the rates service's reconciliation with its remote vendors, the vendor
// simulator's atlas, borealis and cobalt over HTTP (VENDOR_SIMULATOR_URL), on fresh
// PostgreSQL databases (the simulator's and the rates service's). Bookings are made at the
// vendor through the platform's HotelbedsSupplier; the platform's records are arranged
// so that each kind of difference occurs once beside bookings that match.

const PARIS = 'gn:2988507';
const DAY_MS = 86_400_000;
const day = (offset: number) => new Date(Date.now() + offset * DAY_MS).toISOString().slice(0, 10);
const HOLDER = { name: 'Ada', surname: 'Lovelace' };

describe('VendorReconciliationService (service tier: the vendor simulator over HTTP, real PostgreSQL)', () => {
  let simulatorDatabase: TestDatabase;
  let simulator: RunningSimulator;
  let harness: ServiceHarness<RatesEnv>;
  let reconciliation: VendorReconciliationService;
  let atlas: SupplierPort;
  const hotels: Hotel[] = (hotelsForPlace(PARIS) ?? []).filter((hotel) => vendorCarries(VENDORS.atlas, hotel.id)).slice(0, 12);
  let nextStay = 30;

  const sql = <T = Record<string, unknown>>(text: string, params: unknown[] = []) => harness.dataSource.query(text, params) as Promise<T[]>;

  beforeAll(async () => {
    simulatorDatabase = await createTestDatabase();
    simulator = await startSimulator(loadEnv(SimulatorEnv, { DATABASE_URL: simulatorDatabase.url, PORT: '0', VENDOR_LATENCY_MS: 'atlas=0,borealis=0,cobalt=0', LOG_LEVEL: 'fatal' }));
    harness = await startRatesHarness({ env: { VENDOR_SIMULATOR_URL: simulator.url, LOG_LEVEL: 'fatal' } });
    // The daily job looked at start (and may have run over yesterday): stopped, and what it did forgotten, so each test sees only its own runs.
    await harness.get(DailyVendorReconciliation).onModuleDestroy();
    await sql('DELETE FROM rates.vendor_reconciliations');
    await sql('DELETE FROM rates.job_leases');
    reconciliation = harness.get(VendorReconciliationService);
    atlas = harness.get(Suppliers).of('atlas');
  });

  afterAll(async () => {
    await harness?.close();
    await simulator?.close();
    await simulatorDatabase?.drop();
  });

  /** Books a refundable room at atlas for a stay of its own, through the platform's adapter; what the platform would record of it. */
  async function bookAtAtlas(bookingId: number) {
    nextStay += 3;
    const stay: Stay = { check_in: day(nextStay), check_out: day(nextStay + 2), rooms: [{ adults: 2, children: 0, children_ages: [] }] };
    const offers = await atlas.availability(hotels, stay, { includeMemberRates: false, context: { epoch: priceEpoch(Date.now()), issuedAt: new Date() } });
    const index = offers.findIndex((hotelOffers) => hotelOffers.some((offer) => offer.key.refundable));
    const key = (await atlas.recheck(hotels[index], offers[index].find((offer) => offer.key.refundable)!.key, stay))!;
    const booking = { bookingId, hotelId: hotels[index].id, roomId: key.roomId, checkIn: stay.check_in, checkOut: stay.check_out, rooms: 1 };
    const { reference, status } = await atlas.book({ ...booking, sandbox: false, vendorRate: key.vendorRate, holder: HOLDER });
    expect(status).toBe('confirmed');
    return { ...booking, reference };
  }

  /** A row of rates.supplier_bookings as the booking flow writes it (made today). */
  async function record(booking: { bookingId: number; hotelId: number; roomId: number; checkIn: string; checkOut: string; reference: string }, status: string, changes: { vendor?: string; sandbox?: boolean } = {}) {
    await sql(
      `INSERT INTO rates.supplier_bookings (booking_id, vendor, hotel_id, room_id, check_in, check_out, rooms, reference, status, sandbox) VALUES ($1, $2, $3, $4, $5, $6, 1, $7, $8, $9)`,
      [booking.bookingId, changes.vendor ?? 'atlas', booking.hotelId, booking.roomId, booking.checkIn, booking.checkOut, booking.reference, status, changes.sandbox ?? false],
    );
  }

  const cancelAtAtlas = (booking: { bookingId: number; reference: string }) => atlas.cancel({ ...booking, status: 'confirmed', sandbox: false, placedAt: new Date() });

  it('names exactly the booking the vendor lacks, the one the platform has no record of and the one cancelled at the vendor only; matching ones are no difference', async () => {
    const matching = await bookAtAtlas(81_001);
    await record(matching, 'confirmed');
    const cancelledBoth = await bookAtAtlas(81_002);
    await cancelAtAtlas(cancelledBoth);
    await record(cancelledBoth, 'cancelled');
    const cancelledAtVendor = await bookAtAtlas(81_003);
    await record(cancelledAtVendor, 'confirmed');
    await cancelAtAtlas(cancelledAtVendor);
    // Made at the vendor, never recorded (the platform lost it, or never made it).
    const unknown = await bookAtAtlas(81_004);
    // Recorded, never made at the vendor.
    const missing = { bookingId: 81_005, hotelId: hotels[0].id, roomId: 1, checkIn: day(90), checkOut: day(92), reference: '101-9999999' };
    await record(missing, 'confirmed');
    // Neither reconciled: a sandbox booking (never at a vendor) and another vendor's.
    await record({ ...missing, bookingId: 81_006, reference: 'HOT-81006-ABCDEF' }, 'confirmed', { sandbox: true });
    await record({ ...missing, bookingId: 81_007, reference: '102-1000001' }, 'confirmed', { vendor: 'borealis' });

    const { reports, failures } = await reconciliation.run({ vendor: 'atlas', from: day(0), to: day(0) }, 'command');
    expect(failures).toEqual([]);
    expect(reports).toHaveLength(1);
    const [report] = reports;
    expect(report).toMatchObject({ vendor: 'atlas', from: day(0), to: day(0), trigger: 'command', platformBookings: 4, vendorBookings: 4, missingAtVendor: 1, unknownToPlatform: 1, statusMismatch: 1 });
    expect(report.differences).toEqual<VendorDifference[]>([
      { kind: 'missing_at_vendor', bookingId: 81_005, reference: '101-9999999', clientReference: null, platformStatus: 'confirmed', vendorStatus: null, createdOn: day(0), net: null, currency: null },
      {
        kind: 'unknown_to_platform',
        bookingId: 81_004,
        reference: unknown.reference,
        clientReference: 'HB81004',
        platformStatus: null,
        vendorStatus: 'confirmed',
        createdOn: day(0),
        net: expect.stringMatching(/^\d+\.\d{2}$/),
        currency: 'EUR',
      },
      {
        kind: 'status_mismatch',
        bookingId: 81_003,
        reference: cancelledAtVendor.reference,
        clientReference: 'HB81003',
        platformStatus: 'confirmed',
        vendorStatus: 'cancelled',
        createdOn: day(0),
        // Cancelled a month ahead: it cost nothing.
        net: '0.00',
        currency: 'EUR',
      },
    ]);

    // Kept for the finance team, and listed for the period.
    const [kept] = await sql<{ vendor: string; period_start: string; period_end: string; missing_at_vendor: number; differences: VendorDifference[] }>(
      `SELECT vendor, to_char(period_start, 'YYYY-MM-DD') AS period_start, to_char(period_end, 'YYYY-MM-DD') AS period_end, missing_at_vendor, differences FROM rates.vendor_reconciliations WHERE id = $1`,
      [report.id],
    );
    expect(kept).toEqual({ vendor: 'atlas', period_start: day(0), period_end: day(0), missing_at_vendor: 1, differences: report.differences });
    expect(await reconciliation.list(day(-3), day(3))).toEqual({ reports: [report], reportCount: 1 });
    expect(await reconciliation.list(day(1), day(3))).toEqual({ reports: [], reportCount: 0 });

    // Once the platform records what the vendor says, a run again finds nothing, and the list has only the newest run.
    await record(unknown, 'confirmed');
    await sql(`UPDATE rates.supplier_bookings SET status = 'cancelled' WHERE booking_id = 81003`);
    await sql(`DELETE FROM rates.supplier_bookings WHERE booking_id = 81005`);
    const again = await reconciliation.run({ vendor: 'atlas', from: day(0), to: day(0) }, 'command');
    expect(again.reports[0]).toMatchObject({ platformBookings: 4, vendorBookings: 4, missingAtVendor: 0, unknownToPlatform: 0, statusMismatch: 0, differences: [] });
    expect(await reconciliation.list(day(0), day(0))).toEqual({ reports: again.reports, reportCount: 1 });
  });

  it('a record still waiting for the answer of a booking the vendor made is a status mismatch, not an unknown booking', async () => {
    const booked = await bookAtAtlas(81_010);
    await sql(`INSERT INTO rates.supplier_bookings (booking_id, vendor, hotel_id, room_id, check_in, check_out, rooms, status) VALUES ($1, 'atlas', $2, $3, $4, $5, 1, 'requested')`, [
      booked.bookingId,
      booked.hotelId,
      booked.roomId,
      booked.checkIn,
      booked.checkOut,
    ]);
    const { reports } = await reconciliation.run({ vendor: 'atlas', from: day(0), to: day(0) }, 'command');
    expect(reports[0].differences).toEqual([expect.objectContaining({ kind: 'status_mismatch', bookingId: 81_010, reference: booked.reference, platformStatus: 'requested', vendorStatus: 'confirmed' })]);
    await sql(`UPDATE rates.supplier_bookings SET status = 'confirmed', reference = $2 WHERE booking_id = $1`, [booked.bookingId, booked.reference]);
  });

  it('every remote vendor by default; a vendor that is not a remote one is refused, naming those configured', async () => {
    const { reports } = await reconciliation.run({ from: day(0), to: day(0) }, 'command');
    expect(reports.map((report) => [report.vendor, report.platformBookings, report.missingAtVendor + report.unknownToPlatform + report.statusMismatch])).toEqual([
      ['atlas', 5, 0],
      // The borealis record made above was never made at the vendor.
      ['borealis', 1, 1],
      ['cobalt', 0, 0],
    ]);
    await expect(reconciliation.run({ vendor: 'hotelbeds', from: day(0), to: day(0) }, 'command')).rejects.toMatchObject({
      code: 'VALIDATION_FAILED',
      errors: [{ field: 'vendor', message: 'hotelbeds is not a remote vendor; the remote vendors configured are atlas, borealis, cobalt' }],
    });
  });

  it('the daily job: nothing before the hour; from it, yesterday once for every remote vendor, by one replica of those looking at once', async () => {
    const daily = harness.get(DailyVendorReconciliation);
    const at = (iso: string) => new Date(iso);
    await expect(daily.tick(at('2020-01-02T02:59:00Z'))).resolves.toEqual({ outcome: 'not-yet' });
    const outcomes = await Promise.all([0, 1, 2].map(() => daily.tick(at('2020-01-02T03:00:00Z'))));
    const ran = outcomes.filter((outcome) => outcome.outcome === 'ran');
    expect(ran).toHaveLength(1);
    // The others found the lease held, or (looking after the run) the day done.
    for (const other of outcomes.filter((outcome) => outcome.outcome !== 'ran')) expect(['skipped', 'done']).toContain(other.outcome);
    expect(ran[0]).toMatchObject({ day: '2020-01-01', failures: [], reports: ['atlas', 'borealis', 'cobalt'].map((vendor) => ({ vendor, from: '2020-01-01', to: '2020-01-01', trigger: 'daily' })) });
    // Done: no replica runs it again, even with the lease run out.
    await sql(`UPDATE rates.job_leases SET taken_until = now() - interval '1 second' WHERE job = $1`, [DAILY_RECONCILIATION_JOB]);
    await expect(daily.tick(at('2020-01-02T15:00:00Z'))).resolves.toEqual({ outcome: 'done', day: '2020-01-01' });
    const [{ runs }] = await sql<{ runs: number }>(`SELECT count(*)::int AS runs FROM rates.vendor_reconciliations WHERE period_start = '2020-01-01'`);
    expect(runs).toBe(3);
  });

  it('a vendor that cannot list its bookings is a failure of its own; the others are reconciled and nothing is kept for it', async () => {
    const setFaults = (faults: object) => fetch(`${simulator.url}/_simulator/faults`, { method: 'POST', headers: { 'content-type': 'application/json' }, body: JSON.stringify(faults) });
    expect((await setFaults({ cobalt: { serverErrorShare: 1, operations: ['bookingList'] } })).status).toBe(200);
    try {
      const before = await sql<{ runs: number }>(`SELECT count(*)::int AS runs FROM rates.vendor_reconciliations WHERE vendor = 'cobalt'`);
      const { reports, failures } = await reconciliation.run({ from: day(0), to: day(0) }, 'command');
      expect(reports.map((report) => report.vendor)).toEqual(['atlas', 'borealis']);
      expect(failures).toEqual([{ vendor: 'cobalt', message: expect.stringContaining('HTTP 500') }]);
      expect(await sql(`SELECT count(*)::int AS runs FROM rates.vendor_reconciliations WHERE vendor = 'cobalt'`)).toEqual(before);
    } finally {
      await setFaults({ cobalt: {} });
    }
  });
});
