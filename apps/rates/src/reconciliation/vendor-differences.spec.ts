import { VendorBookingSummary } from '@hotel/inventory';
import { PlatformRecord, bookingIdOfClientReference, unmatchedOf, vendorDifferences } from './vendor-differences';

const RECORDED = new Date('2027-03-01T23:59:59Z');
const record = (bookingId: number, reference: string | null, status: PlatformRecord['status'] = 'confirmed'): PlatformRecord => ({ bookingId, reference, status, createdAt: RECORDED });
const listed = (reference: string, clientReference: string | null, status: VendorBookingSummary['status'] = 'confirmed', createdOn = '2027-03-01'): VendorBookingSummary => ({
  reference,
  clientReference,
  status,
  createdOn,
  net: '100.00',
  currency: 'EUR',
});
const none = { platform: [], made: [], around: [], known: [] };

describe('vendorDifferences', () => {
  it('a booking both hold alike is no difference, whatever its status', () => {
    expect(vendorDifferences({ ...none, platform: [record(1, 'A-1'), record(2, 'A-2', 'cancelled')], made: [listed('A-1', 'HB1'), listed('A-2', 'HB2', 'cancelled')] })).toEqual([]);
  });

  it("a record the period's list lacks is found among the days around it (the vendor's day may be the next one), and compared there", () => {
    const platform = [record(1, 'A-1'), record(2, 'A-2')];
    const around = [listed('A-1', 'HB1', 'confirmed', '2027-03-02'), listed('A-2', 'HB2', 'cancelled', '2027-02-28')];
    expect(vendorDifferences({ ...none, platform, around }).map((difference) => [difference.kind, difference.bookingId, difference.vendorStatus])).toEqual([['status_mismatch', 2, 'cancelled']]);
    expect(vendorDifferences({ ...none, platform }).map((difference) => [difference.kind, difference.createdOn])).toEqual([
      ['missing_at_vendor', '2027-03-01'],
      ['missing_at_vendor', '2027-03-01'],
    ]);
  });

  it('a vendor booking of the period matched to a record of another day is compared with it, not called unknown', () => {
    expect(vendorDifferences({ ...none, made: [listed('A-7', 'HB7')], known: [record(7, 'A-7')] })).toEqual([]);
    expect(vendorDifferences({ ...none, made: [listed('A-7', 'HB7', 'pending')], known: [record(7, 'A-7')] })).toEqual([
      expect.objectContaining({ kind: 'status_mismatch', bookingId: 7, platformStatus: 'confirmed', vendorStatus: 'pending' }),
    ]);
  });

  it('an unknown vendor booking names the booking its client reference does (in any case), or none; a second vendor booking for a recorded one is unknown too', () => {
    const made = [listed('A-1', 'hb5'), listed('A-2', 'PARTNER-9'), listed('A-3', 'HB6'), listed('A-4', 'HB99999999999')];
    expect(vendorDifferences({ ...none, made, known: [record(6, 'A-0')] }).map((difference) => [difference.kind, difference.bookingId, difference.reference, difference.net])).toEqual([
      ['unknown_to_platform', 5, 'A-1', '100.00'],
      ['unknown_to_platform', 6, 'A-3', '100.00'],
      ['unknown_to_platform', null, 'A-2', '100.00'],
      ['unknown_to_platform', null, 'A-4', '100.00'],
    ]);
  });

  it('kinds in order (missing, unknown, status), each by booking; a vendor booking listed twice counts once', () => {
    const differences = vendorDifferences({
      ...none,
      platform: [record(9, 'A-9'), record(3, 'A-3'), record(4, 'A-4')],
      made: [listed('A-4', 'HB4', 'cancelled'), listed('A-8', 'HB8'), listed('A-8', 'HB8'), listed('A-3', 'HB3')],
    });
    expect(differences.map((difference) => [difference.kind, difference.bookingId])).toEqual([
      ['missing_at_vendor', 9],
      ['unknown_to_platform', 8],
      ['status_mismatch', 4],
    ]);
  });
});

describe('unmatchedOf and bookingIdOfClientReference', () => {
  it("asks for the references and HB ids of the vendor's bookings the period's records do not hold", () => {
    expect(unmatchedOf([record(1, 'A-1')], [listed('A-1', 'HB1'), listed('A-2', 'HB2'), listed('A-3', 'OTHER')])).toEqual({ references: ['A-2', 'A-3'], bookingIds: [2] });
  });

  it.each([
    ['HB42', 42],
    ['hb42', 42],
    ['HB042', null],
    ['HB', null],
    ['XHB42', null],
    ['HB2147483647', 2147483647],
    ['HB2147483648', null],
    [null, null],
  ])('%j names booking %j', (clientReference, bookingId) => {
    expect(bookingIdOfClientReference(clientReference)).toBe(bookingId);
  });
});
