import { Inject, Injectable } from '@nestjs/common';
import { createHash } from 'node:crypto';
import { setTimeout as sleep } from 'node:timers/promises';
import {
  Actor,
  BackendBookingPage,
  BackendBookingQuery,
  BookingListQuery,
  BookingPage,
  BookingRoom,
  CancelView,
  PrecancelView,
  centsToNumber,
  todayUtc,
  CreateBookingReply,
  CreateBookingRequest,
  FieldError,
  SUBJECTS,
  StoredPrebook,
  centsToDecimal,
  toCents,
} from '@hotel/contracts';
import { Language, hotelById, toHotelDetails } from '@hotel/inventory';
import { DomainError, SERVICE_CLIENT, SERVICE_ENV, ServiceClient } from '@hotel/platform';
import { BookingEnv } from '../booking.env';
import { CardDetails, PAYMENT_PROCESSOR, PaymentProcessor, expirationPassed } from '../payments/payment-processor';
import { Vouchers } from '../vouchers/vouchers';
import { cancellationPenaltyCents } from './cancellation';
import { toBackendBooking } from './backend-booking-view';
import { toBookingView } from './booking-view';
import { BookingSaga } from './booking-saga';
import { BookingRow, BookingsRepository } from './bookings.repository';

const CARD_FIELDS = ['payment_token', 'payment_first_name', 'payment_last_name', 'payment_postal_code', 'payment_expiration'] as const;
/** How long a repeat with the same idempotency key waits for the first request to finish. */
const REPLAY_WAIT_MS = 10_000;

@Injectable()
export class BookingsService {
  constructor(
    private readonly bookings: BookingsRepository,
    private readonly saga: BookingSaga,
    @Inject(SERVICE_CLIENT) private readonly services: ServiceClient,
    @Inject(SERVICE_ENV) private readonly env: BookingEnv,
    @Inject(PAYMENT_PROCESSOR) private readonly payments: PaymentProcessor,
    private readonly vouchers: Vouchers,
  ) {}

  private view(row: BookingRow) {
    return toBookingView(row, this.vouchers.url(row.id));
  }

  async create(request: CreateBookingRequest): Promise<CreateBookingReply> {
    const { actor, body } = request;
    const fingerprint = fingerprintOf(request);
    if (body.idempotency_key) {
      const previous = await this.bookings.findByIdempotencyKey(actor.clientId, body.idempotency_key);
      if (previous) return this.replay(previous, fingerprint);
    }
    const prebook = await this.services.send(SUBJECTS.RATES_PREBOOK_FIND, {
      actor,
      ...(request.prebook_id
        ? { prebook_id: request.prebook_id }
        : { session_id: request.session_id, hotel_id: request.hotel_id, rate_id: request.rate_id, payment_method: request.payment_method }),
    });
    const method = prebook.paymentMethod;
    this.validateAgainstPrebook(request, prebook);
    const card = method === 'credit_card' ? cardOf(request) : undefined;

    let booking: BookingRow;
    try {
      booking = await this.bookings.insert(this.newBooking(request, prebook, fingerprint), this.env.IDEMPOTENCY_HOURS);
    } catch (error) {
      // A concurrent request with the same idempotency key won the insert: answer as its repeat.
      if (error instanceof DomainError && error.code === 'CONFLICT' && body.idempotency_key) {
        const winner = await this.bookings.findByIdempotencyKey(actor.clientId, body.idempotency_key);
        if (winner) return this.replay(winner, fingerprint);
      }
      throw error;
    }
    await this.services.send(SUBJECTS.RATES_PREBOOK_ATTACH, { prebook_id: prebook.prebookId, booking_id: booking.id, processing: true }).catch(() => undefined);
    const settled = await this.saga.run(booking.id, card, booking);
    return { booking: this.outcome(settled), replayed: false };
  }

  /** The caller's bookings (a user token sees that user's only). */
  async list(actor: Actor, query: BookingListQuery): Promise<BookingPage> {
    const { rows, total } = await this.bookings.list(actor.clientId, actor.role === 'user' ? actor.userId : null, query);
    return { bookings: rows.map((row) => this.view(row)), total };
  }

