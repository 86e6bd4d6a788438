import { randomUUID } from 'node:crypto';
import { lastValueFrom, toArray } from 'rxjs';
import { Actor, BookingListFilter, TaggedBookingPageChunk } from '@hotel/contracts';
import { ServiceHarness } from '@hotel/testing';
import { newBookingTemplate, startBookingHarness } from '../../test/booking-fixtures';
import { BookingEnv } from '../booking.env';
import { BookingsController } from './bookings.controller';
import { BookingsRepository, NewBooking } from './bookings.repository';
import { BookingsService } from './bookings.service';
import { Vouchers } from '../vouchers/vouchers';

// Service tier: the booking list as the bus reaches it (real PostgreSQL). booking.booking.list.v4
// takes its filter in the booking context's words (the gateway maps GET /book's query).

const DAY_MS = 86_400_000;
const day = (offset: number) => new Date(Date.now() + offset * DAY_MS).toISOString().slice(0, 10);

describe('booking list (service tier)', () => {
  let harness: ServiceHarness<BookingEnv>;
  let controller: BookingsController;
  const actor: Actor = { clientId: 41, userId: null, role: 'api', sandbox: false };
  const ids: Record<'alpha' | 'beta' | 'lodge', number> = { alpha: 0, beta: 0, lodge: 0 };

  /** The page's head, and the ids of its bookings in the order sent. */
  async function page(chunks: TaggedBookingPageChunk[]) {
    const [head, ...bytes] = chunks;
    const text = Buffer.concat(bytes as Uint8Array[]).toString('utf8');
    const bookings = text ? (JSON.parse(`[${text}]`) as { id: number }[]) : [];
    return { head, ids: bookings.map((booking) => booking.id) };
  }
  const list = async (filter: BookingListFilter, ifNoneMatch?: string) => page(await lastValueFrom(controller.list({ actor, filter, ifNoneMatch }).pipe(toArray())));

  beforeAll(async () => {
    harness = await startBookingHarness();
    controller = new BookingsController(harness.get(BookingsService), harness.get(Vouchers));
    const template = newBookingTemplate();
    const bookings = harness.get(BookingsRepository);
    const make = async (changes: Partial<NewBooking>) =>
      (await bookings.insert({ ...template, clientId: actor.clientId, prebookId: randomUUID(), requestFingerprint: randomUUID(), ...changes }, harness.env.IDEMPOTENCY_HOURS)).id;
    ids.alpha = await make({ hotelName: 'Alpha Palace', checkIn: day(30), checkOut: day(32), priceChargeable: '100.00', firstName: 'Ada' });
    ids.beta = await make({ hotelName: 'Beta Inn', checkIn: day(31), checkOut: day(33), priceChargeable: '300.00', firstName: 'Grace' });
    ids.lodge = await make({ hotelName: 'Alpha Lodge', checkIn: day(32), checkOut: day(34), priceChargeable: '200.00', firstName: 'Alan', clientReference: 'REF-LODGE' });
    // Another client's booking, which no filter shows.
    await make({ clientId: actor.clientId + 1, hotelName: 'Alpha Elsewhere' });
  });
  afterAll(() => harness?.close());

  it('v4 filters, sorts and pages by the filter: newest first by default, the total of all matches in a tagged head', async () => {
    const all = await list({});
    expect(all.head).toEqual({ total: 3, etag: expect.any(String) });
    expect(all.ids).toEqual([ids.lodge, ids.beta, ids.alpha]);
    expect((await list({ sortBy: 'priceChargeable', sortOrder: 'asc' })).ids).toEqual([ids.alpha, ids.lodge, ids.beta]);
    expect((await list({ hotelName: 'alpha' })).ids).toEqual([ids.lodge, ids.alpha]);
    expect((await list({ checkIn: { from: day(31), to: day(32) }, sortBy: 'checkIn', sortOrder: 'asc' })).ids).toEqual([ids.beta, ids.lodge]);
    expect((await list({ checkOut: { from: day(32), to: day(32) } })).ids).toEqual([ids.alpha]);
    expect((await list({ createdOn: { from: day(-1), to: day(0) } })).head).toMatchObject({ total: 3 });
    expect((await list({ createdOn: { from: day(1), to: day(2) } })).ids).toEqual([]);
    expect((await list({ firstName: 'GRACE' })).ids).toEqual([ids.beta]);
    expect((await list({ clientReference: 'REF-LODGE' })).ids).toEqual([ids.lodge]);
    expect((await list({ status: 'confirmed' })).head).toMatchObject({ total: 0 });
    // Keyset paging: the page after the caller's last booking, in the same order.
    expect((await list({ sortBy: 'checkIn', sortOrder: 'asc', limit: 1 })).ids).toEqual([ids.alpha]);
    const next = await list({ sortBy: 'checkIn', sortOrder: 'asc', limit: 1, after: ids.alpha });
    expect(next).toEqual({ head: { total: 3, etag: expect.any(String) }, ids: [ids.beta] });
    // A client that has the page gets the head alone.
    expect(await list({}, all.head && 'etag' in all.head ? all.head.etag : undefined)).toEqual({ head: { total: 3, etag: (all.head as { etag: string }).etag, notModified: true }, ids: [] });
  });

  it("a cursor that is not one of the caller's bookings is refused, naming after", async () => {
    const stranger = (await harness.get(BookingsRepository).insert({ ...newBookingTemplate(), clientId: actor.clientId + 2, prebookId: randomUUID(), requestFingerprint: randomUUID() }, 24)).id;
    await expect(list({ after: stranger })).rejects.toMatchObject({ code: 'VALIDATION_FAILED' });
  });
});
