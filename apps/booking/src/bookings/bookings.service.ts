import { Inject, Injectable } from '@nestjs/common';
import { createHash } from 'node:crypto';
import {
  ReconciliationBookingPage,
  ReconciliationBookingsRequest,
  parseDay,
  Actor,
  BackendBookingQuery,
  BookingLanguage,
  commaJoinedChunks,
  BookingListFilter,
  TaggedBookingPageChunk,
  BookingRoom,
  Cancellation,
  CancellationQuote,
  currencyDecimals,
  FindRecordedBookingRequest,
  RecordedBooking,
  todayUtc,
  CreateBookingReply,
  CreateBookingRequest,
  FieldError,
  SUBJECTS,
  StoredPrebook,
  milliToDecimal,
  toMilli,
} from '@hotel/contracts';
import { DomainError, SERVICE_CLIENT, SERVICE_ENV, ServiceClient, currentDeadline } from '@hotel/platform';
import { BookingEnv } from '../booking.env';
import { CardDetails, expirationPassed } from '../payments/payment-processor';
import { Vouchers } from '../vouchers/vouchers';
import { cancellationPenaltyMilli } from './cancellation';
import { toBookingView } from './booking-view';
import { bookingFxOf } from './backend-booking-view';
import { BookingSaga } from './booking-saga';
import { BookingEntity, CANCELLATION_STEPS, FINAL_STEPS } from './booking.entity';
import { BookingScope, BookingsRepository, NewBooking } from './bookings.repository';
import { filledApiView } from './stored-views';
import { taggedPage } from './tagged-page';

const CARD_FIELDS = ['payment_token', 'payment_first_name', 'payment_last_name', 'payment_postal_code', 'payment_expiration'] as const;
/**
 * How long before its caller's deadline a request answers with what it has (a
 * fifth of the time it was given, within these bounds): the answer must still
 * travel back through NATS and the gateway before the caller gives up.
 */
const ANSWER_MARGIN_MS = { min: 100, max: 1000 };
/** A booking request's wait is over once its saga has an outcome (or is being cancelled already). */
const bookingSettled = (booking: BookingEntity) => FINAL_STEPS.includes(booking.step) || CANCELLATION_STEPS.includes(booking.step);
const cancellationSettled = (booking: BookingEntity) => booking.step === 'cancelled';

@Injectable()
export class BookingsService {
  constructor(
    private readonly bookings: BookingsRepository,
    private readonly saga: BookingSaga,
    @Inject(SERVICE_CLIENT) private readonly services: ServiceClient,
    @Inject(SERVICE_ENV) private readonly env: BookingEnv,
    private readonly vouchers: Vouchers,
  ) {}

  private view(row: BookingEntity) {
    return toBookingView(row, this.vouchers.url(row.id));
  }

  /**
   * Books a prebook: one booking per idempotency key, one live booking per prebook.
   * Answers by its caller's deadline: a saga that takes longer (a slow supplier, a
   * service down) answers `pending` and goes on; the booking is finished or undone
   * whatever happens to this process.
   */
  async create(request: CreateBookingRequest): Promise<CreateBookingReply> {
    const { actor, body } = request;
    const fingerprint = fingerprintOf(request);
    const card = cardOf(request);
    if (body.idempotency_key) {
      const previous = await this.bookings.findByIdempotencyKey(keyOwner(actor), body.idempotency_key);
      if (previous) return this.replay(previous, fingerprint, card);
    }
    const prebook = await this.services.send(SUBJECTS.RATES_PREBOOK_FIND, {
      actor,
      language: languageOf(body),
      ...(request.prebookId
        ? { prebookId: request.prebookId }
        : { sessionId: request.sessionId, hotelId: request.hotelId, rateId: request.rateId, paymentMethod: request.paymentMethod }),
    });
    this.validateAgainstPrebook(request, prebook);

    let booking: BookingEntity;
    try {
      booking = await this.bookings.insert(this.newBooking(request, prebook, fingerprint), this.env.IDEMPOTENCY_HOURS);
    } catch (error) {
      // A concurrent request with the same idempotency key won the insert (whichever
      // unique index it tripped first): answer as its repeat.
      if (error instanceof DomainError && body.idempotency_key) {
        const winner = await this.bookings.findByIdempotencyKey(keyOwner(actor), body.idempotency_key);
        if (winner) return this.replay(winner, fingerprint, card);
      }
      throw error;
    }
    await this.services.send(SUBJECTS.RATES_PREBOOK_ATTACH, { prebookId: prebook.prebookId, bookingId: booking.id, processing: true }).catch(() => undefined);
    const settled = await this.saga.settle(booking, {
      owned: true,
      deadline: this.answerBy(),
      card: prebook.paymentMethod === 'credit_card' ? card : undefined,
      settled: bookingSettled,
    });
    return { booking: this.outcome(settled), replayed: false };
  }

