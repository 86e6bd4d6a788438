import { ReconciliationBooking, ReconciliationMismatch, ReconciliationView, StatusTotals, formatAmount, isIsoCurrency, milliToDecimal, milliToNumber, toMilli } from '@hotel/contracts';
import { BookingEntryRow } from './reports.repository';

/** Mismatches listed in a reconciliation; `mismatchCount` counts beyond. */
export const MAX_LISTED_MISMATCHES = 1000;

type Kinds = Partial<Record<BookingEntryRow['kind'], BookingEntryRow>>;
type Status = keyof StatusTotals;
const STATUSES: readonly Status[] = ['pending', 'confirmed', 'cancelled', 'failed'];

const amountOf = (entry: BookingEntryRow) => toMilli(entry.debit) + toMilli(entry.credit);

/** Counts and sums (bigint: a period of any number of bookings cannot overflow) per status, in one currency. */
class CurrencyTotals {
  private readonly counts: Record<Status, number> = { pending: 0, confirmed: 0, cancelled: 0, failed: 0 };
  private readonly milli: Record<Status, bigint> = { pending: 0n, confirmed: 0n, cancelled: 0n, failed: 0n };

  constructor(readonly currency: string) {}

  add(booking: ReconciliationBooking): void {
    this.counts[booking.status]++;
    this.milli[booking.status] += BigInt(toMilli(booking.priceChargeable));
  }

  view(): StatusTotals {
    return Object.fromEntries(STATUSES.map((status) => [status, { count: this.counts[status], amount: milliToNumber(this.milli[status]), currency: this.currency }])) as StatusTotals;
  }
}

/** An amount as its currency writes it; in a currency the platform does not take (never expected) as a plain exact decimal. */
export function amountIn(milli: number, currency: string): string {
  return isIsoCurrency(currency) ? formatAmount(milli, currency) : milliToDecimal(milli);
}

/**
 * Compares bookings with their ledger entries, as the saga writes them: a confirmed
 * account booking has one debit of its price; a card booking a debit and a card
 * credit of its price; a cancelled account booking a refund of price − penalty (none
 * when that is 0); a booking never confirmed has no debit. Sandbox and free bookings
 * move no money (the booking service leaves sandbox ones out). Per currency: the
 * ledger is in the account's currency, so a booking priced in another cannot be
 * compared with it (a currency_differs mismatch) and is totalled apart.
 */
export class Reconciliation {
  private readonly totals: CurrencyTotals;
  private readonly otherCurrencies = new Map<string, CurrencyTotals>();
  private readonly mismatches: ReconciliationMismatch[] = [];
  private mismatchCount = 0;

  /** `currency`: the account's. */
  constructor(private readonly currency: string) {
    this.totals = new CurrencyTotals(currency);
  }

  /** One page of the period's bookings with every automatic entry they have. */
  addBookings(bookings: ReconciliationBooking[], entries: BookingEntryRow[]): void {
    const byBooking = new Map<number, Kinds>();
    for (const entry of entries) byBooking.set(entry.bookingId, { ...byBooking.get(entry.bookingId), [entry.kind]: entry });
    for (const booking of bookings) {
      const kinds = byBooking.get(booking.id) ?? {};
      if (booking.currency === this.currency) {
        this.totals.add(booking);
        this.check(booking, kinds);
        continue;
      }
      const other = this.otherCurrencies.get(booking.currency) ?? new CurrencyTotals(booking.currency);
      this.otherCurrencies.set(booking.currency, other);
      other.add(booking);
      const entry = kinds.booking_debit ?? kinds.card_charge ?? kinds.booking_refund ?? kinds.card_payment ?? null;
      this.mismatch(
        booking,
        'currency_differs',
        entry,
        toMilli(booking.priceChargeable),
        `booking ${booking.id} is priced in ${booking.currency} (${amountIn(toMilli(booking.priceChargeable), booking.currency)}), the account is in ${this.currency}`,
      );
    }
  }

