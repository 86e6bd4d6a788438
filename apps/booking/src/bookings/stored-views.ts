import { toBackendBooking } from './backend-booking-view';
import { toBookingView } from './booking-view';
import { BookingEntity } from './booking.entity';

/**
 * A booking's two list representations, serialized once when the booking changes and
 * stored with it (`api_view`, `backend_view`), so that a page of a list is joined from
 * stored bytes instead of rows mapped, rendered and serialized on every read.
 *
 * Two values of the booking API's Booking are of the moment of reading, not of the
 * change: `voucher_url` (a signed link whose expiry counts from when it is given out)
 * and `updated_at` (every saga step moves it, and most steps change nothing else shown).
 * The stored Booking holds a one-character slot for each instead (U+0001 for the link,
 * U+0002 for `updated_at`; JSON.stringify escapes every control character inside a
 * string, so neither can appear raw anywhere else), which the read fills by string
 * concatenation. A booking that is not confirmed has `null` stored for its link (no slot).
 *
 * Whatever changes how either representation is rendered (a field added, a format
 * changed) comes with a migration that empties both columns: a booking without them
 * is rendered on its next read and stored then (see BookingsRepository.storedPage).
 */
export interface StoredViews {
  apiView: string;
  backendView: string;
}

const VOUCHER_SLOT = '\u0001';
const UPDATED_SLOT = '\u0002';

/** Both stored representations of a booking as it is now (its `updatedAt` is not used: see above). */
export function storedViewsOf(booking: BookingEntity): StoredViews {
  const json = JSON.stringify({ ...toBookingView(booking, VOUCHER_SLOT), updated_at: UPDATED_SLOT });
  // The keys are unique: a key's quote can only be preceded by a backslash inside a string value.
  const apiView = json.replace('"voucher_url":"\\u0001"', `"voucher_url":${VOUCHER_SLOT}`).replace('"updated_at":"\\u0002"', `"updated_at":${UPDATED_SLOT}`);
  if (!apiView.includes(UPDATED_SLOT)) throw new Error(`booking ${booking.id}: no updated_at slot in its stored view`);
  return { apiView, backendView: JSON.stringify(toBackendBooking(booking)) };
}

/** A stored Booking with its slots filled: the same JSON toBookingView gives, serialized, at this moment. */
export function filledApiView(stored: string, updatedAt: Date, voucherUrl: () => string): string {
  const updated = stored.lastIndexOf(UPDATED_SLOT);
  const at = `"${updatedAt.toISOString()}"`;
  const voucher = stored.indexOf(VOUCHER_SLOT);
  if (voucher < 0) return stored.slice(0, updated) + at + stored.slice(updated + 1);
  return stored.slice(0, voucher) + JSON.stringify(voucherUrl()) + stored.slice(voucher + 1, updated) + at + stored.slice(updated + 1);
}