  /**
   * The caller's bookings (a user token sees that user's only): the head, then the
   * stored Bookings with this moment's voucher links and updated_at filled in, as bytes;
   * tagged (taggedPage), and the head alone for a client that has these bytes.
   */
  async list(actor: Actor, filter: BookingListFilter, ifNoneMatch?: string): Promise<TaggedBookingPageChunk[]> {
    const { rows, total } = await this.bookings.storedPage(scopeOf(actor), filter, 'api');
    const now = Date.now();
    const views = rows.map((row) => filledApiView(row.view, row.updatedAt, () => this.vouchers.url(row.id, now)));
    return taggedPage(total, [...commaJoinedChunks(views)], ifNoneMatch);
  }

  /** The period's live bookings (or the ones named) for the accounting service's reconciliation. */
  async reconciliationBookings(request: ReconciliationBookingsRequest): Promise<ReconciliationBookingPage> {
    const period = request.bookingIds ? { ids: request.bookingIds } : { start: parseDay(request.from)!, end: new Date(parseDay(request.to)!.getTime() + 86_400_000) };
    const rows = await this.bookings.reconciliationPage(request.clientId, request.after, request.limit, period);
    return {
      leaseSeconds: this.env.SAGA_LEASE_S,
      bookings: rows.map((booking) => ({
        id: booking.id,
        status: booking.status,
        paymentMethod: booking.paymentMethod,
        sandbox: booking.sandbox,
        priceChargeable: booking.priceChargeable,
        currency: booking.priceCurrency,
        cancellationPenalty: booking.cancellationPenalty,
        ...bookingFxOf(booking),
        confirmed: booking.step === 'done' || CANCELLATION_STEPS.includes(booking.step),
      })),
    };
  }

  /** Backend API: the client's bookings (a user token, or a userId: that user's), newest first. */
  async backendList(actor: Actor, userId: number | undefined, query: BackendBookingQuery, ifNoneMatch?: string): Promise<TaggedBookingPageChunk[]> {
    // The finance credential works the ledger, not a client's bookings.
    if (actor.role === 'finance') throw new DomainError('FORBIDDEN', 'backend bookings take the backend token or a user token');
    if (actor.role === 'user' && userId !== undefined && userId !== actor.userId) {
      throw new DomainError('FORBIDDEN', "a user token reads that user's bookings only");
    }
    const forUser = actor.role === 'user' ? actor.userId : (userId ?? null);
    const { rows, total } = await this.bookings.storedPage(
      { clientId: actor.clientId, sandbox: null, userId: forUser },
      { page: query.page, after: query.after, limit: query.limit ?? 100 },
      'backend',
      { excludeFailed: true },
    );
    return taggedPage(total, [...commaJoinedChunks(rows.map((row) => row.view))], ifNoneMatch);
  }

  /**
   * The booking a book request recorded, for the gateway when that request's answer did not
   * come (a replica gone mid-request): by the request's idempotency key, else by its prebook
   * (the live booking it backs), within what the caller may see.
   */
  async findRecorded(request: FindRecordedBookingRequest): Promise<RecordedBooking> {
    if (request.idempotencyKey) {
      return { bookingId: (await this.bookings.findByIdempotencyKey(keyOwner(request.actor), request.idempotencyKey))?.id ?? null };
    }
    const backed = request.prebookId ? await this.bookings.liveBookingOfPrebook(request.prebookId) : null;
    const visible = backed === null ? null : await this.bookings.findInScope(scopeOf(request.actor), backed);
    return { bookingId: visible?.id ?? null };
  }

  async precancel(actor: Actor, bookingId: number): Promise<CancellationQuote> {
    const booking = await this.cancellable(actor, bookingId);
    // Once a cancellation has started its penalty is fixed.
    const penalty = booking.cancellationPenalty !== null ? toMilli(booking.cancellationPenalty) : this.penalty(booking);
    return { bookingId: booking.id, penalty: milliToDecimal(penalty, currencyDecimals(booking.priceCurrency)), currency: booking.priceCurrency };
  }

