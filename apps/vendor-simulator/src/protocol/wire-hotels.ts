import type { Hotel as WireHotel, Rate, Room } from '@hotel/hotelbeds';
import type { Hotel } from '../inventory/simulated-inventory';
import { categoryOf, destinationCodeOf, hotelCodeOf, roomCodeOf } from '../inventory/vendor-codes';
import { roomNameOf, type PricedRate } from '../rates/vendor-rates';

/** What every answer says of a hotel: its code, name, category, destination and position. */
export function hotelHeader(hotel: Hotel): WireHotel {
  const category = categoryOf(hotel);
  return {
    code: hotelCodeOf(hotel),
    name: hotel.name,
    categoryCode: category.code,
    categoryName: category.name,
    destinationCode: destinationCodeOf(hotel),
    destinationName: hotel.city.name,
    latitude: String(hotel.lat),
    longitude: String(hotel.long),
  };
}

/** Rates grouped by room code, room types in the order first met, as the vendor lists them. */
export function roomsOf(rates: readonly PricedRate[], wire: (rate: PricedRate) => Rate): Room[] {
  const rooms = new Map<string, Room & { rates: Rate[] }>();
  for (const rate of rates) {
    const code = roomCodeOf({ roomId: rate.terms.roomId });
    let room = rooms.get(code);
    if (!room) rooms.set(code, (room = { code, name: roomNameOf(rate.terms.roomId), rates: [] }));
    room.rates.push(wire(rate));
  }
  return [...rooms.values()];
}
