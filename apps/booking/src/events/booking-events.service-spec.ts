import { randomUUID } from 'node:crypto';
import { BookingEvent, HEADERS, SUBJECTS, bookingAnswer, bookingWebhookPayload } from '@hotel/contracts';
import { BACKGROUND_JOBS, BackgroundJobs, DomainError, SERVICE_CLIENT, ServiceClient } from '@hotel/platform';
import { ServiceHarness } from '@hotel/testing';
import { answerSagaCallsNormally, newBookingTemplate, startBookingHarness } from '../../test/booking-fixtures';
import { BookingEnv } from '../booking.env';
import { BookingSaga } from '../bookings/booking-saga';
import { bookingSnapshotOf, toBookingView } from '../bookings/booking-view';
import { BookingEntity, FINAL_STEPS } from '../bookings/booking.entity';
import { FailPoints } from '../bookings/fail-points';
import { BookingsRepository, NewBooking } from '../bookings/bookings.repository';
import { BookingEventsOutbox } from './booking-events-outbox';
import { BookingEventsRelay } from './booking-events-relay';

// Service tier: the outbox of booking events on a real PostgreSQL database (the
// booking migrations), the relay publishing to the fake client's in-memory stream.

interface EventRow {
  id: string;
  sequence: number;
  type: string;
  payload: string;
  sent_at: Date | null;
}

