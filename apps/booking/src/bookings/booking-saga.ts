import { Inject, Injectable, Logger, OnModuleDestroy, OnModuleInit } from '@nestjs/common';
import { setTimeout as sleep } from 'node:timers/promises';
import { CancellationCharge, FxConversion, SUBJECTS, SUPPLIER_TEST_SCENARIOS, SupplierTestScenario, TestScenario, milliToDecimal, toMilli } from '@hotel/contracts';
import { BACKGROUND_JOBS, BackgroundJobs, DomainError, SERVICE_CLIENT, SERVICE_ENV, ServiceClient } from '@hotel/platform';
import { BookingEnv } from '../booking.env';
import { CardAmount, CardDetails } from '../payments/payment-processor';
import { PaymentProcessors } from '../payments/payment-processors';
import { BookingEntity, FINAL_STEPS, SagaStep } from './booking.entity';
import { BookingChanges, BookingsRepository } from './bookings.repository';
import { BookingFigures } from './booking-figures';
import { FailPoints, SimulatedCrash } from './fail-points';
import { secondsToNextSupplierCheck } from './supplier-checks';

/** Outcomes that fail a booking (compensated); anything else is retried later. */
const BUSINESS_FAILURES = new Set(['INSUFFICIENT_FUNDS', 'CURRENCY_MISMATCH', 'PAYMENT_DECLINED', 'PAYMENT_INCOMPLETE', 'PAYMENT_METHOD_UNAVAILABLE', 'RATE_NOT_AVAILABLE', 'PROMO_CODE_INVALID', 'SUPPLIER_ERROR']);
/** How often a request waiting for another worker's saga looks at it again. */
const POLL_MS = 100;

/** The processor's idempotency keys of a booking's card payment and of its refunds. */
export const paymentKeys = (bookingId: number) => ({
  charge: `booking-${bookingId}-charge`,
  compensation: `booking-${bookingId}-compensation`,
  cancellation: `booking-${bookingId}-cancellation`,
});

export interface SettleOptions {
  /** The caller holds the saga's lease (it just created or started it) and runs it. */
  owned: boolean;
  /** Answer by then with the booking as it stands; the saga goes on without the caller. */
  deadline: number;
  /** Card details exist only in a request: the first run, or a repeat with the same key. */
  card?: CardDetails;
  /** When the caller's wait is over. */
  settled: (booking: BookingEntity) => boolean;
}

/**
 * The booking saga: hold funds (account) or charge the card, book with the
 * supplier, consume the promo code, then confirm and capture — or, when a step
 * fails for good, undo what was done and record the booking as failed. A
 * cancellation is the same kind of saga: the penalty fixed first, then the
 * supplier cancellation, the refund, and the cancelled status.
 *
 * Every step is idempotent and recorded before the next; a step that moves money
 * outside the platform (a card charge) records its idempotency key before it
 * runs. Whoever holds a booking's lease runs its saga; the recovery loop (at
 * start and on a timer, on whichever replica) takes over a saga whose lease ran
 * out, so a worker that dies at any line leaves work that is finished or undone:
 * no hold without a booking, no debit or card charge without a confirmed booking,
 * no cancellation without its refund.
 */
@Injectable()
export class BookingSaga implements OnModuleInit, OnModuleDestroy {
  private readonly logger = new Logger('BookingSaga');
  private timer?: NodeJS.Timeout;
  private firstPass?: NodeJS.Timeout;
  private stopped = false;

  constructor(
    private readonly bookings: BookingsRepository,
    @Inject(SERVICE_CLIENT) private readonly services: ServiceClient,
    private readonly payments: PaymentProcessors,
    @Inject(SERVICE_ENV) private readonly env: BookingEnv,
    @Inject(BACKGROUND_JOBS) private readonly background: BackgroundJobs,
    private readonly failPoints: FailPoints,
    private readonly figures: BookingFigures,
  ) {}

  onModuleInit() {
    const pass = () => void this.background.run('saga-recovery', () => this.recover());
    this.timer = setInterval(pass, this.env.RECOVERY_INTERVAL_MS);
    this.timer.unref();
    this.firstPass = setTimeout(pass, 1000);
    this.firstPass.unref();
  }

