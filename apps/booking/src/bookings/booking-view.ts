import { BookingView, milliToNumber, nightsBetween, toMilli } from '@hotel/contracts';
import { BookingEntity } from './booking.entity';

/** The specification's Booking from a stored booking. */
export function toBookingView(row: BookingEntity, voucherUrl: string | null): BookingView {
  const rate = row.rate;
  return {
    id: row.id,
    status: row.status,
    booking_reference: row.bookingReference,
    voucher_url: row.status === 'confirmed' ? voucherUrl : null,
    hotel_id: row.hotelId,
    check_in: row.checkIn,
    check_out: row.checkOut,
    nights: nightsBetween(row.checkIn, row.checkOut),
    first_name: row.firstName,
    last_name: row.lastName,
    email: row.email,
    phone: row.phone,
    price_per_night_avg: rate.price_per_night_avg,
    price_per_night: rate.price_per_night,
    price_chargeable: milliToNumber(toMilli(row.priceChargeable)),
    price_per_room: rate.price_per_room,
    price_per_night_per_room: rate.price_per_night_per_room,
    price_before_fees: rate.price_before_fees,
    price_fees: rate.price_fees,
    price_due_at_hotel: rate.price_due_at_hotel,
    price_inclusive: rate.price_inclusive,
    price_retail: rate.price_retail,
    price_currency: row.priceCurrency,
    cancellation_policy: rate.cancellation_policy,
    cancellation_policy_date: rate.cancellation_policy_datetime,
    cancellation_policy_data: rate.cancellation_policy_data,
    remarks: row.remarks,
    rate,
    rooms: row.rooms,
    payment_method: row.paymentMethod,
    is_sandbox: row.sandbox,
    hotel: row.hotel,
    loyalty_number: row.loyaltyNumber,
    special_request: row.specialRequest,
    client_reference: row.clientReference,
    price_commission: rate.price_commission,
    price_commission_paid: row.status === 'confirmed' && !row.sandbox ? rate.price_commission : null,
    price_commission_currency: rate.price_commission_currency,
    created_at: row.createdAt.toISOString(),
    updated_at: row.updatedAt.toISOString(),
    failure_reason: row.failureReason,
    ...cancellationOf(row, (penalty) => milliToNumber(toMilli(penalty))),
  };
}

/**
 * What a cancelled booking says of its cancellation, each null unless it is cancelled (a
 * cancellation under way shows nothing yet: its penalty may still follow the vendor's).
 */
export function cancellationOf<Penalty>(
  row: Pick<BookingEntity, 'status' | 'cancellationReference' | 'cancelledAt' | 'cancellationPenalty'>,
  penaltyOf: (penalty: string) => Penalty,
): { cancellation_reference: string | null; cancelled_at: string | null; price_cancellation_penalty: Penalty | null } {
  const cancelled = row.status === 'cancelled';
  return {
    cancellation_reference: cancelled ? row.cancellationReference : null,
    cancelled_at: cancelled && row.cancelledAt ? row.cancelledAt.toISOString() : null,
    price_cancellation_penalty: cancelled ? penaltyOf(row.cancellationPenalty ?? '0') : null,
  };
}
