import { Inject, Injectable, Logger } from '@nestjs/common';
import { SupplierBookRequest, SupplierBooking } from '@hotel/contracts';
import { PlacedSupplierBooking, SupplierPort, Suppliers } from '@hotel/inventory';
import { DomainError, SERVICE_ENV } from '@hotel/platform';
import { RatesEnv } from '../rates.env';
import { SupplierBookingRecord, SupplierBookingsRepository } from './supplier-bookings.repository';

/**
 * The supplier API's book, status and cancel: the vendor is asked through its
 * SupplierPort, and the platform keeps its own record around the call (the vendor keeps
 * its allotment). Book and cancel are idempotent by booking id, which is also the
 * vendor's idempotency reference (its client reference).
 */
@Injectable()
export class SupplierService {
  private readonly logger = new Logger('SupplierService');

  constructor(
    private readonly bookings: SupplierBookingsRepository,
    private readonly suppliers: Suppliers,
    @Inject(SERVICE_ENV) private readonly env: RatesEnv,
  ) {}

  /**
   * Reserve, call, record, each apart: the booking is recorded `requested` in one short
   * transaction (holding the booking id's lock), then the vendor is called with no
   * transaction open, then its answer is recorded. A repeat answers the record. A
   * vendor's refusal forgets the record.
   * An answer that never came (a timeout, a dropped connection, a crash) leaves the
   * record `requested`: once its attempt has run out (SUPPLIER_ATTEMPT_S), a retry
   * first asks the vendor whether it made the booking (SupplierPort.find, by the
   * booking id as client reference) and books only if it did not, so one platform
   * booking is never two vendor bookings. While an attempt is under way, a concurrent
   * one answers 503 and is retried later.
   */
  async book(request: SupplierBookRequest): Promise<SupplierBooking> {
    const { vendor, ...order } = request;
    const supplier = this.supplierOf(vendor);
    const attemptSeconds = this.env.SUPPLIER_ATTEMPT_S;
    const reserved = await this.bookings.inBookingLock(request.bookingId, async (booking): Promise<{ answered: SupplierBooking } | { lostAnswer: boolean }> => {
      const existing = await booking.find(request.bookingId);
      if (existing && existing.status !== 'requested') return { answered: { reference: existing.reference!, status: existing.status } };
      if (existing?.attemptUnderWay) {
        throw new DomainError('SERVICE_UNAVAILABLE', `the vendor is being asked about booking ${request.bookingId} already; retry later`, undefined, attemptSeconds);
      }
      if (existing) {
        await booking.renewAttempt(request.bookingId, attemptSeconds);
        return { lostAnswer: true };
      }
      const { bookingId, hotelId, roomId, checkIn, checkOut, rooms, sandbox } = request;
      await booking.insertRequested({ bookingId, vendor, hotelId, roomId, checkIn, checkOut, rooms, sandbox }, attemptSeconds);
      return { lostAnswer: false };
    });
    if ('answered' in reserved) return reserved.answered;

    let answer: SupplierBooking;
    try {
      // A lost answer: the vendor may have made the booking; ask before booking again.
      answer = (reserved.lostAnswer ? await supplier.find(order) : null) ?? (await supplier.book(order));
      if (answer.status !== 'confirmed' && answer.status !== 'pending') throw refused(answer);
    } catch (error) {
      // A refusal: nothing was booked. Anything else may have been: the record stays for a retry to ask.
      if (error instanceof DomainError && (error.code === 'SUPPLIER_ERROR' || error.code === 'RATE_NOT_AVAILABLE')) await this.forget(request.bookingId);
      throw error;
    }
    const made = { reference: answer.reference, status: answer.status };
    if (await this.bookings.recordAnswer(request.bookingId, made)) return made;
    // Answered meanwhile by a later attempt (this one outlived SUPPLIER_ATTEMPT_S): the
    // booking the record names stands; one of another reference is a second vendor
    // booking for the same platform booking, and is cancelled at once.
    const recorded = (await this.bookings.find(request.bookingId))!;
    if (recorded.reference !== made.reference) await this.cancelDuplicate(supplier, request, made.reference);
    return { reference: recorded.reference!, status: recorded.status as SupplierBooking['status'] };
  }

  private async cancelDuplicate(supplier: SupplierPort, request: SupplierBookRequest, reference: string): Promise<void> {
    try {
      await supplier.cancel({ bookingId: request.bookingId, reference, status: 'confirmed', sandbox: request.sandbox, placedAt: new Date() });
      this.logger.warn({ msg: 'a second vendor booking of one platform booking was cancelled', bookingId: request.bookingId, vendor: request.vendor, reference });
    } catch (error) {
      this.logger.error({ msg: 'a second vendor booking of one platform booking could not be cancelled: cancel it with the vendor', bookingId: request.bookingId, vendor: request.vendor, reference, error: String(error) });
    }
  }

