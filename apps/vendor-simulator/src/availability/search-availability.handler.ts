import { Inject, Injectable } from '@nestjs/common';
import type { AvailabilityRS, Hotel as WireHotel } from '@hotel/hotelbeds';
import { SIMULATOR_CLOCK, type SimulatorClock } from '../clock';
import { BookingsRepository } from '../bookings/bookings.repository';
import { carriedHotel } from '../content/content-hotels';
import { VENDORS, allotmentCapacity, priceEpoch, soldOutKey, type Hotel, type VendorCode } from '../inventory/simulated-inventory';
import { hotelCodeOf } from '../inventory/vendor-codes';
import { checkStay, occupancyOf } from '../protocol/request-parts';
import { hotelHeader, roomsOf } from '../protocol/wire-hotels';
import { encodeRateKey } from '../rates/rate-key';
import { amountText, offeredRates, wireRate } from '../rates/vendor-rates';
import type { CredentialsByVendor } from '../vendors/vendor-credentials';
import { VENDOR_CREDENTIALS } from '../vendors/vendor-tokens';
import type { AvailabilityRequest } from './availability.request';

/**
 * The vendor's rates for up to 2000 hotels: for each hotel it carries and each occupancy,
 * what it offers (today's listOffers and priceOffer, in its currency, in the current price
 * step), less the room types with too few rooms left on some night of the stay. Each
 * rate carries how many rooms are left (`allotment`) and a key to price and book it again.
 */
@Injectable()
export class SearchAvailabilityHandler {
  constructor(
    private readonly bookings: BookingsRepository,
    @Inject(SIMULATOR_CLOCK) private readonly clock: SimulatorClock,
    @Inject(VENDOR_CREDENTIALS) private readonly credentials: CredentialsByVendor,
  ) {}

  async search(vendorCode: VendorCode, request: AvailabilityRequest): Promise<Omit<AvailabilityRS, 'auditData'>> {
    const now = this.clock.now();
    const { checkIn, checkOut } = request.stay;
    checkStay(checkIn, checkOut, now);
    const occupancies = request.occupancies.map(occupancyOf);
    const vendor = VENDORS[vendorCode];
    const hotels = [...new Set(request.hotels.hotel)].map((code) => carriedHotel(vendor, code)).filter((hotel): hotel is Hotel => hotel !== undefined);
    const sold = await this.bookings.roomsLeft(vendorCode, hotels.map(hotelCodeOf), checkIn, checkOut);
    const leftByRoom = new Map(sold.map((row) => [`${row.hotelCode}:${row.roomId}`, row.left]));
    const roomsLeft = (hotel: Hotel, roomId: number) => leftByRoom.get(`${hotelCodeOf(hotel)}:${roomId}`) ?? allotmentCapacity(vendorCode, hotel.id, roomId);
    const epoch = priceEpoch(now);
    const { secret } = this.credentials[vendorCode];
    const answered: WireHotel[] = [];
    for (const hotel of hotels) {
      const rates = occupancies.flatMap((occupancy) => {
        const soldOut = new Set(hotel.roomTypes.filter((room) => roomsLeft(hotel, room.roomId) < occupancy.rooms).map((room) => soldOutKey(vendorCode, hotel.id, room.roomId)));
        return offeredRates(hotel, vendor, checkIn, checkOut, occupancy, soldOut, epoch, now);
      });
      if (rates.length === 0) continue;
      const nets = rates.map((rate) => rate.netMilli);
      answered.push({
        ...hotelHeader(hotel),
        rooms: roomsOf(rates, (rate) =>
          wireRate(rate, { rateKey: encodeRateKey(rate.terms, secret), rateType: rate.rateType, allotment: roomsLeft(hotel, rate.terms.roomId) }),
        ),
        minRate: amountText(Math.min(...nets)),
        maxRate: amountText(Math.max(...nets)),
        currency: vendor.currency,
      });
    }
    return { hotels: { ...(answered.length > 0 && { hotels: answered }), checkIn, checkOut, total: answered.length } };
  }
}
