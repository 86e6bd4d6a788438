import { ReconciliationBooking } from '@hotel/contracts';
import { Reconciliation } from './reconciliation';
import { BookingEntryRow } from './reports.repository';

const booking = (id: number, changes: Partial<ReconciliationBooking> = {}): ReconciliationBooking => ({
  id,
  status: 'confirmed',
  paymentMethod: 'account',
  sandbox: false,
  priceChargeable: '100.00',
  currency: 'USD',
  vendorCurrency: 'USD',
  vendorPrice: '100.00',
  fxRate: '1',
  fxRateDate: null,
  fxMarginPercent: '0',
  cancellationPenalty: null,
  confirmed: true,
  ...changes,
});
let nextId = 1;
const entry = (bookingId: number, kind: BookingEntryRow['kind'], amount: string): BookingEntryRow => ({
  id: nextId++,
  bookingId,
  kind,
  debit: kind === 'booking_debit' || kind === 'card_charge' ? amount : '0.00',
  credit: kind === 'booking_refund' || kind === 'card_payment' ? amount : '0.00',
});
const kinds = (bookings: ReconciliationBooking[], entries: BookingEntryRow[]) => {
  const reconciliation = new Reconciliation();
  reconciliation.addBookings(bookings, entries);
  return reconciliation.result(1, '2026-11-01', '2026-11-30').mismatches.map((mismatch) => [mismatch.kind, mismatch.bookingId]);
};

describe('Reconciliation', () => {
  it('finds nothing when every booking has the entries the saga writes', () => {
    const bookings = [
      booking(1),
      booking(2, { paymentMethod: 'credit_card' }),
      booking(3, { status: 'cancelled', cancellationPenalty: '30.00' }),
      booking(4, { status: 'cancelled', cancellationPenalty: '100.00' }),
      booking(5, { status: 'failed', confirmed: false }),
      booking(6, { priceChargeable: '0.00' }),
    ];
    const entries = [
      entry(1, 'booking_debit', '100.00'),
      entry(2, 'card_charge', '100.00'),
      entry(2, 'card_payment', '100.00'),
      entry(3, 'booking_debit', '100.00'),
      entry(3, 'booking_refund', '70.00'),
      entry(4, 'booking_debit', '100.00'),
    ];
    expect(kinds(bookings, entries)).toEqual([]);
  });

  it('names each kind of mismatch', () => {
    const bookings = [
      booking(1),
      booking(2, { priceChargeable: '99.99' }),
      booking(3, { paymentMethod: 'credit_card' }),
      booking(4, { status: 'cancelled', cancellationPenalty: '10.00' }),
      booking(5, { status: 'failed', confirmed: false }),
    ];
    const entries = [entry(2, 'booking_debit', '100.00'), entry(3, 'card_charge', '100.00'), entry(4, 'booking_debit', '100.00'), entry(4, 'booking_refund', '100.00'), entry(5, 'booking_debit', '100.00')];
    expect(kinds(bookings, entries)).toEqual([
      ['missing_debit', 1],
      ['debit_amount_differs', 2],
      ['card_pair_incomplete', 3],
      ['refund_differs', 4],
      ['debit_without_booking', 5],
    ]);
  });

  it('totals the bookings per status exactly, and counts mismatches past the listed ones', () => {
    const reconciliation = new Reconciliation();
    reconciliation.addBookings([booking(1, { priceChargeable: '0.10' }), booking(2, { priceChargeable: '0.20' })], []);
    for (let i = 0; i < 1500; i++) reconciliation.addStaleHold(i + 1, '1.00', 15);
    const result = reconciliation.result(1, '2026-11-01', '2026-11-30');
    expect(result.totals.confirmed).toEqual({ count: 2, amount: 0.3 });
    expect(result.mismatches).toHaveLength(1000);
    expect(result.mismatchCount).toBe(1502);
  });
});
