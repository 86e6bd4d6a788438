import { INestApplicationContext, Injectable, Module } from '@nestjs/common';
import { NestFactory } from '@nestjs/core';
import { SupplierBookRequest, SupplierBooking } from '@hotel/contracts';
import { PlacedSupplierBooking, SimulatedSupplier, SupplierBookingOrder, SupplierPort, VENDORS, stayNights, supplierProviders } from '@hotel/inventory';
import { BookedRoom, NewSupplierBooking, SupplierBookingRecord, SupplierBookingTransaction, SupplierBookingsRepository } from './supplier-bookings.repository';
import { SupplierService } from './supplier.service';

/** A supplier of its own for the vendor code atlas (an HTTP client, say), counting what it is asked. */
@Injectable()
class CountingAtlas implements SupplierPort {
  readonly code = 'atlas';
  readonly name = 'Atlas Beds over HTTP';
  readonly calls: string[] = [];
  readonly orders: SupplierBookingOrder[] = [];
  private readonly search = new SimulatedSupplier(VENDORS.atlas);

  availability(...args: Parameters<SupplierPort['availability']>) {
    return this.search.availability(...args);
  }

  price(...args: Parameters<SupplierPort['price']>) {
    return this.search.price(...args);
  }

  recheck(...args: Parameters<SupplierPort['recheck']>) {
    return this.search.recheck(...args);
  }

  async book(order: SupplierBookingOrder): Promise<SupplierBooking> {
    this.calls.push(`book ${order.bookingId}`);
    this.orders.push(order);
    return { reference: `REMOTE-${order.bookingId}`, status: order.testScenario === 'supplier_pending' ? 'pending' : 'confirmed' };
  }

  /** What `status` answers next (the vendor confirms, unless a test says otherwise). */
  statusAnswer: SupplierBooking['status'] = 'confirmed';

  async status(booking: PlacedSupplierBooking): Promise<SupplierBooking> {
    this.calls.push(`status ${booking.bookingId}`);
    return { reference: booking.reference, status: this.statusAnswer };
  }

  async cancel(booking: PlacedSupplierBooking): Promise<SupplierBooking> {
    this.calls.push(`cancel ${booking.bookingId}`);
    return { reference: booking.reference, status: 'cancelled' };
  }
}

/** rates.supplier_bookings and rates.allotments in memory; a transaction whose work throws keeps nothing. */
class InMemorySupplierBookings {
  bookings = new Map<number, SupplierBookingRecord>();
  sold = new Map<string, number>();

  inBookingLock<T>(_bookingId: number, work: (booking: SupplierBookingTransaction) => Promise<T>): Promise<T> {
    return this.transaction(work);
  }

  inTransaction<T>(work: (booking: SupplierBookingTransaction) => Promise<T>): Promise<T> {
    return this.transaction(work);
  }

  async find(bookingId: number): Promise<SupplierBookingRecord | null> {
    return this.bookings.get(bookingId) ?? null;
  }

  async confirm(bookingId: number): Promise<SupplierBooking | null> {
    const booking = this.bookings.get(bookingId);
    if (!booking) return null;
    if (booking.status === 'pending') booking.status = 'confirmed';
    return { reference: booking.reference, status: booking.status };
  }

  roomsSoldOn(request: BookedRoom & Pick<SupplierBookRequest, 'checkIn' | 'checkOut'>): number[] {
    return stayNights({ check_in: request.checkIn, check_out: request.checkOut }).map((night) => this.sold.get(key(request, night)) ?? 0);
  }

  private async transaction<T>(work: (booking: SupplierBookingTransaction) => Promise<T>): Promise<T> {
    const bookings = new Map([...this.bookings].map(([id, booking]) => [id, { ...booking }]));
    const sold = new Map(this.sold);
    try {
      return await work(this.statements() as unknown as SupplierBookingTransaction);
    } catch (error) {
      this.bookings = bookings;
      this.sold = sold;
      throw error;
    }
  }

  private statements() {
    return {
      find: async (bookingId: number): Promise<SupplierBooking | null> => {
        const booking = this.bookings.get(bookingId);
        return booking ? { reference: booking.reference, status: booking.status } : null;
      },
      roomsSold: async (room: BookedRoom, night: string) => this.sold.get(key(room, night)) ?? 0,
      // As the statement does: every night with room taken, and whether all had room.
      take: async (room: BookedRoom, nights: string[], capacity: number) => {
        let taken = 0;
        for (const night of nights) {
          const sold = (this.sold.get(key(room, night)) ?? 0) + room.rooms;
          if (sold > capacity) continue;
          this.sold.set(key(room, night), sold);
          taken++;
        }
        return taken === nights.length;
      },
      insert: async (booking: NewSupplierBooking) => {
        this.bookings.set(booking.bookingId, { ...booking, createdAt: new Date() });
      },
      lock: async (bookingId: number) => this.bookings.get(bookingId) ?? null,
      giveBack: async (booking: SupplierBookingRecord) => {
        for (const night of stayNights({ check_in: booking.checkIn, check_out: booking.checkOut })) {
          this.sold.set(key(booking, night), (this.sold.get(key(booking, night)) ?? 0) - booking.rooms);
        }
      },
      markCancelled: async (bookingId: number) => {
        this.bookings.get(bookingId)!.status = 'cancelled';
      },
    };
  }
}

