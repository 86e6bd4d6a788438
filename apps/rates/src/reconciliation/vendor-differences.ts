import { PlatformSupplierStatus, VENDOR_DIFFERENCE_KINDS, VendorDifference } from '@hotel/contracts';
import { bookingIdOfClientReference } from '@hotel/hotelbeds';
import { VendorBookingSummary } from '@hotel/inventory';

/** The platform's record of one supplier booking, as reconciliation reads it (sandbox ones never are). */
export interface PlatformRecord {
  bookingId: number;
  /** The vendor's reference; null while `requested`. */
  reference: string | null;
  status: PlatformSupplierStatus;
  createdAt: Date;
}

/** What the platform and one vendor hold for a period, gathered by the caller. */
export interface ReconciliationInput {
  /** The platform's records of the period: pending, confirmed or cancelled. */
  platform: readonly PlatformRecord[];
  /** The bookings the vendor lists as made in the period. */
  made: readonly VendorBookingSummary[];
  /**
   * The bookings the vendor lists as made the day before and the day after: a booking the
   * platform recorded just before midnight may be the vendor's of the next day (or of its
   * own time zone's), so a record is missing only when none of these has it either.
   */
  around: readonly VendorBookingSummary[];
  /** The platform's records (any day, any status) of the references and booking ids `made` names that `platform` does not hold. */
  known: readonly PlatformRecord[];
}

// The client reference's format is the adapter's (clientReferenceOf): so is reading it back.
export { bookingIdOfClientReference };

/** The booking ids the vendor's client references name, and the references, that `platform` does not hold: what to look up. */
export function unmatchedOf(platform: readonly PlatformRecord[], made: readonly VendorBookingSummary[]): { references: string[]; bookingIds: number[] } {
  const held = new Set(platform.map((record) => record.reference));
  const unmatched = made.filter((booking) => !held.has(booking.reference));
  return {
    references: unmatched.map((booking) => booking.reference),
    bookingIds: unmatched.flatMap((booking) => bookingIdOfClientReference(booking.clientReference) ?? []),
  };
}

/**
 * The differences between the platform's records and the vendor's list, by kind
 * (VENDOR_DIFFERENCE_KINDS' order), then booking id and reference:
 * - missing_at_vendor: a record of the period whose reference the vendor does not list;
 * - unknown_to_platform: a booking the vendor made in the period under a reference the
 *   platform has no record of (its client reference's `HB<id>` named when it has one);
 * - status_mismatch: a booking both hold that stands differently, including a record still
 *   `requested` (the vendor's answer never recorded) for a booking the vendor made.
 */
export function vendorDifferences(input: ReconciliationInput): VendorDifference[] {
  const differences: VendorDifference[] = [];
  const atVendor = new Map<string, VendorBookingSummary>();
  for (const booking of [...input.around, ...input.made]) atVendor.set(booking.reference, booking);
  const byReference = new Map<string, PlatformRecord>();
  const byBookingId = new Map<number, PlatformRecord>();
  for (const record of [...input.known, ...input.platform]) {
    if (record.reference !== null) byReference.set(record.reference, record);
    byBookingId.set(record.bookingId, record);
  }

  for (const record of input.platform) {
    const booking = atVendor.get(record.reference!);
    if (!booking) differences.push(missingAtVendor(record));
    else if (booking.status !== record.status) differences.push(vendorSide('status_mismatch', record.bookingId, record.status, booking));
  }
  const compared = new Set(input.platform.map((record) => record.reference));
  for (const booking of new Map(input.made.map((made) => [made.reference, made])).values()) {
    if (compared.has(booking.reference)) continue;
    const record = byReference.get(booking.reference);
    if (record) {
      if (record.status !== booking.status) differences.push(vendorSide('status_mismatch', record.bookingId, record.status, booking));
      continue;
    }
    const bookingId = bookingIdOfClientReference(booking.clientReference);
    const named = bookingId === null ? undefined : byBookingId.get(bookingId);
    // A record without a reference is a booking whose answer was lost: the vendor made it. One with another reference is another vendor booking.
    if (named?.status === 'requested') differences.push(vendorSide('status_mismatch', bookingId, 'requested', booking));
    else differences.push(vendorSide('unknown_to_platform', bookingId, null, booking));
  }
  const rank = (kind: VendorDifference['kind']) => VENDOR_DIFFERENCE_KINDS.indexOf(kind);
  return differences.sort(
    (a, b) => rank(a.kind) - rank(b.kind) || (a.bookingId ?? Infinity) - (b.bookingId ?? Infinity) || (a.reference ?? '').localeCompare(b.reference ?? ''),
  );
}

function missingAtVendor(record: PlatformRecord): VendorDifference {
  return {
    kind: 'missing_at_vendor',
    bookingId: record.bookingId,
    reference: record.reference,
    clientReference: null,
    platformStatus: record.status,
    vendorStatus: null,
    createdOn: record.createdAt.toISOString().slice(0, 10),
    net: null,
    currency: null,
  };
}

function vendorSide(kind: VendorDifference['kind'], bookingId: number | null, platformStatus: PlatformSupplierStatus | null, booking: VendorBookingSummary): VendorDifference {
  return {
    kind,
    bookingId,
    reference: booking.reference,
    clientReference: booking.clientReference,
    platformStatus,
    vendorStatus: booking.status,
    createdOn: booking.createdOn,
    net: booking.net ?? null,
    currency: booking.currency ?? null,
  };
}