  /**
   * Cancels a confirmed booking as a saga: the first request records the
   * cancellation with the penalty of this moment, then the supplier cancels (the
   * rooms go back), the price less the penalty is refunded, and the booking is
   * cancelled. Concurrent and repeated cancels wait for that one saga and get its
   * answer; one that cannot finish by the deadline (a service down) answers 503
   * and the recovery loop finishes it.
   */
  async cancel(actor: Actor, bookingId: number): Promise<Cancellation> {
    let booking = await this.cancellable(actor, bookingId);
    let owned = false;
    if (booking.step === 'done') {
      const started = await this.bookings.startCancellation(booking, milliToDecimal(this.penalty(booking)));
      owned = started !== null;
      booking = started ?? (await this.bookings.find(booking.id))!;
    }
    const settled = await this.saga.settle(booking, { owned, deadline: this.answerBy(), settled: cancellationSettled });
    if (settled.step !== 'cancelled') {
      throw new DomainError('SERVICE_UNAVAILABLE', 'the cancellation is recorded and under way; repeat the call for its reference', undefined, 2);
    }
    return { bookingId: settled.id, cancelled: true, reference: settled.cancellationReference! };
  }

  /** A booking the caller may cancel (or whose cancellation is under way or done). */
  private async cancellable(actor: Actor, bookingId: number): Promise<BookingEntity> {
    const booking = await this.bookings.findInScope(scopeOf(actor), bookingId);
    if (!booking) throw DomainError.notFound(`booking ${bookingId}`);
    if (CANCELLATION_STEPS.includes(booking.step)) return booking;
    if (booking.status !== 'confirmed') throw DomainError.validation([{ field: 'booking_id', message: `a ${booking.status} booking cannot be cancelled` }]);
    if (booking.checkIn < todayUtc().toISOString().slice(0, 10)) {
      throw DomainError.validation([{ field: 'booking_id', message: 'the check-in date has passed: the booking cannot be cancelled' }]);
    }
    return booking;
  }

  private penalty(booking: BookingEntity): number {
    return cancellationPenaltyMilli(booking.rate.cancellation_policy_data, toMilli(booking.priceChargeable));
  }

  /** When to answer: a little before the caller stops waiting. */
  private answerBy(): number {
    const deadline = currentDeadline() ?? Date.now() + this.env.RPC_TIMEOUT_MS;
    const margin = Math.min(ANSWER_MARGIN_MS.max, Math.max(ANSWER_MARGIN_MS.min, (deadline - Date.now()) / 5));
    return deadline - margin;
  }

  /**
   * The first request's booking for a repeated idempotency key, once it has an
   * outcome (or as it stands at the deadline), or 409 for a different body. A
   * repeat carries the card again, so it can take over a card booking whose
   * worker died before charging.
   */
  private async replay(previous: BookingEntity, fingerprint: string, card?: CardDetails): Promise<CreateBookingReply> {
    if (previous.requestFingerprint !== fingerprint) {
      throw new DomainError('IDEMPOTENCY_CONFLICT', 'idempotency_key was used with a different request');
    }
    const current = await this.saga.settle(previous, {
      owned: false,
      deadline: this.answerBy(),
      card: previous.paymentMethod === 'credit_card' ? card : undefined,
      settled: bookingSettled,
    });
    return { booking: this.outcome(current), replayed: true };
  }

  /** A failed booking answers with its reason (and stays visible in GET /book). */
  private outcome(booking: BookingEntity) {
    if (booking.status === 'failed') {
      const code = (booking.failureCode ?? 'PAYMENT_DECLINED') as DomainError['code'];
      throw new DomainError(code, booking.failureReason ?? 'booking failed');
    }
    return this.view(booking);
  }

