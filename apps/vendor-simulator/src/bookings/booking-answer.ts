import type { Board } from '@hotel/contracts';
import type { Booking, Hotel as WireHotel } from '@hotel/hotelbeds';
import type { Hotel } from '../inventory/simulated-inventory';
import { BOARD_NAMES, VENDOR_OFFICES, destinationCodeOf, hotelCodeOf, roomCodeOf } from '../inventory/vendor-codes';
import { hotelHeader } from '../protocol/wire-hotels';
import { roomNameOf, vendorOf } from '../rates/vendor-rates';
import type { BookingRecord } from './bookings.repository';

/** What every answer says of a booking before its hotel: its references, status, holder and what is owed. */
export function wireBookingHead({ booking }: BookingRecord): Booking {
  const cancelled = booking.status === 'CANCELLED';
  const owed = cancelled ? booking.cancellationAmount! : booking.totalNet;
  return {
    reference: booking.reference,
    ...(cancelled && { cancellationReference: booking.reference }),
    clientReference: booking.clientReference,
    creationDate: booking.createdAt.toISOString().slice(0, 10),
    status: booking.status,
    modificationPolicies: { cancellation: !cancelled, modification: false },
    creationUser: booking.creationUser,
    holder: { name: booking.holderName, surname: booking.holderSurname },
    totalNet: owed,
    pendingAmount: owed,
    currency: booking.currency,
  };
}

/** How much of a booking an answer shows: all of it (booking, detail, cancellation) or the list's summary. */
export type BookingView = { kind: 'full'; cancellationAmount?: string } | { kind: 'summary' };

/**
 * A booking as the vendor writes it. Once cancelled, `totalNet` and `pendingAmount` are
 * what cancelling cost (what is still owed) and the hotel's `cancellationAmount` says the
 * same; the hotel's own `totalNet` stays what was booked.
 */
export function wireBooking(record: BookingRecord, hotel: Hotel, view: BookingView): Booking {
  const { booking, rooms } = record;
  const cancelled = booking.status === 'CANCELLED';
  const common = wireBookingHead(record);
  const hotelSummary: WireHotel = {
    checkOut: booking.checkOut,
    checkIn: booking.checkIn,
    code: hotelCodeOf(hotel),
    name: hotel.name,
    destinationCode: destinationCodeOf(hotel),
    destinationName: hotel.city.name,
  };
  if (view.kind === 'summary') return { ...common, hotel: { ...hotelSummary, totalNet: booking.totalNet, currency: booking.currency } };
  const vendor = vendorOf(booking.vendor as Parameters<typeof vendorOf>[0]);
  const cancellationAmount = cancelled ? booking.cancellationAmount! : view.cancellationAmount;
  return {
    ...common,
    hotel: {
      ...hotelSummary,
      ...hotelHeader(hotel),
      rooms: rooms.map((room) => ({
        status: booking.status,
        id: room.roomNumber,
        code: roomCodeOf(room),
        name: roomNameOf(room.roomId),
        paxes: room.paxes,
        rates: [
          {
            rateClass: room.refundable ? 'NOR' : 'NRF',
            net: room.net,
            paymentType: booking.paymentType,
            packaging: false,
            boardCode: room.board,
            boardName: BOARD_NAMES[room.board as Board],
            cancellationPolicies: room.cancellationPolicies,
            rooms: room.rooms,
            adults: room.adults,
            children: room.children,
            ...(room.childrenAges.length > 0 && { childrenAges: room.childrenAges.join(',') }),
          },
        ],
      })),
      totalNet: booking.totalNet,
      currency: booking.currency,
      supplier: { name: vendor.name, vatNumber: VENDOR_OFFICES[vendor.code].vatNumber },
      ...(cancellationAmount !== undefined && { cancellationAmount }),
    },
    ...(booking.remark !== null && { remark: booking.remark }),
  };
}
