import { BackendBooking, BookingFx, formatAmount, toMilli } from '@hotel/contracts';
import { BookingEntity } from './booking.entity';
import { cancellationOf } from './booking-view';

/** How a booking's price came to be in its client's currency. */
export function bookingFxOf(row: BookingEntity): BookingFx {
  return { vendorCurrency: row.vendorCurrency, vendorPrice: row.vendorPrice, fxRate: row.fxRate, fxRateDate: row.fxRateDate, fxMarginPercent: row.fxMarginPercent };
}

/** A booking in the backend API's camelCase shape (failed bookings are not listed there). */
export function toBackendBooking(row: BookingEntity): BackendBooking {
  // Money as the client's currency writes it ("331.22" USD, "36380" JPY).
  const money = (value: number | string) => formatAmount(toMilli(value), row.priceCurrency);
  const rate = row.rate;
  const hotel = row.hotel;
  const prices = {
    pricePerNight: money(rate.price_per_night_avg),
    priceFees: money(rate.price_fees),
    priceDueAtHotel: money(rate.price_due_at_hotel),
    priceInclusive: formatAmount(toMilli(row.priceChargeable) + toMilli(rate.price_due_at_hotel), row.priceCurrency),
    priceChargeable: money(row.priceChargeable),
  };
  const lines = [
    { lineText: `${rate.rooms[0]?.name ?? 'Room'} × ${row.rooms.length}, ${rate.price_per_night.length} night(s), before taxes`, amount: money(rate.price_before_fees) },
    { lineText: 'Taxes and service charges', amount: money(rate.price_fees) },
  ];
  if (toMilli(row.promoDiscount) > 0) lines.push({ lineText: `Promo code ${row.promoCode}`, amount: formatAmount(-toMilli(row.promoDiscount), row.priceCurrency) });
  if (rate.price_due_at_hotel > 0) lines.push({ lineText: 'Payable at the hotel', amount: money(rate.price_due_at_hotel) });
  const cancellation = cancellationOf(row, row.priceCurrency);
  return {
    id: row.id,
    status: row.status === 'failed' ? 'cancelled' : row.status,
    voucher: row.bookingReference.join(', '),
    hotelId: row.hotelId,
    checkIn: row.checkIn,
    checkOut: row.checkOut,
    firstName: row.firstName,
    lastName: row.lastName,
    email: row.email,
    phone: row.phone,
    lines,
    ...prices,
    currency: row.priceCurrency,
    ...bookingFxOf(row),
    remarks: row.remarks,
    roomType: rate.rooms[0]?.name ?? '',
    cancellationPolicy: rate.cancellation_policy,
    cancellationPolicyDate: rate.cancellation_policy_datetime,
    rooms: row.rooms.map((room) => ({
      adults: room.adults.map((guest) => ({ title: guest.title, firstName: guest.first_name, lastName: guest.last_name })),
      children: room.children.map((child) => ({ title: child.title, firstName: child.first_name, lastName: child.last_name, age: child.age })),
    })),
    clientCommission: money(rate.price_commission),
    paymentMethod: row.paymentMethod === 'credit_card' ? 'creditCard' : 'account',
    userId: row.userId,
    cancellationReference: cancellation?.reference ?? null,
    cancelledAt: cancellation?.at ?? null,
    cancellationPenalty: cancellation?.penalty ?? null,
    hotel: {
      id: hotel.id,
      name: hotel.name,
      stars: Math.min(5, Math.max(1, hotel.stars)),
      coordinates: [hotel.coordinates.lat, hotel.coordinates.long],
      address: { address: hotel.address.address, postalCode: hotel.address.postal_code, city: hotel.address.city, country: hotel.address.country },
      rating: Math.min(5, Math.max(0, hotel.rating)),
      reviews: hotel.review_count,
      ...prices,
      amenities: hotel.amenities,
      location: [hotel.address.city, hotel.address.country].filter(Boolean).join(', '),
      images: hotel.images,
      exclusive: hotel.exclusive,
      type: hotel.type,
    },
  };
}
