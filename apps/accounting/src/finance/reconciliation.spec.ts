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
  const reconciliation = new Reconciliation('USD');
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
    const reconciliation = new Reconciliation('USD');
    reconciliation.addBookings([booking(1, { priceChargeable: '0.10' }), booking(2, { priceChargeable: '0.20' })], []);
    for (let i = 0; i < 1500; i++) reconciliation.addStaleHold(i + 1, '1.00', 15);
    const result = reconciliation.result(1, '2026-11-01', '2026-11-30');
    expect(result.totals.confirmed).toEqual({ count: 2, amount: 0.3, currency: 'USD' });
    expect(result.mismatches).toHaveLength(1000);
    expect(result.mismatchCount).toBe(1502);
  });

  it('sums past a safe integer of thousandths without overflow (bigint)', () => {
    const reconciliation = new Reconciliation('USD');
    const price = '999999999999.99';
    const bookings = Array.from({ length: 20 }, (_, i) => booking(i + 1, { priceChargeable: price }));
    reconciliation.addBookings(bookings, bookings.map((item) => entry(item.id, 'booking_debit', price)));
    const result = reconciliation.result(1, '2026-11-01', '2026-11-30');
    expect(result.mismatchCount).toBe(0);
    // 20 × 999,999,999,999.99 = 19,999,999,999,999.8 (2e16 thousandths, past 2^53).
    expect(result.totals.confirmed).toEqual({ count: 20, amount: 19_999_999_999_999.8, currency: 'USD' });
  });

  it('compares per currency: a booking priced in another currency is a mismatch of its own, totalled apart', () => {
    const reconciliation = new Reconciliation('JPY');
    reconciliation.addBookings(
      [
        booking(1, { currency: 'JPY', priceChargeable: '16561', vendorCurrency: 'EUR', vendorPrice: '100.00', fxRate: '165.61', fxRateDate: '2026-11-20' }),
        booking(2, { currency: 'USD', priceChargeable: '110.50' }),
        booking(3, { currency: 'JPY', priceChargeable: '20000', vendorCurrency: 'USD', vendorPrice: '130.5', fxRate: '153.256705', fxRateDate: '2026-11-20' }),
      ],
      [entry(1, 'booking_debit', '16561'), entry(2, 'booking_debit', '110.50'), entry(3, 'booking_debit', '19999')],
    );
    const result = reconciliation.result(1, '2026-11-01', '2026-11-30');
    expect(result.currency).toBe('JPY');
    expect(result.totals.confirmed).toEqual({ count: 2, amount: 36561, currency: 'JPY' });
    expect(result.otherCurrencies).toEqual([
      {
        currency: 'USD',
        totals: {
          pending: { count: 0, amount: 0, currency: 'USD' },
          confirmed: { count: 1, amount: 110.5, currency: 'USD' },
          cancelled: { count: 0, amount: 0, currency: 'USD' },
          failed: { count: 0, amount: 0, currency: 'USD' },
        },
      },
    ]);
    expect(result.mismatches).toEqual([
      expect.objectContaining({ kind: 'currency_differs', bookingId: 2, expected: 110.5, actual: 110.5, currency: 'USD', message: 'booking 2 is priced in USD (110.50), the account is in JPY' }),
      {
        kind: 'debit_amount_differs',
        bookingId: 3,
        entryId: expect.any(Number),
        expected: 20000,
        actual: 19999,
        currency: 'JPY',
        vendorPrice: '130.50',
        vendorCurrency: 'USD',
        fxRate: '153.256705',
        fxRateDate: '2026-11-20',
        message: 'the debit of booking 3 is 19999, its price 20000',
      },
    ]);
  });

  it('writes amounts with the account currency’s decimals (KWD three)', () => {
    const reconciliation = new Reconciliation('KWD');
    reconciliation.addBookings([booking(1, { currency: 'KWD', priceChargeable: '12.5' })], []);
    reconciliation.addStaleHold(2, '1.25', 15);
    const { mismatches } = reconciliation.result(1, '2026-11-01', '2026-11-30');
    expect(mismatches.map((mismatch) => [mismatch.kind, mismatch.expected, mismatch.currency, mismatch.vendorPrice])).toEqual([
      ['missing_debit', 12.5, 'KWD', '100.00'],
      ['stale_hold', null, 'KWD', null],
    ]);
    expect(mismatches[1].message).toContain('(1.250 KWD)');
  });
});