  onModuleDestroy() {
    this.stopped = true;
    clearInterval(this.timer);
    clearTimeout(this.firstPass);
  }

  /** Takes over sagas whose worker died (their lease ran out) and runs them to the end. */
  async recover(): Promise<number> {
    if (this.stopped) return 0;
    let finished = 0;
    try {
      for (const id of await this.bookings.claimAbandoned(20)) {
        if (await this.runOwned(id)) finished++;
      }
    } catch (error) {
      this.logger.warn({ msg: 'recovery pass failed', error: describe(error) });
    }
    return finished;
  }

  /**
   * Brings a booking as far as it gets by the deadline: runs its saga when the
   * caller owns it, else waits for the worker that does, taking the saga over if
   * that worker's lease runs out meanwhile. The booking as it then stands.
   */
  async settle(booking: BookingEntity, options: SettleOptions): Promise<BookingEntity> {
    let owned = options.owned;
    let current = booking;
    let running: Promise<BookingEntity | null> | undefined;
    while (!options.settled(current) && !FINAL_STEPS.includes(current.step)) {
      const left = options.deadline - Date.now();
      if (left <= 0) break;
      if (owned && !running) running = this.runOwned(current.id, options.card, current);
      if (running) {
        const outcome = await within(running, left);
        if (outcome === undefined) break; // still running: it goes on without this caller
        if (outcome !== null) return outcome;
        // The saga stopped early (a step failed for now, or the worker "crashed"): as it stands.
        return (await this.bookings.find(current.id))!;
      }
      await sleep(Math.min(POLL_MS, left));
      current = (await this.bookings.find(current.id))!;
      const claimed = !FINAL_STEPS.includes(current.step) ? await this.bookings.claim(current.id, { cardInHand: options.card !== undefined }) : null;
      if (claimed) {
        current = claimed;
        owned = true;
      }
    }
    return running ? (await this.bookings.find(current.id))! : current;
  }

  /**
   * Runs a saga whose lease the caller holds, to its end or until a step fails for
   * now; then the lease is given back so the next recovery pass retries at once.
   * Null when it stopped early.
   */
  private async runOwned(id: number, card?: CardDetails, current?: BookingEntity): Promise<BookingEntity | null> {
    try {
      return await this.run(id, card, current);
    } catch (error) {
      if (error instanceof SimulatedCrash) return null; // a dead worker gives nothing back: its lease runs out
      this.logger.warn({ msg: 'saga step failed; retried later', bookingId: id, error: describe(error) });
      await this.bookings.releaseLease(id).catch(() => undefined);
      return null;
    }
  }

  /** Runs a booking's saga from its recorded step to a final step. */
  async run(id: number, card?: CardDetails, current?: BookingEntity): Promise<BookingEntity> {
    let booking = current ?? (await this.bookings.find(id))!;
    for (let guard = 0; guard < 16; guard++) {
      if (FINAL_STEPS.includes(booking.step)) return booking;
      try {
        if (booking.step === 'supplier_pending' && !(await this.supplierConfirmed(booking))) return booking;
        booking = (await this.step(booking, card)) ?? (await this.bookings.find(id))!;
      } catch (error) {
        if (error instanceof DomainError && BUSINESS_FAILURES.has(error.code) && isBookingStep(booking.step) && booking.step !== 'compensating') {
          booking =
            (await this.bookings.advance(booking, 'compensating', { failureCode: error.code, failureReason: error.message })) ??
            (await this.bookings.find(id))!;
          continue;
        }
        throw error;
      }
    }
    throw new Error(`booking ${id}: saga did not settle`);
  }

