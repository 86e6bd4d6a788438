import { SupplierBookRequest } from '@hotel/contracts';
import { ServiceHarness } from '@hotel/testing';
import { CountingVendor } from '../../test/counting-vendor';
import { startRatesHarness } from '../../test/rates-fixtures';
import { RatesEnv } from '../rates.env';
import { SupplierService } from './supplier.service';

// Service tier: SupplierService with the rates app's providers on a fresh PostgreSQL
// database, around a vendor of the test's own for atlas (CountingVendor), which counts what
// it is asked and can lose an answer; the others are at the vendor simulator. The vendor
// keeps its allotment (the simulator's tests race for it): the platform keeps its record.

const day = (offset: number) => new Date(Date.now() + offset * 86_400_000).toISOString().slice(0, 10);
const HOTEL = 298850701;
const ROOM = 1;

describe('SupplierService with a vendor over the network (service tier: real PostgreSQL)', () => {
  let harness: ServiceHarness<RatesEnv>;
  let supplier: SupplierService;
  let vendor: CountingVendor;
  let nextStay = 100;

  /** A booking of its own dates. */
  const request = (bookingId: number, changes: Partial<SupplierBookRequest> = {}): SupplierBookRequest => {
    nextStay += 3;
    return { bookingId, vendor: 'atlas', hotelId: HOTEL, roomId: ROOM, checkIn: day(nextStay), checkOut: day(nextStay + 2), rooms: 1, sandbox: false, ...changes };
  };
  const record = async (bookingId: number) =>
    ((await harness.dataSource.query(`SELECT status, reference FROM rates.supplier_bookings WHERE booking_id = $1`, [bookingId])) as { status: string; reference: string | null }[])[0] ?? null;
  /**
   * What another connection sees while the vendor works: no lock of this booking is held
   * (its advisory lock, two keys: objid is the booking id) and no transaction holds the
   * supplier bookings' table, so none is open for it. Only this booking's and that table's
   * locks count: the service's own background work (an exchange-rate refresh at its start)
   * may hold a transaction of its own at that moment, as it once did in a CI run.
   */
  const heldLocks = async (bookingId: number) =>
    Number(
      (
        (await harness.dataSource.query(
          `SELECT count(*)::int AS held FROM pg_locks
            WHERE pid IN (SELECT pid FROM pg_stat_activity WHERE datname = current_database()) AND pid <> pg_backend_pid()
              AND ((locktype = 'advisory' AND objsubid = 2 AND objid = $1) OR (locktype = 'relation' AND relation = 'rates.supplier_bookings'::regclass))`,
          [bookingId],
        )) as { held: number }[]
      )[0].held,
    );

  beforeAll(async () => {
    harness = await startRatesHarness({ suppliers: [CountingVendor], env: { SUPPLIER_ATTEMPT_S: '1' } });
    supplier = harness.get(SupplierService);
    vendor = harness.get(CountingVendor);
  });
  beforeEach(() => {
    vendor.calls.length = 0;
    vendor.whileWorking = null;
  });
  afterAll(async () => {
    await harness?.close();
  });

  it('sees a transaction holding a booking\'s lock or the supplier bookings\' table (what the tests below rule out)', async () => {
    const runner = harness.dataSource.createQueryRunner();
    await runner.connect();
    try {
      await runner.startTransaction();
      await runner.query(`SELECT pg_advisory_xact_lock(hashtext('supplier-booking'), $1)`, [99]);
      expect(await heldLocks(99)).toBe(1);
      expect(await heldLocks(98)).toBe(0);
      await runner.query(`SELECT count(*) FROM rates.supplier_bookings`);
      expect(await heldLocks(98)).toBeGreaterThan(0);
    } finally {
      await runner.rollbackTransaction();
      await runner.release();
    }
    expect(await heldLocks(99)).toBe(0);
  });

  it('reserves, then calls the vendor with no transaction open, then records its answer; a repeat answers the record', async () => {
    const booking = request(1);
    vendor.whileWorking = async () => {
      // The reservation is committed before the call: another connection sees it.
      expect(await record(1)).toEqual({ status: 'requested', reference: null });
      expect(await heldLocks(1)).toBe(0);
    };
    expect(await supplier.book(booking)).toEqual({ reference: 'REMOTE-1-1', status: 'confirmed' });
    expect(await record(1)).toEqual({ status: 'confirmed', reference: 'REMOTE-1-1' });
    expect(await supplier.book(booking)).toEqual({ reference: 'REMOTE-1-1', status: 'confirmed' });
    expect(vendor.calls).toEqual(['book 1']);
  });

  it('an answer that never came is asked of the vendor before booking again: one platform booking is one vendor booking', async () => {
    const booking = request(2);
    vendor.loseNextAnswer = true;
    await expect(supplier.book(booking)).rejects.toThrow('did not answer');
    expect(await record(2)).toEqual({ status: 'requested', reference: null });
    // While the lost attempt still has the call in hand, another waits.
    await expect(supplier.book(booking)).rejects.toMatchObject({ code: 'SERVICE_UNAVAILABLE' });
    await new Promise((resolve) => setTimeout(resolve, 1100));
    expect(await supplier.book(booking)).toEqual({ reference: 'REMOTE-2-1', status: 'confirmed' });
    expect(vendor.calls).toEqual(['book 2', 'find 2']);
    expect(await record(2)).toEqual({ status: 'confirmed', reference: 'REMOTE-2-1' });
  });

  it('a lost answer the vendor did not make is booked once more', async () => {
    const booking = request(3);
    // The vendor never got the order: the call failed before it arrived.
    const book = vendor.book.bind(vendor);
    vendor.book = async () => {
      vendor.calls.push('book 3 (lost on the way)');
      throw new Error('connection reset');
    };
    await expect(supplier.book(booking)).rejects.toThrow('connection reset');
    vendor.book = book;
    await new Promise((resolve) => setTimeout(resolve, 1100));
    expect(await supplier.book(booking)).toMatchObject({ status: 'confirmed' });
    expect(vendor.calls).toEqual(['book 3 (lost on the way)', 'find 3', 'book 3']);
    expect(await record(3)).toEqual({ status: 'confirmed', reference: 'REMOTE-3-1' });
  });

  it('an attempt that outlives its time and answers after a later one booked cancels its own, second vendor booking', async () => {
    const booking = request(7);
    let release!: () => void;
    const slow = new Promise<void>((resolve) => (release = resolve));
    vendor.whileWorking = async () => {
      vendor.whileWorking = null; // only the first attempt is slow
      await slow;
    };
    const first = supplier.book(booking);
    await new Promise((resolve) => setTimeout(resolve, 1100));
    // The first attempt's time (SUPPLIER_ATTEMPT_S = 1) has run out: the vendor has nothing yet, so it is booked again.
    expect(await supplier.book(booking)).toEqual({ reference: 'REMOTE-7-2', status: 'confirmed' });
    release();
    // The first answer arrives late: the record stands, and that vendor booking is cancelled.
    expect(await first).toEqual({ reference: 'REMOTE-7-2', status: 'confirmed' });
    expect(vendor.calls).toEqual(['book 7', 'find 7', 'book 7', 'cancel 7']);
    expect(await record(7)).toEqual({ status: 'confirmed', reference: 'REMOTE-7-2' });
  });

  it('a refusal keeps nothing', async () => {
    const booking = request(4);
    vendor.bookAnswer = 'rejected';
    await expect(supplier.book(booking)).rejects.toMatchObject({ code: 'SUPPLIER_ERROR' });
    vendor.bookAnswer = 'confirmed';
    expect(await record(4)).toBeNull();
    await expect(supplier.status(4)).rejects.toMatchObject({ code: 'NOT_FOUND' });
  });

  it('cancels with the vendor first, with no transaction open, then records it once however many cancellations race', async () => {
    const booking = request(5);
    await supplier.book(booking);
    vendor.calls.length = 0;
    // One cancellation: while the vendor works, nothing is locked and the booking still stands.
    vendor.whileWorking = async () => {
      vendor.whileWorking = null;
      expect(await heldLocks(5)).toBe(0);
      expect(await record(5)).toEqual({ status: 'confirmed', reference: 'REMOTE-5-1' });
      // Two more cancellations arrive meanwhile.
      racing = [supplier.cancel(5), supplier.cancel(5)];
    };
    let racing: Promise<unknown>[] = [];
    const first = await supplier.cancel(5);
    const answers = [first, ...(await Promise.all(racing))];
    expect(answers).toEqual(Array(3).fill({ reference: 'REMOTE-5-1', status: 'cancelled' }));
    expect(await record(5)).toEqual({ status: 'cancelled', reference: 'REMOTE-5-1' });
    // Once cancelled, cancelling again asks the vendor nothing.
    const asked = vendor.calls.length;
    await supplier.cancel(5);
    expect(vendor.calls).toHaveLength(asked);
  });

  it('asks the vendor where a pending booking stands; one it then rejects is recorded cancelled, and cancelling it asks the vendor nothing', async () => {
    const booking = request(6, { sandbox: false });
    vendor.bookAnswer = 'pending';
    expect(await supplier.book(booking)).toMatchObject({ status: 'pending' });
    vendor.bookAnswer = 'confirmed';
    vendor.statusAnswer = 'rejected';
    expect(await supplier.status(6)).toMatchObject({ status: 'rejected' });
    expect(await record(6)).toMatchObject({ status: 'cancelled' });
    expect(await supplier.cancel(6)).toMatchObject({ status: 'cancelled' });
    expect(vendor.calls.filter((call) => call.startsWith('cancel'))).toEqual([]);
    vendor.statusAnswer = 'confirmed';
  });
});
