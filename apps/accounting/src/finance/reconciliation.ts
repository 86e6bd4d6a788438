import { ReconciliationBooking, ReconciliationMismatch, ReconciliationView, StatusTotal, milliToDecimal, milliToNumber, toMilli } from '@hotel/contracts';
import { BookingEntryRow } from './reports.repository';

/** Mismatches listed in a reconciliation; `mismatchCount` counts beyond. */
export const MAX_LISTED_MISMATCHES = 1000;

type Kinds = Partial<Record<BookingEntryRow['kind'], BookingEntryRow>>;

const amountOf = (entry: BookingEntryRow) => toMilli(entry.debit) + toMilli(entry.credit);

/**
 * Compares bookings with their ledger entries, as the saga writes them: a confirmed
 * account booking has one debit of its price; a card booking a debit and a card
 * credit of its price; a cancelled account booking a refund of price − penalty (none
 * when that is 0); a booking never confirmed has no debit. Sandbox and free bookings
 * move no money (the booking service leaves sandbox ones out).
 */
export class Reconciliation {
  private readonly totals: ReconciliationView['totals'] = {
    pending: { count: 0, amount: 0 },
    confirmed: { count: 0, amount: 0 },
    cancelled: { count: 0, amount: 0 },
    failed: { count: 0, amount: 0 },
  };
  private readonly milli: Record<keyof ReconciliationView['totals'], number> = { pending: 0, confirmed: 0, cancelled: 0, failed: 0 };
  private readonly mismatches: ReconciliationMismatch[] = [];
  private mismatchCount = 0;

  /** One page of the period's bookings with every automatic entry they have. */
  addBookings(bookings: ReconciliationBooking[], entries: BookingEntryRow[]): void {
    const byBooking = new Map<number, Kinds>();
    for (const entry of entries) byBooking.set(entry.bookingId, { ...byBooking.get(entry.bookingId), [entry.kind]: entry });
    for (const booking of bookings) {
      this.totals[booking.status].count++;
      this.milli[booking.status] += toMilli(booking.priceChargeable);
      this.check(booking, byBooking.get(booking.id) ?? {});
    }
  }

  /** An automatic entry whose booking the booking service does not know. */
  addOrphan(entry: BookingEntryRow): void {
    this.report({ kind: 'debit_without_booking', bookingId: entry.bookingId, entryId: entry.id, expected: null, actual: milliToNumber(amountOf(entry)), message: `${entry.kind} entry ${entry.id} names booking ${entry.bookingId}, which does not exist` });
  }

  addStaleHold(bookingId: number, amount: string, leaseSeconds: number): void {
    this.report({ kind: 'stale_hold', bookingId, entryId: null, expected: null, actual: milliToNumber(toMilli(amount)), message: `the hold of booking ${bookingId} is active longer than the saga lease (${leaseSeconds} s)` });
  }

  result(clientId: number, from: string, to: string): ReconciliationView {
    const totals = Object.fromEntries(
      Object.entries(this.totals).map(([status, total]) => [status, { count: total.count, amount: milliToNumber(this.milli[status as keyof ReconciliationView['totals']]) } satisfies StatusTotal]),
    ) as ReconciliationView['totals'];
    return { clientId, from, to, totals, mismatches: this.mismatches, mismatchCount: this.mismatchCount };
  }

  private check(booking: ReconciliationBooking, entries: Kinds): void {
    const price = toMilli(booking.priceChargeable);
    const debitKind = booking.paymentMethod === 'account' ? 'booking_debit' : 'card_charge';
    const debit = entries[debitKind];
    if (!booking.confirmed || price === 0) {
      if (debit && booking.status !== 'pending') this.mismatch(booking, 'debit_without_booking', debit, null, `booking ${booking.id} is ${booking.status} but has debit entry ${debit.id}`);
      return;
    }
    if (booking.paymentMethod === 'credit_card') {
      const card = entries.card_payment;
      const paired = debit && card && amountOf(debit) === price && amountOf(card) === price;
      if (!paired) this.mismatch(booking, 'card_pair_incomplete', debit ?? card ?? null, price, `card booking ${booking.id} lacks its debit and card credit of ${milliToDecimal(price)}`);
      return;
    }
    if (!debit) this.mismatch(booking, 'missing_debit', null, price, `confirmed booking ${booking.id} has no debit`);
    else if (amountOf(debit) !== price) this.mismatch(booking, 'debit_amount_differs', debit, price, `the debit of booking ${booking.id} is ${debit.debit}, its price ${milliToDecimal(price)}`);
    if (booking.status !== 'cancelled') return;
    const refund = price - toMilli(booking.cancellationPenalty ?? '0');
    const written = entries.booking_refund;
    if ((refund > 0 ? written && amountOf(written) === refund : !written)) return;
    this.mismatch(booking, 'refund_differs', written ?? null, refund, `the refund of cancelled booking ${booking.id} should be ${milliToDecimal(refund)} (price − penalty), not ${written ? written.credit : 'missing'}`);
  }

  private mismatch(booking: ReconciliationBooking, kind: ReconciliationMismatch['kind'], entry: BookingEntryRow | null, expected: number | null, message: string) {
    this.report({ kind, bookingId: booking.id, entryId: entry?.id ?? null, expected: expected === null ? null : milliToNumber(expected), actual: entry ? milliToNumber(amountOf(entry)) : null, message });
  }

  private report(mismatch: ReconciliationMismatch) {
    this.mismatchCount++;
    if (this.mismatches.length < MAX_LISTED_MISMATCHES) this.mismatches.push(mismatch);
  }
}