  /** Runs the booking's next step; the booking as it then is (null when another worker moved it first). */
  private async step(booking: BookingEntity, card?: CardDetails): Promise<BookingEntity | null> {
    const settle = async (to: SagaStep, changes?: BookingChanges) => {
      const moved = await this.bookings.advance(booking, to, changes);
      if (moved && changes?.status) this.figures.settled(moved);
      return moved;
    };
    switch (booking.step) {
      case 'created':
        return booking.paymentMethod === 'credit_card' ? this.startCardPayment(booking, card, settle) : this.holdFunds(booking, settle);
      case 'charging':
        return this.chargeCard(booking, card, settle);
      case 'funds_held': {
        const supplier = await this.services.send(SUBJECTS.RATES_SUPPLIER_BOOK, {
          bookingId: booking.id,
          vendor: booking.offer.vendor,
          hotelId: booking.hotelId,
          roomId: booking.offer.roomId,
          checkIn: booking.checkIn,
          checkOut: booking.checkOut,
          rooms: booking.rooms.length,
          sandbox: booking.sandbox,
          ...(isSupplierScenario(booking.testScenario) && { testScenario: booking.testScenario }),
          ...(booking.offer.vendorRate && { vendorRate: booking.offer.vendorRate }),
          holder: { name: booking.firstName.slice(0, 50), surname: booking.lastName.slice(0, 50) },
        });
        this.failPoints.pass('after-supplier-book');
        // Without a promo code there is nothing to redeem: straight to collecting the money.
        const next = supplier.status === 'pending' ? 'supplier_pending' : booking.promoCode ? 'supplier_booked' : 'promo_redeemed';
        return settle(next, { supplierReference: supplier.reference });
      }
      case 'supplier_pending':
        return settle(booking.promoCode ? 'supplier_booked' : 'promo_redeemed');
      case 'supplier_booked':
        if (booking.promoCode) {
          await this.services.send(SUBJECTS.PROMO_CODE_REDEEM, {
            code: booking.promoCode,
            amount: milliToDecimal(toMilli(booking.priceChargeable) + toMilli(booking.promoDiscount)),
            currency: booking.priceCurrency,
            clientId: booking.clientId,
            bookingId: booking.id,
            sandbox: booking.sandbox,
          });
          this.failPoints.pass('after-promo-redeem');
        }
        return settle('promo_redeemed');
      case 'promo_redeemed': {
        await this.collect(booking);
        this.failPoints.pass('after-collect');
        const confirmed = await settle('done', { status: 'confirmed', bookingReference: [booking.supplierReference!, `HB-${booking.id}`] });
        if (confirmed) await this.settledPrebook(confirmed);
        return confirmed;
      }
      case 'compensating': {
        await this.compensate(booking);
        this.failPoints.pass('after-compensate');
        const failed = await settle('failed', { status: 'failed' });
        if (failed) await this.settledPrebook(failed);
        return failed;
      }
      case 'cancelling': {
        this.failPoints.pass('before-supplier-cancel');
        const cancelled = await this.services.send(SUBJECTS.RATES_SUPPLIER_CANCEL, { bookingId: booking.id });
        this.failPoints.pass('after-supplier-cancel');
        const penalty = this.vendorPenalty(booking, cancelled.cancellationCharge);
        return settle('refunding', penalty === null ? undefined : { cancellationPenalty: penalty });
      }
      case 'refunding':
        await this.refundCancellation(booking);
        this.failPoints.pass('after-refund');
        return settle('cancelled', { status: 'cancelled', cancellationReference: `CXL-${booking.supplierReference}`, cancelledAt: new Date() });
      default:
        return booking;
    }
  }

  /** The prebook no longer has a booking under way (best effort: it only informs is_booking_processing). */
  private async settledPrebook(booking: BookingEntity) {
    await this.services
      .send(SUBJECTS.RATES_PREBOOK_ATTACH, { prebookId: booking.prebookId, bookingId: booking.id, processing: false })
      .catch((error) => this.logger.warn({ msg: 'could not update the prebook', bookingId: booking.id, error: String(error) }));
  }

  /** A supplier that accepted without confirming: asked again every SUPPLIER_CHECK_S at first, then less and less often. */
  private async supplierConfirmed(booking: BookingEntity): Promise<boolean> {
    const supplier = await this.services.send(SUBJECTS.RATES_SUPPLIER_STATUS, { bookingId: booking.id });
    if (supplier.status === 'confirmed') return true;
    if (supplier.status === 'pending') {
      await this.bookings.awaitSupplier(booking.id, (checks) => secondsToNextSupplierCheck(checks, this.env.SUPPLIER_CHECK_S));
      return false;
    }
    throw new DomainError('SUPPLIER_ERROR', `the supplier ${supplier.status} the booking`);
  }