  /** An automatic entry whose booking the booking service does not know. */
  addOrphan(entry: BookingEntryRow): void {
    this.report({
      kind: 'debit_without_booking',
      bookingId: entry.bookingId,
      entryId: entry.id,
      expected: null,
      actual: milliToNumber(amountOf(entry)),
      ...this.noBooking(),
      message: `${entry.kind} entry ${entry.id} names booking ${entry.bookingId}, which does not exist`,
    });
  }

  addStaleHold(bookingId: number, amount: string, leaseSeconds: number): void {
    this.report({
      kind: 'stale_hold',
      bookingId,
      entryId: null,
      expected: null,
      actual: milliToNumber(toMilli(amount)),
      ...this.noBooking(),
      message: `the hold of booking ${bookingId} (${this.written(toMilli(amount))} ${this.currency}) is active longer than the saga lease (${leaseSeconds} s)`,
    });
  }

  /** The ledger's side of the view (the vendors' section comes from the rates service). */
  result(clientId: number, from: string, to: string): Omit<ReconciliationView, 'vendors'> {
    const otherCurrencies = [...this.otherCurrencies.values()].sort((a, b) => a.currency.localeCompare(b.currency)).map((totals) => ({ currency: totals.currency, totals: totals.view() }));
    return { clientId, from, to, currency: this.currency, totals: this.totals.view(), otherCurrencies, mismatches: this.mismatches, mismatchCount: this.mismatchCount };
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
      if (!paired) this.mismatch(booking, 'card_pair_incomplete', debit ?? card ?? null, price, `card booking ${booking.id} lacks its debit and card credit of ${this.written(price)}`);
      return;
    }
    if (!debit) this.mismatch(booking, 'missing_debit', null, price, `confirmed booking ${booking.id} has no debit`);
    else if (amountOf(debit) !== price) this.mismatch(booking, 'debit_amount_differs', debit, price, `the debit of booking ${booking.id} is ${this.written(amountOf(debit))}, its price ${this.written(price)}`);
    if (booking.status !== 'cancelled') return;
    const refund = price - toMilli(booking.cancellationPenalty ?? '0');
    const refunded = entries.booking_refund;
    if ((refund > 0 ? refunded && amountOf(refunded) === refund : !refunded)) return;
    this.mismatch(
      booking,
      'refund_differs',
      refunded ?? null,
      refund,
      `the refund of cancelled booking ${booking.id} should be ${this.written(refund)} (price − penalty), not ${refunded ? this.written(amountOf(refunded)) : 'missing'}`,
    );
  }

  /** A mismatch of a booking: its amounts in the booking's currency, with the vendor's price and the rate that converted it. */
  private mismatch(booking: ReconciliationBooking, kind: ReconciliationMismatch['kind'], entry: BookingEntryRow | null, expected: number | null, message: string) {
    const vendorPrice = toMilli(booking.vendorPrice);
    this.report({
      kind,
      bookingId: booking.id,
      entryId: entry?.id ?? null,
      expected: expected === null ? null : milliToNumber(expected),
      actual: entry ? milliToNumber(amountOf(entry)) : null,
      currency: booking.currency,
      vendorPrice: amountIn(vendorPrice, booking.vendorCurrency),
      vendorCurrency: booking.vendorCurrency,
      fxRate: booking.fxRate,
      fxRateDate: booking.fxRateDate,
      message,
    });
  }

  private noBooking() {
    return { currency: this.currency, vendorPrice: null, vendorCurrency: null, fxRate: null, fxRateDate: null };
  }

  private written(milli: number): string {
    return amountIn(milli, this.currency);
  }

  private report(mismatch: ReconciliationMismatch) {
    this.mismatchCount++;
    if (this.mismatches.length < MAX_LISTED_MISMATCHES) this.mismatches.push(mismatch);
  }
}