describe('booking events (service tier: the outbox and its relay)', () => {
  let harness: ServiceHarness<BookingEnv>;
  let bookings: BookingsRepository;
  let saga: BookingSaga;
  let relay: BookingEventsRelay;
  let template: NewBooking;

  const sql = <T>(text: string, params: unknown[] = []) => harness.dataSource.query(text, params) as Promise<T>;
  const eventsOf = (bookingId: number) => sql<EventRow[]>(`SELECT id, sequence, type, payload, sent_at FROM booking.booking_events WHERE booking_id = $1 ORDER BY sequence`, [bookingId]);
  const insert = (changes: Partial<NewBooking> = {}) =>
    bookings.insert({ ...template, prebookId: randomUUID(), requestFingerprint: randomUUID(), ...changes }, harness.env.IDEMPOTENCY_HOURS);
  const settle = (booking: BookingEntity) => saga.settle(booking, { owned: true, deadline: Date.now() + 30_000, settled: (row) => FINAL_STEPS.includes(row.step) });
  /** The relay's passes run on their own too: waits until the outbox is empty. */
  async function published() {
    for (let tries = 0; tries < 100; tries++) {
      await relay.drain();
      const [{ unsent }] = await sql<{ unsent: number }[]>(`SELECT count(*)::int AS unsent FROM booking.booking_events WHERE sent_at IS NULL`);
      if (unsent === 0) return;
      await new Promise((resolve) => setTimeout(resolve, 20));
    }
    throw new Error('the outbox did not empty');
  }
  const streamedOf = (bookingId: number) => harness.client.streamed.filter((message) => (message.data as BookingEvent).booking.id === bookingId);

  beforeAll(async () => {
    // Only the passes a test runs (and the nudges after each change).
    harness = await startBookingHarness({ EVENTS_RELAY_INTERVAL_MS: '60000' });
    bookings = harness.get(BookingsRepository);
    saga = harness.get(BookingSaga);
    relay = harness.get(BookingEventsRelay);
    template = newBookingTemplate();
    answerSagaCallsNormally(harness.client);
  });
  afterAll(() => harness?.close());

  beforeEach(() => {
    harness.client.streamDown = false;
  });

  it('every status change writes exactly one event, with the Booking as stored; steps without one write none', async () => {
    const created = await insert();
    const settled = await settle(created);
    expect(settled.status).toBe('confirmed');
    const rows = await eventsOf(created.id);
    expect(rows.map((row) => [row.sequence, row.type])).toEqual([
      [1, 'booking.created'],
      [2, 'booking.confirmed'],
    ]);
    const [{ event_sequence }] = await sql<{ event_sequence: number }[]>(`SELECT event_sequence FROM booking.bookings WHERE id = $1`, [created.id]);
    expect(event_sequence).toBe(2);
    const confirmed = JSON.parse(rows[1].payload) as BookingEvent;
    const stored = (await bookings.find(created.id))!;
    // The booking as of the change in the booking service's words (only the voucher link's expiry moves with the clock).
    const voucherUrl = expect.stringMatching(new RegExp(`/vouchers/${created.id}\\?expires=\\d+&signature=`));
    expect(confirmed).toEqual({ type: 'booking.confirmed', timestamp: stored.updatedAt.toISOString(), sequence: 2, booking: { ...bookingSnapshotOf(stored, null), voucherUrl } });
    expect(confirmed.booking.rate.prices.chargeable).toMatch(/^\d+(\.\d+)?$/);
    // The partner's payload, as the webhooks service renders it: the Standard Webhooks shape with GET /book's Booking as data.
    expect(JSON.parse(bookingWebhookPayload(confirmed))).toEqual({
      type: 'booking.confirmed',
      timestamp: confirmed.timestamp,
      sequence: 2,
      data: { ...toBookingView(stored, null), voucher_url: voucherUrl },
    });
    expect((JSON.parse(rows[0].payload) as BookingEvent).booking).toMatchObject({ id: created.id, status: 'pending', voucherUrl: null, updatedAt: created.updatedAt.toISOString() });
  });

  it('an advance that loses the race writes no event, and a change whose event cannot be written is not made either', async () => {
    const created = await insert();
    const held = (await bookings.advance(created, 'funds_held'))!;
    const booked = (await bookings.advance(held, 'promo_redeemed'))!;
    expect(await bookings.advance(held, 'promo_redeemed')).toBeNull();
    const done = await bookings.advance(booked, 'done', { status: 'confirmed' });
    expect(done).toMatchObject({ status: 'confirmed', step: 'done' });
    // Another worker with the same stale copy: nothing moves, no second event.
    expect(await bookings.advance(booked, 'done', { status: 'confirmed' })).toBeNull();
    expect((await eventsOf(created.id)).map((row) => row.type)).toEqual(['booking.created', 'booking.confirmed']);

    // The event's row is taken (sequence 2 already there): the status change fails with it, nothing of it is kept.
    const other = await insert();
    const moved = (await bookings.advance(other, 'compensating'))!;
    await sql(`INSERT INTO booking.booking_events (id, booking_id, sequence, type, client_id, payload) VALUES ($1, $2, 2, 'booking.failed', 1, '{}')`, [randomUUID(), other.id]);
    await expect(bookings.advance(moved, 'failed', { status: 'failed' })).rejects.toThrow(/booking_events_per_booking/);
    expect(await bookings.find(other.id)).toMatchObject({ status: 'pending', step: 'compensating' });
  });

  it('the relay publishes each event once, in order per booking, with its id as the message id, and marks it sent', async () => {
    await published();
    harness.client.reset();
    const confirmed = await settle(await insert());
    harness.client.on(SUBJECTS.RATES_SUPPLIER_BOOK, () => {
      throw new DomainError('SUPPLIER_ERROR', 'refused');
    });
    const failed = await settle(await insert({ sandbox: true, clientId: 7 }));
    harness.client.on(SUBJECTS.RATES_SUPPLIER_BOOK, ({ bookingId }) => ({ reference: `SUP-${bookingId}`, status: 'confirmed' }));
    expect([confirmed.status, failed.status]).toEqual(['confirmed', 'failed']);
    await published();

    for (const [booking, types] of [
      [confirmed, ['booking.created', 'booking.confirmed']],
      [failed, ['booking.created', 'booking.failed']],
    ] as const) {
      const rows = await eventsOf(booking.id);
      const messages = streamedOf(booking.id);
      expect(messages.map((message) => (message.data as BookingEvent).type)).toEqual(types);
      expect(messages.map((message) => message.subject)).toEqual(types.map((type) => `events.${type}.v1`));
      expect(messages.map((message) => message.msgId)).toEqual(rows.map((row) => row.id));
      expect(messages.map((message) => message.data)).toEqual(rows.map((row) => JSON.parse(row.payload)));
      expect(messages[0].headers).toEqual({ [HEADERS.CLIENT_ID]: String(booking.clientId) });
      expect(rows.every((row) => row.sent_at instanceof Date)).toBe(true);
    }
    expect(bookingAnswer((streamedOf(failed.id)[1].data as BookingEvent).booking)).toMatchObject({ status: 'failed', is_sandbox: true });
    // Nothing left: a pass publishes nothing more.
    expect(await relay.drain()).toBe(0);
  });

  it('with JetStream unreachable bookings go on, their events wait in the outbox, and go out once it is back', async () => {
    await published();
    harness.client.reset();
    harness.client.streamDown = true;
    const booking = await settle(await insert());
    expect(booking.status).toBe('confirmed');
    expect(await relay.drain()).toBe(0);
    expect((await eventsOf(booking.id)).map((row) => row.sent_at)).toEqual([null, null]);
    harness.client.streamDown = false;
    await published();
    expect(streamedOf(booking.id).map((message) => (message.data as BookingEvent).sequence)).toEqual([1, 2]);
  });

  it('a pass takes a booking\'s later event as soon as the earlier one is sent, and ends without an empty transaction', async () => {
    await published();
    harness.client.reset();
    harness.client.streamDown = true;
    const booking = await settle(await insert());
    harness.client.streamDown = false;
    const outbox = harness.get(BookingEventsOutbox);
    const publishUnsent = outbox.publishUnsent.bind(outbox);
    const batches: { sent: number; more: boolean }[] = [];
    outbox.publishUnsent = async (limit, publish) => {
      const batch = await publishUnsent(limit, publish);
      batches.push(batch);
      return batch;
    };
    try {
      expect(await relay.drain()).toBe(2);
    } finally {
      outbox.publishUnsent = publishUnsent;
    }
    // created (its booking has a later event: take more), then confirmed (nothing more): two transactions.
    expect(batches).toEqual([
      { sent: 1, more: true },
      { sent: 1, more: false },
    ]);
    expect(streamedOf(booking.id).map((message) => (message.data as BookingEvent).type)).toEqual(['booking.created', 'booking.confirmed']);
  });

  it('two replicas relaying one outbox at once publish each event once, in order per booking, and together send it all', async () => {
    await published();
    harness.client.reset();
    // The other replica: its own relay over the same database and stream.
    const other = new BookingEventsRelay(harness.get<ServiceClient>(SERVICE_CLIENT), harness.env, harness.get<BackgroundJobs>(BACKGROUND_JOBS), harness.get(FailPoints), harness.get(BookingEventsOutbox));
    harness.client.streamDown = true;
    const made = [];
    for (let i = 0; i < 30; i++) made.push(await settle(await insert()));
    harness.client.streamDown = false;
    // Every publication, in the order the stream took it (a repeat of an id included).
    const publications: string[] = [];
    const publish = harness.client.publishToStream.bind(harness.client);
    harness.client.publishToStream = async (subject, data, options) => {
      publications.push(options.msgId);
      await new Promise((resolve) => setImmediate(resolve));
      return publish(subject, data, options);
    };
    try {
      const sent = await Promise.all([relay.drain(), other.drain(), relay.drain(), other.drain()]);
      expect(sent.reduce((sum, n) => sum + n, 0)).toBe(60);
    } finally {
      harness.client.publishToStream = publish;
    }
    expect(new Set(publications).size).toBe(publications.length);
    for (const booking of made) {
      const rows = await eventsOf(booking.id);
      expect(rows.every((row) => row.sent_at instanceof Date)).toBe(true);
      expect(streamedOf(booking.id).map((message) => message.msgId)).toEqual(rows.map((row) => row.id));
    }
  });

  it('pruning deletes sent events past the retention only: never an unsent one, never a recent one', async () => {
    const [old, recent, unsent] = [await insert(), await insert(), await insert()];
    await published();
    const ids = [old.id, recent.id, unsent.id];
    await sql(`UPDATE booking.booking_events SET sent_at = now() - interval '31 days' WHERE booking_id = $1`, [old.id]);
    await sql(`UPDATE booking.booking_events SET sent_at = NULL, created_at = now() - interval '40 days' WHERE booking_id = $1`, [unsent.id]);
    expect(await relay.prune()).toBeGreaterThanOrEqual(1);
    const left = await sql<{ booking_id: number }[]>(`SELECT booking_id FROM booking.booking_events WHERE booking_id = ANY($1) ORDER BY booking_id`, [ids]);
    expect(left.map((row) => row.booking_id)).toEqual([recent.id, unsent.id]);
  });

  it('a saga is overdue (the metric the lease alert reads) only once its lease has run out, by how long', async () => {
    const booking = await insert();
    const lease = (interval: string) => sql(`UPDATE booking.bookings SET lease_until = now() + interval '${interval}' WHERE id = $1`, [booking.id]);
    await lease('-1000 seconds');
    expect(await bookings.overdueSeconds()).toBeGreaterThanOrEqual(999);
    // Waiting under a live lease (a vendor still to confirm) is not overdue.
    await lease('60 seconds');
    expect(await bookings.overdueSeconds()).toBeLessThan(999);
  });
});