  /** Account payment: the binding funds check is a hold (nothing to hold for a sandbox or a free booking). */
  private async holdFunds(booking: BookingEntity, settle: (to: SagaStep, changes?: BookingChanges) => Promise<BookingEntity | null>) {
    if (!booking.sandbox && toMilli(booking.priceChargeable) > 0) {
      let userLimit: string | undefined;
      if (booking.userId) {
        const actor = { clientId: booking.clientId, userId: booking.userId, role: 'user' as const, sandbox: false };
        userLimit = (await this.services.send(SUBJECTS.USERS_USER_GET, { actor, userId: booking.userId })).clientAccountLimit;
      }
      await this.services.send(SUBJECTS.ACCOUNTING_HOLD_PLACE, {
        currency: booking.priceCurrency,
        clientId: booking.clientId,
        bookingId: booking.id,
        amount: milliToDecimal(toMilli(booking.priceChargeable)),
        ...(booking.userId && { userId: booking.userId, userLimit }),
      });
      this.failPoints.pass('after-hold');
    }
    return settle('funds_held');
  }

  /** Card payment, first half: the charge's idempotency key is recorded before anything is charged. */
  private async startCardPayment(
    booking: BookingEntity,
    card: CardDetails | undefined,
    settle: (to: SagaStep, changes?: BookingChanges) => Promise<BookingEntity | null>,
  ) {
    if (toMilli(booking.priceChargeable) === 0) return settle('funds_held');
    if (booking.testScenario === 'card_declined') throw new DomainError('PAYMENT_DECLINED', 'card declined (sandbox scenario card_declined)');
    // Card details are never stored: without them (recovery) nothing was charged and nothing can be.
    if (!card) throw paymentIncomplete();
    return settle('charging', { paymentKey: paymentKeys(booking.id).charge, paymentProcessor: this.payments.choose(booking) });
  }

  /**
   * Card payment, second half: charge under the recorded key. Without the card
   * (recovery after a crash) the processor says what the key did: charged, and
   * the saga goes on; nothing, and the key is closed and the booking fails.
   */
  private async chargeCard(
    booking: BookingEntity,
    card: CardDetails | undefined,
    settle: (to: SagaStep, changes?: BookingChanges) => Promise<BookingEntity | null>,
  ) {
    const key = booking.paymentKey!;
    const processor = this.payments.get(booking.paymentProcessor!);
    this.failPoints.pass('before-charge');
    const charge = card ? await processor.charge(key, card, priceOf(booking)) : await processor.closeKey(key, priceOf(booking));
    if (!charge) throw paymentIncomplete();
    this.failPoints.pass('after-charge');
    return settle('funds_held', { ccPaymentId: charge.paymentId });
  }

  /** Account: the hold becomes the debit. Card: a debit and the card's matching credit. Sandbox or free: no money moves. */
  private async collect(booking: BookingEntity) {
    if (booking.sandbox || toMilli(booking.priceChargeable) === 0) return;
    const name = `Booking ${booking.id} · ${booking.hotelName} · ${booking.checkIn}–${booking.checkOut}`;
    if (booking.paymentMethod === 'account') {
      await this.services.send(SUBJECTS.ACCOUNTING_HOLD_CAPTURE, { clientId: booking.clientId, bookingId: booking.id, name });
    } else {
      await this.services.send(SUBJECTS.ACCOUNTING_CARD_PAYMENT_RECORD, {
        currency: booking.priceCurrency,
        clientId: booking.clientId,
        bookingId: booking.id,
        amount: milliToDecimal(toMilli(booking.priceChargeable)),
        ccPaymentId: booking.ccPaymentId!,
        name,
        ...(booking.userId && { userId: booking.userId }),
      });
    }
  }

