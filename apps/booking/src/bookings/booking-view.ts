import { BookingCancellation, BookingGuest, BookingSnapshot, BookingView, bookingAnswer, formatAmount, hotelProfileOf, rateOf, toMilli } from '@hotel/contracts';
import { BookingEntity } from './booking.entity';

/**
 * A stored booking in the booking service's words (what its events carry), with its voucher
 * link as given out now. The row keeps its rate and hotel as the prebook answered them (the
 * API's HotelRate and HotelDetails): they are taken into these words here.
 */
export function bookingSnapshotOf(row: BookingEntity, voucherUrl: string | null): BookingSnapshot {
  const currency = row.priceCurrency;
  const guest = (name: BookingGuest) => ({ title: name.title, firstName: name.first_name, lastName: name.last_name });
  return {
    id: row.id,
    status: row.status,
    sandbox: row.sandbox,
    vendorReferences: row.bookingReference,
    voucherUrl: row.status === 'confirmed' ? voucherUrl : null,
    hotel: hotelProfileOf(row.hotel),
    checkIn: row.checkIn,
    checkOut: row.checkOut,
    lead: { firstName: row.firstName, lastName: row.lastName, email: row.email, phone: row.phone },
    rooms: row.rooms.map((room) => ({ adults: room.adults.map(guest), children: room.children.map((child) => ({ ...guest(child), age: child.age })) })),
    rate: rateOf(row.rate),
    charged: { amount: formatAmount(toMilli(row.priceChargeable), currency), currency },
    remarks: row.remarks,
    paymentMethod: row.paymentMethod,
    loyaltyNumber: row.loyaltyNumber,
    specialRequest: row.specialRequest,
    clientReference: row.clientReference,
    createdAt: row.createdAt.toISOString(),
    updatedAt: row.updatedAt.toISOString(),
    failureReason: row.failureReason,
    cancellation: cancellationOf(row, currency),
  };
}

/** The booking API's Booking of a stored booking. */
export function toBookingView(row: BookingEntity, voucherUrl: string | null): BookingView {
  return bookingAnswer(bookingSnapshotOf(row, voucherUrl));
}

/**
 * What a cancelled booking says of its cancellation, in `currency`'s decimals; null unless it
 * is cancelled (a cancellation under way shows nothing yet: its penalty may still follow the vendor's).
 */
export function cancellationOf(row: Pick<BookingEntity, 'status' | 'cancellationReference' | 'cancelledAt' | 'cancellationPenalty'>, currency: string): BookingCancellation | null {
  if (row.status !== 'cancelled') return null;
  return { reference: row.cancellationReference, at: row.cancelledAt ? row.cancelledAt.toISOString() : null, penalty: formatAmount(toMilli(row.cancellationPenalty ?? '0'), currency) };
}