  /** Backend API: the client's bookings (a user token, or a userId: that user's), newest first. */
  async backendList(actor: Actor, userId: number | undefined, query: BackendBookingQuery): Promise<BackendBookingPage> {
    if (actor.role === 'user' && userId !== undefined && userId !== actor.userId) {
      throw new DomainError('FORBIDDEN', "a user token reads that user's bookings only");
    }
    const forUser = actor.role === 'user' ? actor.userId : (userId ?? null);
    const { rows, total } = await this.bookings.list(actor.clientId, forUser, { page: query.page, limit: query.limit ?? 100 }, { excludeFailed: true });
    return { bookings: rows.map(toBackendBooking), total };
  }

  async precancel(actor: Actor, bookingId: number): Promise<PrecancelView> {
    const booking = await this.cancellable(actor, bookingId);
    if (booking.status === 'cancelled') {
      return { price_cancellation_penalty: centsToNumber(toCents(booking.cancellation_penalty!)), price_currency: booking.price_currency };
    }
    return { price_cancellation_penalty: centsToNumber(this.penalty(booking)), price_currency: booking.price_currency };
  }

  /**
   * Cancels with the supplier (rooms go back to the allotment), credits the price
   * less the penalty to the account, then marks the booking cancelled. Each step
   * is idempotent, so a repeated or concurrent cancel finishes the same way and
   * a cancelled booking answers its reference again.
   */
  async cancel(actor: Actor, bookingId: number): Promise<CancelView> {
    const booking = await this.cancellable(actor, bookingId);
    if (booking.status === 'cancelled') return { cancelled: true, cancellation_reference: booking.cancellation_reference! };
    const penalty = this.penalty(booking);
    const refund = toCents(booking.price_chargeable) - penalty;
    await this.services.send(SUBJECTS.RATES_SUPPLIER_CANCEL, { booking_id: booking.id });
    if (!booking.sandbox && refund > 0) {
      if (booking.payment_method === 'account') {
        await this.services.send(SUBJECTS.ACCOUNTING_REFUND_CREATE, {
          clientId: booking.client_id,
          bookingId: booking.id,
          amount: centsToDecimal(refund),
          name: `Cancellation of booking ${booking.id} (penalty ${centsToDecimal(penalty)})`,
          ...(booking.user_id && { userId: booking.user_id }),
        });
      } else {
        await this.payments.refund(booking.cc_payment_id!, centsToDecimal(refund));
      }
    }
    const reference = `CXL-${booking.supplier_reference}`;
    await this.bookings.markCancelled(booking.id, reference, centsToDecimal(penalty));
    const settled = (await this.bookings.find(booking.id))!;
    return { cancelled: true, cancellation_reference: settled.cancellation_reference ?? reference };
  }

  private async cancellable(actor: Actor, bookingId: number): Promise<BookingRow> {
    const booking = await this.bookings.findForClient(actor.clientId, bookingId);
    if (!booking || (actor.role === 'user' && booking.user_id !== actor.userId)) throw DomainError.notFound(`booking ${bookingId}`);
    if (booking.status === 'cancelled') return booking;
    if (booking.status !== 'confirmed') throw DomainError.validation([{ field: 'booking_id', message: `a ${booking.status} booking cannot be cancelled` }]);
    if (booking.check_in < todayUtc().toISOString().slice(0, 10)) {
      throw DomainError.validation([{ field: 'booking_id', message: 'the check-in date has passed: the booking cannot be cancelled' }]);
    }
    return booking;
  }

  private penalty(booking: BookingRow): number {
    return cancellationPenaltyCents(booking.rate.cancellation_policy_data, toCents(booking.price_chargeable));
  }

  /** The first request's booking for a repeated idempotency key (after it settles), or 409 for a different body. */
  private async replay(previous: BookingRow, fingerprint: string): Promise<CreateBookingReply> {
    if (previous.request_fingerprint !== fingerprint) {
      throw new DomainError('IDEMPOTENCY_CONFLICT', 'idempotency_key was used with a different request');
    }
    let current = previous;
    const deadline = Date.now() + REPLAY_WAIT_MS;
    while ((current.step !== 'done' && current.step !== 'failed') && Date.now() < deadline) {
      await sleep(50);
      current = (await this.bookings.find(previous.id))!;
    }
    return { booking: this.outcome(current), replayed: true };
  }