  /** Undoes what a failed saga did; each undo is idempotent. */
  private async compensate(booking: BookingEntity) {
    if (booking.supplierReference) await this.services.send(SUBJECTS.RATES_SUPPLIER_CANCEL, { bookingId: booking.id });
    if (booking.paymentMethod === 'account' && !booking.sandbox && toMilli(booking.priceChargeable) > 0) {
      await this.services.send(SUBJECTS.ACCOUNTING_HOLD_RELEASE, { clientId: booking.clientId, bookingId: booking.id });
    }
    if (booking.paymentKey) {
      const processor = this.payments.get(booking.paymentProcessor!);
      // The charge may have happened without being recorded (a crash, a timeout): the processor knows.
      const charge = booking.ccPaymentId ? { paymentId: booking.ccPaymentId } : await processor.closeKey(booking.paymentKey, priceOf(booking));
      if (charge) await processor.refund(charge.paymentId, priceOf(booking), paymentKeys(booking.id).compensation);
    }
  }

  /**
   * What the vendor charged for cancelling, in the client's currency as the booking was
   * priced (its rate, date and margin), never more than was paid: the penalty the refund
   * follows. Null when the vendor did not say (the rate's policy stands), or said it in
   * another currency than it was booked in (logged; the policy stands).
   */
  private vendorPenalty(booking: BookingEntity, charge: CancellationCharge | undefined): string | null {
    if (!charge) return null;
    if (charge.currency !== booking.vendorCurrency) {
      this.logger.warn({ msg: 'a vendor charged a cancellation in another currency than the booking; the rate policy stands', bookingId: booking.id, charge });
      return null;
    }
    const conversion = new FxConversion(booking.vendorCurrency, booking.priceCurrency, booking.fxRate, booking.fxRateDate, booking.fxMarginPercent);
    return milliToDecimal(Math.min(conversion.convert(toMilli(charge.amount)), toMilli(booking.priceChargeable)));
  }

  /**
   * The price less the penalty fixed when the cancellation started (or the vendor's charge): a ledger credit
   * (account; none for sandbox bookings), or back to the card under the booking's
   * refund key, so a repeated step never refunds twice.
   */
  private async refundCancellation(booking: BookingEntity) {
    const penalty = toMilli(booking.cancellationPenalty ?? '0');
    const refund = toMilli(booking.priceChargeable) - penalty;
    if (refund <= 0) return;
    if (booking.paymentMethod === 'credit_card') {
      if (booking.ccPaymentId) {
        await this.payments.get(booking.paymentProcessor!).refund(booking.ccPaymentId, { amount: milliToDecimal(refund), currency: booking.priceCurrency }, paymentKeys(booking.id).cancellation);
      }
      return;
    }
    if (booking.sandbox) return;
    await this.services.send(SUBJECTS.ACCOUNTING_REFUND_CREATE, {
        currency: booking.priceCurrency,
      clientId: booking.clientId,
      bookingId: booking.id,
      amount: milliToDecimal(refund),
      name: `Cancellation of booking ${booking.id} (penalty ${milliToDecimal(penalty)})`,
      ...(booking.userId && { userId: booking.userId }),
    });
  }
}

/** The promise's value, or undefined if it takes longer than `ms` (the promise goes on). */
async function within<T>(promise: Promise<T>, ms: number): Promise<T | undefined> {
  let timer: NodeJS.Timeout | undefined;
  try {
    return await Promise.race([promise, new Promise<undefined>((resolve) => (timer = setTimeout(() => resolve(undefined), ms)))]);
  } finally {
    clearTimeout(timer);
  }
}

/** A sandbox scenario the supplier plays (the others are played before the supplier is asked). */
function isSupplierScenario(scenario: TestScenario | null): scenario is SupplierTestScenario {
  return (SUPPLIER_TEST_SCENARIOS as readonly (TestScenario | null)[]).includes(scenario);
}

function isBookingStep(step: SagaStep): boolean {
  return step !== 'cancelling' && step !== 'refunding';
}

/** What the card pays for a booking: its price in its client's currency. */
function priceOf(booking: BookingEntity): CardAmount {
  return { amount: booking.priceChargeable, currency: booking.priceCurrency };
}

function paymentIncomplete(): DomainError {
  return new DomainError('PAYMENT_INCOMPLETE', 'the booking was interrupted before the card was charged; nothing was charged: book again');
}

function describe(error: unknown): string {
  return error instanceof Error ? error.message : String(error);
}