const key = (room: Pick<BookedRoom, 'vendor' | 'hotelId' | 'roomId'>, night: string) => `${room.vendor}:${room.hotelId}:${room.roomId}:${night}`;
const day = (offset: number) => new Date(Date.now() + offset * 86_400_000).toISOString().slice(0, 10);

describe('SupplierService (unit: the vendor behind its SupplierPort, the records in memory)', () => {
  let app: INestApplicationContext;
  let service: SupplierService;
  let atlas: CountingAtlas;
  let records: InMemorySupplierBookings;

  const request = (bookingId: number, changes: Partial<SupplierBookRequest> = {}): SupplierBookRequest => ({
    bookingId,
    vendor: 'atlas',
    hotelId: 298850701,
    roomId: 1,
    checkIn: day(40),
    checkOut: day(42),
    rooms: 1,
    sandbox: false,
    ...changes,
  });

  beforeEach(async () => {
    records = new InMemorySupplierBookings();
    @Module({
      providers: [...supplierProviders({ suppliers: [CountingAtlas] }), SupplierService, { provide: SupplierBookingsRepository, useValue: records }],
    })
    class TestModule {}
    app = await NestFactory.createApplicationContext(TestModule, { logger: false });
    service = app.get(SupplierService);
    atlas = app.get(CountingAtlas);
  });

  afterEach(async () => {
    await app.close();
  });

  it('books, cancels and asks the status through the supplier registered for the vendor code', async () => {
    expect(await service.book(request(7))).toEqual({ reference: 'REMOTE-7', status: 'confirmed' });
    const { vendor: _vendor, ...order } = request(7);
    expect(atlas.orders).toEqual([order]);
    expect(records.roomsSoldOn(request(7))).toEqual([1, 1]);

    // A repeat answers the record: the vendor is not asked twice for one booking.
    expect(await service.book(request(7))).toEqual({ reference: 'REMOTE-7', status: 'confirmed' });
    expect(await service.status(7)).toEqual({ reference: 'REMOTE-7', status: 'confirmed' });

    expect(await service.cancel(7)).toEqual({ reference: 'REMOTE-7', status: 'cancelled' });
    expect(await service.cancel(7)).toEqual({ reference: 'REMOTE-7', status: 'cancelled' });
    expect(records.roomsSoldOn(request(7))).toEqual([0, 0]);
    expect(atlas.calls).toEqual(['book 7', 'cancel 7']);
  });

  it('keeps the other vendors simulated', async () => {
    const booked = await service.book(request(8, { vendor: 'borealis' }));
    expect(booked).toEqual({ reference: expect.stringMatching(/^BOR-8-[0-9A-F]{6}$/), status: 'confirmed' });
    expect(atlas.calls).toEqual([]);
  });

  it('asks the vendor where a pending booking stands until it is confirmed, then answers the record', async () => {
    expect(await service.book(request(9, { sandbox: true, testScenario: 'supplier_pending' }))).toEqual({ reference: 'REMOTE-9', status: 'pending' });
    expect(records.roomsSoldOn(request(9))).toEqual([0, 0]); // a sandbox booking takes no room
    expect(await service.status(9)).toEqual({ reference: 'REMOTE-9', status: 'confirmed' });
    expect(await service.status(9)).toEqual({ reference: 'REMOTE-9', status: 'confirmed' });
    expect(atlas.calls).toEqual(['book 9', 'status 9']);
  });

  it('a pending booking the vendor then rejects gives its rooms back, and cancelling it asks the vendor nothing', async () => {
    // A live booking left pending (a vendor that confirms later), then rejected by the vendor.
    atlas.book = async (order) => ({ reference: `REMOTE-${order.bookingId}`, status: 'pending' });
    expect(await service.book(request(12))).toEqual({ reference: 'REMOTE-12', status: 'pending' });
    expect(records.roomsSoldOn(request(12))).toEqual([1, 1]);
    atlas.statusAnswer = 'rejected';
    expect(await service.status(12)).toEqual({ reference: 'REMOTE-12', status: 'rejected' });
    expect(records.roomsSoldOn(request(12))).toEqual([0, 0]);
    // The saga compensates: the cancel is answered from the record, once, with no vendor call and no second give-back.
    expect(await service.cancel(12)).toEqual({ reference: 'REMOTE-12', status: 'cancelled' });
    expect(await service.status(12)).toEqual({ reference: 'REMOTE-12', status: 'cancelled' });
    expect(atlas.calls.filter((call) => call.startsWith('cancel'))).toEqual([]);
    expect(records.roomsSoldOn(request(12))).toEqual([0, 0]);
  });

  it('keeps nothing when the vendor refuses or the room is gone', async () => {
    await expect(service.book(request(10, { vendor: 'cobalt', testScenario: 'supplier_error' }))).rejects.toMatchObject({ code: 'SUPPLIER_ERROR' });
    expect(records.bookings.size).toBe(0);
    expect(records.roomsSoldOn(request(10, { vendor: 'cobalt' }))).toEqual([0, 0]);

    await expect(service.book(request(11, { rooms: 9 }))).rejects.toMatchObject({ code: 'RATE_NOT_AVAILABLE' });
    expect(atlas.calls).toEqual([]);
    await expect(service.status(11)).rejects.toMatchObject({ code: 'NOT_FOUND' });
    await expect(service.cancel(11)).rejects.toMatchObject({ code: 'NOT_FOUND' });
  });
});