  /** Forgets a requested booking the vendor refused. */
  private async forget(bookingId: number): Promise<void> {
    await this.bookings.inTransaction(async (transaction) => {
      const locked = await transaction.lock(bookingId);
      if (locked?.status === 'requested') await transaction.deleteRequested(bookingId);
    });
  }

  /**
   * Where a supplier booking stands; a pending one is asked of its vendor, and recorded
   * once confirmed. One the vendor rejected (or cancelled) while pending holds nothing
   * there any more: the record says cancelled, so the saga's
   * compensation, which cancels it, asks the vendor nothing and cannot loop on it.
   */
  async status(bookingId: number): Promise<SupplierBooking> {
    const booking = await this.bookings.find(bookingId);
    if (!booking) throw notFound(bookingId);
    if (booking.status === 'requested') throw answerNotKnown(bookingId);
    if (booking.status !== 'pending') return { reference: booking.reference!, status: booking.status };
    const answer = await this.supplierOf(booking.vendor).status(placed(booking));
    if (answer.status === 'confirmed') return (await this.bookings.confirm(bookingId)) ?? answer;
    if (answer.status === 'rejected' || answer.status === 'cancelled') {
      await this.bookings.inTransaction(async (transaction) => {
        const locked = await transaction.lock(bookingId);
        if (locked?.status === 'pending') await transaction.markCancelled(bookingId);
      });
    }
    return answer;
  }

  /**
   * Cancels with the vendor first, with no transaction open, then records what the
   * vendor charged, in one transaction holding the booking's row. Cancelling again asks
   * the vendor nothing and answers the charge recorded; two cancellations at once both
   * ask it (a vendor answers a booking cancelled already as cancelled) and one records.
   */
  async cancel(bookingId: number): Promise<SupplierBooking> {
    const booking = await this.bookings.find(bookingId);
    if (!booking) throw notFound(bookingId);
    if (booking.status === 'requested') throw answerNotKnown(bookingId);
    if (booking.status === 'cancelled') return cancelledAnswer(booking);
    const answer = await this.supplierOf(booking.vendor).cancel(placed(booking));
    if (answer.status !== 'cancelled') throw new DomainError('SUPPLIER_ERROR', `the supplier did not cancel the booking (it answered ${answer.status})`);
    await this.bookings.inTransaction(async (transaction) => {
      const locked = await transaction.lock(bookingId);
      if (!locked || locked.status === 'cancelled') return;
      await transaction.markCancelled(bookingId, answer.cancellationCharge);
    });
    // What the first cancellation recorded (two at once: the one that recorded it).
    return cancelledAnswer((await this.bookings.find(bookingId))!);
  }

  private supplierOf(vendor: string): SupplierPort {
    const supplier = this.suppliers.find(vendor);
    if (!supplier) throw new DomainError('SUPPLIER_ERROR', `no supplier is registered for vendor ${vendor}`);
    return supplier;
  }
}

/** A booking the vendor answered (not `requested`). */
function placed(booking: SupplierBookingRecord): PlacedSupplierBooking {
  return { bookingId: booking.bookingId, reference: booking.reference!, status: booking.status as PlacedSupplierBooking['status'], sandbox: booking.sandbox, placedAt: booking.createdAt };
}

/** A cancelled booking as recorded, with what the vendor charged when it said. */
function cancelledAnswer(booking: SupplierBookingRecord): SupplierBooking {
  const charge = booking.cancellationCharge !== null && booking.cancellationCurrency !== null ? { amount: booking.cancellationCharge, currency: booking.cancellationCurrency } : undefined;
  return { reference: booking.reference!, status: 'cancelled', ...(charge && { cancellationCharge: charge }) };
}

/** The vendor has not answered this booking yet (its attempt is under way, or its answer was lost and a retry asks again). */
function answerNotKnown(bookingId: number): DomainError {
  return new DomainError('SERVICE_UNAVAILABLE', `the vendor's answer for booking ${bookingId} is not known yet; retry later`, undefined, 5);
}

function notFound(bookingId: number): DomainError {
  return DomainError.notFound(`supplier booking for booking ${bookingId}`);
}

function refused(answer: SupplierBooking): DomainError {
  return new DomainError('SUPPLIER_ERROR', `the supplier ${answer.status} the booking`);
}