  /** A failed booking answers with its reason (and stays visible in GET /book). */
  private outcome(booking: BookingRow) {
    if (booking.status === 'failed') {
      const code = (booking.failure_code ?? 'PAYMENT_DECLINED') as DomainError['code'];
      throw new DomainError(code, booking.failure_reason ?? 'booking failed');
    }
    return this.view(booking);
  }

  private validateAgainstPrebook(request: CreateBookingRequest, prebook: StoredPrebook) {
    const errors: FieldError[] = [];
    const expected = prebook.response.rooms.length;
    if (request.body.rooms.length !== expected) {
      errors.push({ field: 'rooms', message: `rooms must name a lead guest for each of the ${expected} prebooked room(s)` });
    }
    if (prebook.paymentMethod === 'credit_card') {
      for (const field of CARD_FIELDS) {
        if (!request.body[field]) errors.push({ field, message: `${field} is required for credit_card payment` });
      }
      if (request.body.payment_expiration && expirationPassed(request.body.payment_expiration)) {
        errors.push({ field: 'payment_expiration', message: 'payment_expiration is in the past' });
      }
    }
    if (errors.length) throw DomainError.validation(errors);
  }

  private newBooking(request: CreateBookingRequest, prebook: StoredPrebook, fingerprint: string) {
    const { actor, body } = request;
    const language = (body.language ?? body.lang ?? 'en') as Language;
    const hotel = hotelById(prebook.offer.hotelId)!;
    const rooms: BookingRoom[] = body.rooms.map((guest, index) => ({
      adults: [{ title: null, first_name: guest.lead_first_name.trim(), last_name: guest.lead_last_name.trim() }],
      children: (prebook.response.rooms[index]?.children_ages ?? []).map((age) => ({ title: null, first_name: '', last_name: guest.lead_last_name.trim(), age })),
    }));
    const rate = prebook.response.rate;
    return {
      client_id: actor.clientId,
      user_id: actor.userId ?? null,
      sandbox: actor.sandbox,
      prebook_id: prebook.prebookId,
      offer: prebook.offer,
      payment_method: prebook.paymentMethod,
      hotel_id: hotel.id,
      hotel_name: hotel.name,
      check_in: prebook.response.search.check_in,
      check_out: prebook.response.search.check_out,
      first_name: body.rooms[0].lead_first_name.trim(),
      last_name: body.rooms[0].lead_last_name.trim(),
      email: body.email,
      phone: body.phone,
      price_chargeable: centsToDecimal(toCents(prebook.priceChargeable)),
      price_currency: rate.price_currency,
      rate,
      hotel: { ...toHotelDetails(hotel, language), lowest_rate: null, lowest_brand_loyalty_rate: null },
      rooms,
      language,
      loyalty_number: body.loyalty_number ?? null,
      special_request: body.special_request ?? null,
      remarks: prebook.response.remarks,
      client_reference: body.client_reference ?? null,
      idempotency_key: body.idempotency_key ?? null,
      request_fingerprint: fingerprint,
      promo_code: prebook.promoCode,
      promo_discount: prebook.discount,
      test_scenario: actor.sandbox ? (request.test_scenario ?? null) : null,
    };
  }
}

function cardOf(request: CreateBookingRequest): CardDetails {
  return { token: request.body.payment_token!, expiration: request.body.payment_expiration! };
}

/** What makes two requests "the same": the rate they book and every body field, in a stable order. */
function fingerprintOf(request: CreateBookingRequest): string {
  const { actor: _actor, ...rest } = request;
  const canonical = JSON.stringify(rest, (_key, value) =>
    value && typeof value === 'object' && !Array.isArray(value) ? Object.fromEntries(Object.entries(value).sort(([a], [b]) => a.localeCompare(b))) : value,
  );
  return createHash('sha256').update(canonical).digest('hex');
}
