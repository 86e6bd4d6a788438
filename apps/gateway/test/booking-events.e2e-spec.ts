import { NatsConnection, connect, millis } from 'nats';
import { BOOKING_EVENT_SUBJECTS, BookingEvent, HEADERS, STREAMS, bookingAnswer } from '@hotel/contracts';
import { natsConnectionOptions } from '@hotel/platform';
import { GUEST, bearer, bookV1, prebookV1, queryTestDatabase, sleep, staySequence } from '@hotel/testing';
import { FailPoints } from '../../booking/src/bookings/fail-points';
import { ClientKeys, TestSystem } from './system';

const freshStay = staySequence(150);

/** A message of the stream, as a consumer reads it. */
interface StreamMessage {
  seq: number;
  subject: string;
  msgId: string;
  clientId: string;
  /** When the stream stored it. */
  storedAt: number;
  event: BookingEvent;
}

/**
 * Booking events on a real JetStream: every status change of a booking reaches the
 * BOOKING_EVENTS stream once, in the booking's order, with the booking from which GET /book's
 * Booking is rendered; a booking service that dies between a change and its publication
 * publishes the event after its restart, and the stream keeps no repeat.
 */
describe('booking events on JetStream', () => {
  let system: TestSystem, acme: ClientKeys, auth: { authorization: string };
  /** The admin identity, which may read the stream (as an operator does). */
  let reader: NatsConnection;

  beforeAll(async () => {
    ({ system, acme, auth } = await TestSystem.startWithClient({ SAGA_LEASE_S: '1', RECOVERY_INTERVAL_MS: '300' }));
    reader = await connect(natsConnectionOptions(system.nats.bus('admin')));
  });
  afterAll(async () => {
    await reader?.close();
    await system?.close();
  });

  const sql = <T = any>(text: string, params: unknown[] = []) => queryTestDatabase<T>(system.database.url, text, params);
  const failPoints = () => system.replicas.get('booking')![0].app.get(FailPoints);

  /** Every message of the stream, from the first, through an ordered consumer. */
  async function readStream(): Promise<StreamMessage[]> {
    const manager = await reader.jetstreamManager({ checkAPI: false });
    const { state } = await manager.streams.info(STREAMS.BOOKING_EVENTS.name);
    const messages: StreamMessage[] = [];
    if (state.messages === 0) return messages;
    const consumer = await reader.jetstream().consumers.get(STREAMS.BOOKING_EVENTS.name);
    for await (const message of await consumer.fetch({ max_messages: state.messages, expires: 5000 })) {
      messages.push({
        seq: message.seq,
        subject: message.subject,
        msgId: message.headers!.get('Nats-Msg-Id'),
        clientId: message.headers!.get(HEADERS.CLIENT_ID),
        storedAt: millis(message.info.timestampNanos),
        event: message.json<BookingEvent>(),
      });
      if (messages.length === state.messages) break;
    }
    return messages;
  }

  /** The booking's messages on the stream, in stream order, once there are `count` of them (and a moment more, to see any extra). */
  async function eventsOf(bookingId: number, count: number, timeoutMs = 15_000): Promise<StreamMessage[]> {
    const deadline = Date.now() + timeoutMs;
    for (;;) {
      const found = await readStream()
        .then((messages) => messages.filter((message) => message.event.booking.id === bookingId))
        .catch(() => []);
      if (found.length >= count) {
        await sleep(300);
        return (await readStream()).filter((message) => message.event.booking.id === bookingId);
      }
      if (Date.now() > deadline) throw new Error(`booking ${bookingId}: ${found.length} of ${count} events on the stream`);
      await sleep(100);
    }
  }

  /** The events of one booking are whole: types in order, sequence 1..n, one message per event id, each id the outbox's. */
  async function expectEvents(bookingId: number, types: (keyof typeof BOOKING_EVENT_SUBJECTS)[]): Promise<StreamMessage[]> {
    const messages = await eventsOf(bookingId, types.length);
    expect(messages.map((message) => message.event.type)).toEqual(types);
    expect(messages.map((message) => message.subject)).toEqual(types.map((type) => BOOKING_EVENT_SUBJECTS[type]));
    expect(messages.map((message) => message.event.sequence)).toEqual(types.map((_, index) => index + 1));
    expect(new Set(messages.map((message) => message.msgId)).size).toBe(types.length);
    const outbox = await sql<{ id: string }>(`SELECT id FROM booking.booking_events WHERE booking_id = $1 AND sent_at IS NOT NULL ORDER BY sequence`, [bookingId]);
    expect(messages.map((message) => message.msgId)).toEqual(outbox.map((row) => row.id));
    return messages;
  }

  /** The Booking that GET /book answers now, with its voucher link's expiry left open (it moves with the clock). */
  async function bookingNow(id: number, headers = auth) {
    const [booking] = (await system.request('GET', `/book?id=${id}`, { headers })).body.data;
    return { ...booking, voucher_url: booking.voucher_url === null ? null : expect.stringMatching(new RegExp(`/vouchers/${id}\\?expires=\\d+&signature=`)) };
  }

  it('the stream is created at start on file storage, with a duplicate window of minutes', async () => {
    const manager = await reader.jetstreamManager({ checkAPI: false });
    let info;
    for (let tries = 0; !info && tries < 50; tries++) info = await manager.streams.info(STREAMS.BOOKING_EVENTS.name).catch(() => sleep(100).then(() => undefined));
    expect(info!.config).toMatchObject({ subjects: [STREAMS.BOOKING_EVENTS.subjects], storage: 'file' });
    expect(info!.config.duplicate_window).toBeGreaterThanOrEqual(2 * 60 * 1e9);
  });

  it('a confirmed booking: created (pending) then confirmed, each with the Booking as GET /book answers it', async () => {
    const booking = await bookV1(system, auth, freshStay(), { body: { client_reference: 'EVENTS-1' } });
    expect(booking.status).toBe('confirmed');
    const [created, confirmed] = await expectEvents(booking.id, ['booking.created', 'booking.confirmed']);
    // The booking in the booking service's words; the Booking rendered from it is GET /book's.
    expect(confirmed.event).toEqual({ type: 'booking.confirmed', timestamp: booking.updated_at, sequence: 2, booking: expect.objectContaining({ id: booking.id, status: 'confirmed' }) });
    expect(bookingAnswer(confirmed.event.booking)).toEqual(await bookingNow(booking.id));
    expect(bookingAnswer(created.event.booking)).toMatchObject({ id: booking.id, status: 'pending', voucher_url: null, client_reference: 'EVENTS-1', is_sandbox: false, created_at: booking.created_at });
    expect(created.event.timestamp).toBe(created.event.booking.updatedAt);
    expect([created.clientId, confirmed.clientId]).toEqual([String(acme.client_id), String(acme.client_id)]);
    expect(created.seq).toBeLessThan(confirmed.seq);
  });

  it('a failed sandbox booking: created then failed, is_sandbox true', async () => {
    const sandbox = bearer(acme.sandbox_api_key);
    const { path } = await prebookV1(system, sandbox, freshStay());
    const response = await system.request('POST', path, { headers: { ...sandbox, 'x-test-scenario': 'supplier_error' }, json: { ...GUEST, client_reference: 'EVENTS-FAIL' } });
    expect(response.status).toBe(400);
    const [{ id }] = await sql(`SELECT id FROM booking.bookings WHERE client_reference = 'EVENTS-FAIL'`);
    const [, failed] = await expectEvents(id, ['booking.created', 'booking.failed']);
    expect(bookingAnswer(failed.event.booking)).toEqual(await bookingNow(id, sandbox));
    expect(bookingAnswer(failed.event.booking)).toMatchObject({ status: 'failed', is_sandbox: true, failure_reason: expect.stringMatching(/supplier/) });
  });

  it('a cancelled booking: created, confirmed, then cancelled', async () => {
    const booking = await bookV1(system, auth, freshStay());
    const cancel = await system.request('POST', `/book/cancel/${booking.id}`, { headers: auth });
    expect(cancel.body.data).toMatchObject({ cancelled: true });
    const messages = await expectEvents(booking.id, ['booking.created', 'booking.confirmed', 'booking.cancelled']);
    expect(bookingAnswer(messages[2].event.booking)).toEqual(await bookingNow(booking.id));
    expect(bookingAnswer(messages[2].event.booking)).toMatchObject({ status: 'cancelled', voucher_url: null });
  });

  it('concurrent bookings: each booking’s events in its own order on the stream; the relay publishes within moments of the change', async () => {
    const bookings = await Promise.all(Array.from({ length: 6 }, (_, index) => bookV1(system, auth, freshStay(), { hotelIndex: index })));
    const delays: number[] = [];
    for (const booking of bookings) {
      for (const message of await expectEvents(booking.id, ['booking.created', 'booking.confirmed'])) delays.push(message.storedAt - Date.parse(message.event.timestamp));
    }
    delays.sort((a, b) => a - b);
    // From the change's commit to the stream: the nudge after the commit, not the timer (1 s).
    expect(delays[Math.floor(delays.length / 2)]).toBeLessThan(500);
  });

  describe.each([
    ['after-status-commit', 'before the relay published'],
    ['after-event-publish', 'after the relay published, before it marked the events sent'],
  ] as const)('the booking service killed %s (%s)', (point, _when) => {
    it('publishes every event after its restart, once each', async () => {
      await sleep(300); // what earlier tests left is published
      failPoints().arm(point);
      const booking = await bookV1(system, auth, freshStay());
      expect(booking.status).toBe('confirmed');
      expect(failPoints().isArmed(point)).toBe(false); // the relay did die there
      // Committed, but the dead relay publishes nothing more.
      await sleep(1500);
      const unsent = await sql(`SELECT sequence FROM booking.booking_events WHERE booking_id = $1 AND sent_at IS NULL ORDER BY sequence`, [booking.id]);
      expect(unsent.map((row) => row.sequence)).toEqual([1, 2]);
      const before = (await readStream()).filter((message) => message.event.booking.id === booking.id);
      expect(before.map((message) => message.event.type)).toEqual(point === 'after-status-commit' ? [] : ['booking.created']);

      await system.stopService('booking');
      await system.startReplica('booking');
      await expectEvents(booking.id, ['booking.created', 'booking.confirmed']);
      const [{ unsent: left }] = await sql(`SELECT count(*)::int AS unsent FROM booking.booking_events WHERE sent_at IS NULL`);
      expect(left).toBe(0);
    });
  });
});