  private validateAgainstPrebook(request: CreateBookingRequest, prebook: StoredPrebook) {
    const errors: FieldError[] = [];
    const expected = prebook.response.rooms.length;
    if (request.body.rooms.length !== expected) {
      errors.push({ field: 'rooms', message: `rooms must name a lead guest for each of the ${expected} prebooked room(s)` });
    }
    // The discount is fixed at prebook, where the price with it was confirmed; a code
    // named at book must be that one (never silently ignored, never a second discount).
    const promoCode = request.body.promo_code?.trim().toUpperCase();
    if (promoCode && promoCode !== prebook.promoCode) {
      errors.push({
        field: 'promo_code',
        message: prebook.promoCode
          ? `promo_code must be the code applied at prebook (${prebook.promoCode})`
          : 'promo codes are applied at prebook: prebook again with promo_code to book with this discount',
      });
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

  private newBooking(request: CreateBookingRequest, prebook: StoredPrebook, fingerprint: string): NewBooking {
    const { actor, body } = request;
    const language = languageOf(body);
    const rooms: BookingRoom[] = body.rooms.map((guest, index) => ({
      adults: [{ title: null, first_name: guest.lead_first_name.trim(), last_name: guest.lead_last_name.trim() }],
      children: (prebook.response.rooms[index]?.children_ages ?? []).map((age) => ({ title: null, first_name: '', last_name: guest.lead_last_name.trim(), age })),
    }));
    const rate = prebook.response.rate;
    return {
      clientId: actor.clientId,
      userId: actor.userId ?? null,
      sandbox: actor.sandbox,
      prebookId: prebook.prebookId,
      offer: prebook.offer,
      paymentMethod: prebook.paymentMethod,
      hotelId: prebook.offer.hotelId,
      hotelName: prebook.hotel.name,
      checkIn: prebook.response.search.check_in,
      checkOut: prebook.response.search.check_out,
      firstName: body.rooms[0].lead_first_name.trim(),
      lastName: body.rooms[0].lead_last_name.trim(),
      email: body.email,
      phone: body.phone,
      priceChargeable: milliToDecimal(toMilli(prebook.priceChargeable)),
      priceCurrency: rate.price_currency,
      rate,
      hotel: prebook.hotel,
      rooms,
      language,
      loyaltyNumber: body.loyalty_number ?? null,
      specialRequest: body.special_request ?? null,
      remarks: prebook.response.remarks,
      clientReference: body.client_reference ?? null,
      idempotencyKey: body.idempotency_key ?? null,
      requestFingerprint: fingerprint,
      promoCode: prebook.promoCode,
      promoDiscount: prebook.discount,
      ...prebook.fx,
      testScenario: actor.sandbox ? (request.testScenario ?? null) : null,
    };
  }
}

/**
 * The bookings a caller reaches through the booking API: an API key those of its
 * own world (sandbox or live), a user token its user's, the backend token all.
 * Anything else is reported as not found.
 */
function scopeOf(actor: Actor): BookingScope {
  return {
    clientId: actor.clientId,
    sandbox: actor.role === 'backend' ? null : actor.sandbox,
    userId: actor.role === 'user' ? actor.userId : null,
  };
}

/** Whose key space an idempotency key lives in. */
function keyOwner(actor: Actor) {
  return { clientId: actor.clientId, sandbox: actor.sandbox, userId: actor.userId ?? null };
}

function cardOf(request: CreateBookingRequest): CardDetails | undefined {
  const { payment_token: token, payment_expiration: expiration } = request.body;
  return token && expiration ? { token, expiration } : undefined;
}

/**
 * The request's fields under the names they had when fingerprints were first
 * stored (before the request's own fields were camelCase), so that a key used
 * before the rename still matches its repeat.
 */
const FINGERPRINT_NAMES: Record<string, string> = {
  prebookId: 'prebook_id',
  sessionId: 'session_id',
  hotelId: 'hotel_id',
  rateId: 'rate_id',
  paymentMethod: 'payment_method',
  testScenario: 'test_scenario',
};

/** What makes two requests "the same": the rate they book and every body field, in a stable order. */
function fingerprintOf(request: CreateBookingRequest): string {
  const { actor: _actor, ...rest } = request;
  const named = Object.fromEntries(Object.entries(rest).map(([field, value]) => [FINGERPRINT_NAMES[field] ?? field, value]));
  const canonical = JSON.stringify(named, (_key, value) =>
    value && typeof value === 'object' && !Array.isArray(value) ? Object.fromEntries(Object.entries(value).sort(([a], [b]) => a.localeCompare(b))) : value,
  );
  return createHash('sha256').update(canonical).digest('hex');
}

/** The language of a booking's texts: `language`, or the older `lang`, or English. */
function languageOf(body: CreateBookingRequest['body']): BookingLanguage {
  return body.language ?? body.lang ?? 'en';
}
