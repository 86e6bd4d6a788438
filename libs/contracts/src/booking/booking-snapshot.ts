import { decimalToNumber } from '../common/money';
import { PaymentMethod } from '../rates/prebook';
import { HotelProfile, Money, Rate, hotelAnswer, rateAnswer } from '../search/rate';
import { nightsBetween } from '../search/stay';
import { BookingStatus, BookingView } from './book';

/** A guest's name as booked (a child's with its age). */
export interface BookedGuest {
  title: 'Mr' | 'Mrs' | 'Ms' | null;
  firstName: string;
  lastName: string;
}

export interface BookedRoom {
  adults: BookedGuest[];
  children: (BookedGuest & { age: number })[];
}

/** How a booking was cancelled: the vendor's reference, when, and what it cost (the rest was refunded). */
export interface BookingCancellation {
  reference: string | null;
  at: string | null;
  /** A decimal string in the booking's currency. */
  penalty: string;
}

/**
 * A booking at one moment, in the booking service's words: what a booking event carries,
 * and what the booking API's Booking is rendered from (`bookingAnswer`).
 */
export interface BookingSnapshot {
  id: number;
  status: BookingStatus;
  sandbox: boolean;
  /** The vendor's references for the booking (none until it is confirmed). */
  vendorReferences: string[];
  /** A confirmed booking's voucher link (signed; its expiry counts from when it was given out). */
  voucherUrl: string | null;
  hotel: HotelProfile;
  checkIn: string;
  checkOut: string;
  lead: { firstName: string; lastName: string; email: string; phone: string };
  rooms: BookedRoom[];
  /** The rate as prebooked (a promo code's discount taken off its chargeable and inclusive prices). */
  rate: Rate;
  /** What was charged, after any promo code. */
  charged: Money;
  remarks: string;
  paymentMethod: PaymentMethod;
  loyaltyNumber: string | null;
  specialRequest: string | null;
  clientReference: string | null;
  createdAt: string;
  updatedAt: string;
  failureReason: string | null;
  /** Only once the booking is cancelled (a cancellation under way shows nothing yet). */
  cancellation: BookingCancellation | null;
}

/** booking.booking.create.v4's answer: the booking as it stands (confirmed, or pending at the caller's deadline). */
export interface BookingCreated {
  booking: BookingSnapshot;
  /** True when an idempotency key's repeat answered the original booking. */
  replayed: boolean;
}

const guestAnswer = (guest: BookedGuest) => ({ title: guest.title, first_name: guest.firstName, last_name: guest.lastName });

/** The booking API's Booking (GET /book, book's answer, the booking events' partner payload). */
export function bookingAnswer(booking: BookingSnapshot): BookingView {
  const rate = rateAnswer(booking.rate);
  const { cancellation } = booking;
  return {
    id: booking.id,
    status: booking.status,
    booking_reference: booking.vendorReferences,
    voucher_url: booking.voucherUrl,
    hotel_id: booking.hotel.id,
    check_in: booking.checkIn,
    check_out: booking.checkOut,
    nights: nightsBetween(booking.checkIn, booking.checkOut),
    first_name: booking.lead.firstName,
    last_name: booking.lead.lastName,
    email: booking.lead.email,
    phone: booking.lead.phone,
    price_per_night_avg: rate.price_per_night_avg,
    price_per_night: rate.price_per_night,
    price_chargeable: decimalToNumber(booking.charged.amount),
    price_per_room: rate.price_per_room,
    price_per_night_per_room: rate.price_per_night_per_room,
    price_before_fees: rate.price_before_fees,
    price_fees: rate.price_fees,
    price_due_at_hotel: rate.price_due_at_hotel,
    price_inclusive: rate.price_inclusive,
    price_retail: rate.price_retail,
    price_currency: booking.charged.currency,
    cancellation_policy: rate.cancellation_policy,
    cancellation_policy_date: rate.cancellation_policy_datetime,
    cancellation_policy_data: rate.cancellation_policy_data,
    remarks: booking.remarks,
    rate,
    rooms: booking.rooms.map((room) => ({ adults: room.adults.map(guestAnswer), children: room.children.map((child) => ({ ...guestAnswer(child), age: child.age })) })),
    payment_method: booking.paymentMethod,
    is_sandbox: booking.sandbox,
    hotel: hotelAnswer(booking.hotel),
    loyalty_number: booking.loyaltyNumber,
    special_request: booking.specialRequest,
    client_reference: booking.clientReference,
    price_commission: rate.price_commission,
    // Earned once the stay is confirmed; a sandbox booking earns nothing.
    price_commission_paid: booking.status === 'confirmed' && !booking.sandbox ? rate.price_commission : null,
    price_commission_currency: rate.price_commission_currency,
    created_at: booking.createdAt,
    updated_at: booking.updatedAt,
    failure_reason: booking.failureReason,
    cancellation_reference: cancellation ? cancellation.reference : null,
    cancelled_at: cancellation ? cancellation.at : null,
    price_cancellation_penalty: cancellation ? decimalToNumber(cancellation.penalty) : null,
  };
}
