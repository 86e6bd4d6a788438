import { Inject, Injectable } from '@nestjs/common';
import {
  ReconciliationBookingPage,
  ReconciliationBookingsRequest,
  parseDay,
  Actor,
  BackendBookingQuery,
  BookingOrder,
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
  BookingCreated,
  BookingSnapshot,
  BookingOrderRequest,
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
import { bookingSnapshotOf } from './booking-view';
import { bookingFxOf } from './backend-booking-view';
import { BookingSaga } from './booking-saga';
import { BookingEntity, CANCELLATION_STEPS, FINAL_STEPS } from './booking.entity';
import { BookingScope, BookingsRepository, NewBooking } from './bookings.repository';
import { filledApiView } from './stored-views';
import { taggedPage } from './tagged-page';

const CARD_FIELDS = ['token', 'firstName', 'lastName', 'postalCode', 'expiration'] as const;
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

  private snapshot(row: BookingEntity): BookingSnapshot {
    return bookingSnapshotOf(row, this.vouchers.url(row.id));
  }

  /**
   * Books a prebook: one booking per idempotency key, one live booking per prebook.
   * Answers by its caller's deadline: a saga that takes longer (a slow supplier, a
   * service down) answers `pending` and goes on; the booking is finished or undone
   * whatever happens to this process.
   */
  async create(request: BookingOrderRequest): Promise<BookingCreated> {
    const { actor, order, fingerprint } = request;
    const card = cardOf(order);
    if (order.idempotencyKey) {
      const previous = await this.bookings.findByIdempotencyKey(keyOwner(actor), order.idempotencyKey);
      if (previous) return this.replay(previous, fingerprint, card);
    }
    const prebook = await this.services.send(SUBJECTS.RATES_PREBOOK_FIND, {
      actor,
      language: order.language ?? 'en',
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
      if (error instanceof DomainError && order.idempotencyKey) {
        const winner = await this.bookings.findByIdempotencyKey(keyOwner(actor), order.idempotencyKey);
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
   * outcome (or as it stands at the deadline), or 409 for a different request (another fingerprint). A
   * repeat carries the card again, so it can take over a card booking whose
   * worker died before charging.
   */
  private async replay(previous: BookingEntity, fingerprint: string, card?: CardDetails): Promise<BookingCreated> {
    if (previous.requestFingerprint !== fingerprint) {
      throw new DomainError('IDEMPOTENCY_CONFLICT', 'idempotencyKey was used with a different request');
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
    return this.snapshot(booking);
  }

  private validateAgainstPrebook({ order }: BookingOrderRequest, prebook: StoredPrebook) {
    const errors: FieldError[] = [];
    const expected = prebook.response.rooms.length;
    if (order.leadGuests.length !== expected) {
      errors.push({ field: 'leadGuests', message: `leadGuests must name a lead guest for each of the ${expected} prebooked room(s)` });
    }
    // The discount is fixed at prebook, where the price with it was confirmed; a code
    // named at book must be that one (never silently ignored, never a second discount).
    const promoCode = order.promoCode?.trim().toUpperCase();
    if (promoCode && promoCode !== prebook.promoCode) {
      errors.push({
        field: 'promoCode',
        message: prebook.promoCode
          ? `promoCode must be the code applied at prebook (${prebook.promoCode})`
          : 'promo codes are applied at prebook: prebook again with promoCode to book with this discount',
      });
    }
    if (prebook.paymentMethod === 'credit_card') {
      for (const field of CARD_FIELDS) {
        if (!order.card[field]) errors.push({ field: `card.${field}`, message: `card.${field} is required for credit_card payment` });
      }
      if (order.card.expiration && expirationPassed(order.card.expiration)) {
        errors.push({ field: 'card.expiration', message: 'card.expiration is in the past' });
      }
    }
    if (errors.length) throw DomainError.validation(errors);
  }

  private newBooking(request: BookingOrderRequest, prebook: StoredPrebook, fingerprint: string): NewBooking {
    const { actor, order } = request;
    const language = order.language ?? 'en';
    const rooms: BookingRoom[] = order.leadGuests.map((guest, index) => ({
      adults: [{ title: null, first_name: guest.firstName.trim(), last_name: guest.lastName.trim() }],
      children: (prebook.response.rooms[index]?.children_ages ?? []).map((age) => ({ title: null, first_name: '', last_name: guest.lastName.trim(), age })),
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
      firstName: order.leadGuests[0].firstName.trim(),
      lastName: order.leadGuests[0].lastName.trim(),
      email: order.email,
      phone: order.phone,
      priceChargeable: milliToDecimal(toMilli(prebook.priceChargeable)),
      priceCurrency: rate.price_currency,
      rate,
      hotel: prebook.hotel,
      rooms,
      language,
      loyaltyNumber: order.loyaltyNumber ?? null,
      specialRequest: order.specialRequest ?? null,
      remarks: prebook.response.remarks,
      clientReference: order.clientReference ?? null,
      idempotencyKey: order.idempotencyKey ?? null,
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

function cardOf(order: BookingOrder): CardDetails | undefined {
  const { token, expiration } = order.card;
  return token && expiration ? { token, expiration } : undefined;
}
