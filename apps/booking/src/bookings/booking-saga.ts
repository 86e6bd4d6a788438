import { Inject, Injectable, Logger, OnModuleDestroy, OnModuleInit } from '@nestjs/common';
import { SUBJECTS, centsToDecimal, toCents } from '@hotel/contracts';
import { BACKGROUND_JOBS, BackgroundJobs, DomainError, SERVICE_CLIENT, SERVICE_ENV, ServiceClient } from '@hotel/platform';
import { BookingEnv } from '../booking.env';
import { CardDetails, PAYMENT_PROCESSOR, PaymentProcessor } from '../payments/payment-processor';
import { BookingChanges, BookingRow, BookingsRepository, SagaStep } from './bookings.repository';

/** Outcomes that fail a booking (compensated); anything else is retried later. */
const BUSINESS_FAILURES = new Set(['INSUFFICIENT_FUNDS', 'PAYMENT_DECLINED', 'RATE_NOT_AVAILABLE', 'PROMO_CODE_INVALID', 'SUPPLIER_ERROR']);

/**
 * The booking saga: hold funds (account) or charge the card, book with the
 * supplier, consume the promo code, then confirm and capture — or, when a step
 * fails for good, undo what was done and record the booking as failed. Every
 * step is idempotent and recorded before the next, so the recovery loop (at
 * start and on a timer, on whichever replica) finishes or undoes a saga whose
 * worker crashed: no hold without a booking, no debit without a confirmed booking.
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
    @Inject(PAYMENT_PROCESSOR) private readonly payments: PaymentProcessor,
    @Inject(SERVICE_ENV) private readonly env: BookingEnv,
    @Inject(BACKGROUND_JOBS) private readonly background: BackgroundJobs,
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
        try {
          await this.run(id);
          finished++;
        } catch (error) {
          this.logger.warn({ msg: 'saga step failed; retried later', bookingId: id, error: error instanceof Error ? error.message : String(error) });
        }
      }
    } catch (error) {
      this.logger.warn({ msg: 'recovery pass failed', error: error instanceof Error ? error.message : String(error) });
    }
    return finished;
  }

  /** Runs a booking's saga from its recorded step to done or failed. Card details exist only on the first run. */
  async run(id: number, card?: CardDetails, current?: BookingRow): Promise<BookingRow> {
    let booking = current ?? (await this.bookings.find(id))!;
    for (let guard = 0; guard < 12; guard++) {
      if (booking.step === 'done' || booking.step === 'failed') return booking;
      try {
        if (booking.step === 'supplier_pending' && !(await this.supplierConfirmed(booking))) return booking;
        booking = (await this.step(booking, card)) ?? (await this.bookings.find(id))!;
      } catch (error) {
        if (error instanceof DomainError && BUSINESS_FAILURES.has(error.code) && booking.step !== 'compensating') {
          booking =
            (await this.bookings.advance(booking, 'compensating', { failure_code: error.code, failure_reason: error.message })) ??
            (await this.bookings.find(id))!;
          continue;
        }
        throw error;
      }
    }
    throw new Error(`booking ${id}: saga did not settle`);
  }

  /** Runs the booking's next step; the booking as it then is (null when another worker moved it first). */
  private async step(booking: BookingRow, card?: CardDetails): Promise<BookingRow | null> {
    const settle = (to: SagaStep, changes?: BookingChanges) => this.bookings.advance(booking, to, changes);
    switch (booking.step) {
      case 'created':
        return this.secureFunds(booking, card, settle);
      case 'funds_held': {
        const supplier = await this.services.send(SUBJECTS.RATES_SUPPLIER_BOOK, {
          booking_id: booking.id,
          vendor: booking.offer.vendor,
          hotel_id: booking.hotel_id,
          room_id: booking.offer.roomId,
          check_in: booking.check_in,
          check_out: booking.check_out,
          rooms: booking.rooms.length,
          ...(booking.test_scenario === 'supplier_pending' || booking.test_scenario === 'supplier_error' ? { test_scenario: booking.test_scenario } : {}),
        });
        // Without a promo code there is nothing to redeem: straight to collecting the money.
        const next = supplier.status === 'pending' ? 'supplier_pending' : booking.promo_code ? 'supplier_booked' : 'promo_redeemed';
        return settle(next, { supplier_reference: supplier.reference });
      }
      case 'supplier_pending':
        return settle(booking.promo_code ? 'supplier_booked' : 'promo_redeemed');
      case 'supplier_booked':
        if (booking.promo_code) {
          await this.services.send(SUBJECTS.PROMO_CODE_REDEEM, {
            code: booking.promo_code,
            amount: centsToDecimal(toCents(booking.price_chargeable) + toCents(booking.promo_discount)),
            currency: booking.price_currency,
            clientId: booking.client_id,
            bookingId: booking.id,
          });
        }
        return settle('promo_redeemed');
      case 'promo_redeemed': {
        await this.collect(booking);
        const confirmed = await settle('done', { status: 'confirmed', booking_reference: [booking.supplier_reference!, `HB-${booking.id}`] });
        if (confirmed) await this.settledPrebook(confirmed);
        return confirmed;
      }
      case 'compensating': {
        await this.compensate(booking);
        const failed = await settle('failed', { status: 'failed' });
        if (failed) await this.settledPrebook(failed);
        return failed;
      }
      default:
        return booking;
    }
  }

  /** The prebook no longer has a booking under way (best effort: it only informs is_booking_processing). */
  private async settledPrebook(booking: BookingRow) {
    await this.services
      .send(SUBJECTS.RATES_PREBOOK_ATTACH, { prebook_id: booking.prebook_id, booking_id: booking.id, processing: false })
      .catch((error) => this.logger.warn({ msg: 'could not update the prebook', bookingId: booking.id, error: String(error) }));
  }

  /** A supplier that accepted without confirming: asked again each time the saga's lease runs out. */
  private async supplierConfirmed(booking: BookingRow): Promise<boolean> {
    const supplier = await this.services.send(SUBJECTS.RATES_SUPPLIER_STATUS, { booking_id: booking.id });
    if (supplier.status === 'confirmed') return true;
    if (supplier.status === 'pending') {
      await this.bookings.extendLease(booking.id);
      return false;
    }
    throw new DomainError('SUPPLIER_ERROR', `the supplier ${supplier.status} the booking`);
  }

  private async secureFunds(
    booking: BookingRow,
    card: CardDetails | undefined,
    settle: (to: SagaStep, changes?: BookingChanges) => Promise<BookingRow | null>,
  ): Promise<BookingRow | null> {
    if (booking.payment_method === 'credit_card') {
      // Card details are never stored: a card saga interrupted before the charge cannot resume it.
      if (!card) throw new DomainError('PAYMENT_DECLINED', 'payment was not completed; book again');
      if (booking.test_scenario === 'card_declined') throw new DomainError('PAYMENT_DECLINED', 'card declined (sandbox scenario card_declined)');
      const { paymentId } = await this.payments.charge(booking.id, card, booking.price_chargeable);
      return settle('funds_held', { cc_payment_id: paymentId });
    }
    if (!booking.sandbox) {
      let userLimit: string | undefined;
      if (booking.user_id) {
        const actor = { clientId: booking.client_id, userId: booking.user_id, role: 'user' as const, sandbox: false };
        userLimit = (await this.services.send(SUBJECTS.USERS_USER_GET, { actor, userId: booking.user_id })).clientAccountLimit;
      }
      await this.services.send(SUBJECTS.ACCOUNTING_HOLD_PLACE, {
        clientId: booking.client_id,
        bookingId: booking.id,
        amount: centsToDecimal(toCents(booking.price_chargeable)),
        ...(booking.user_id && { userId: booking.user_id, userLimit }),
      });
    }
    return settle('funds_held');
  }

  /** Account: the hold becomes the debit. Card: a debit and the card's matching credit. Sandbox: no money moves. */
  private async collect(booking: BookingRow) {
    if (booking.sandbox) return;
    const name = `Booking ${booking.id} · ${booking.hotel_name} · ${booking.check_in}–${booking.check_out}`;
    if (booking.payment_method === 'account') {
      await this.services.send(SUBJECTS.ACCOUNTING_HOLD_CAPTURE, { clientId: booking.client_id, bookingId: booking.id, name });
    } else {
      await this.services.send(SUBJECTS.ACCOUNTING_CARD_PAYMENT_RECORD, {
        clientId: booking.client_id,
        bookingId: booking.id,
        amount: centsToDecimal(toCents(booking.price_chargeable)),
        ccPaymentId: booking.cc_payment_id!,
        name,
        ...(booking.user_id && { userId: booking.user_id }),
      });
    }
  }

  /** Undoes what a failed saga did; each undo is idempotent. */
  private async compensate(booking: BookingRow) {
    if (booking.supplier_reference) await this.services.send(SUBJECTS.RATES_SUPPLIER_CANCEL, { booking_id: booking.id });
    if (booking.payment_method === 'account' && !booking.sandbox) {
      await this.services.send(SUBJECTS.ACCOUNTING_HOLD_RELEASE, { clientId: booking.client_id, bookingId: booking.id });
    }
    if (booking.cc_payment_id) await this.payments.refund(booking.cc_payment_id, booking.price_chargeable);
  }
}
