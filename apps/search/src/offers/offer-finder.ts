import { Inject, Injectable } from '@nestjs/common';
import { HotelRate, SUBJECTS } from '@hotel/contracts';
import { Hotel, OfferKey, PricingContext, SUPPLIERS, Stay, VendorCode, soldOutKey } from '@hotel/inventory';
import { SERVICE_CLIENT, ServiceClient } from '@hotel/platform';

export interface PricedOffer {
  hotel: Hotel;
  key: OfferKey;
  rate: Omit<HotelRate, 'id'>;
}

/**
 * Asks the vendors (the simulated suppliers) for offers: which room types fit,
 * leaving out what the rates service reports sold out, priced for the stay.
 */
@Injectable()
export class OfferFinder {
  constructor(@Inject(SERVICE_CLIENT) private readonly services: ServiceClient) {}

  async soldOut(hotels: Hotel[], stay: Stay): Promise<Set<string>> {
    if (hotels.length === 0) return new Set();
    const { sold_out } = await this.services.send(SUBJECTS.RATES_INVENTORY_SOLD_OUT, {
      hotel_ids: hotels.map((hotel) => hotel.id),
      check_in: stay.check_in,
      check_out: stay.check_out,
      rooms: stay.rooms.length,
    });
    return new Set(sold_out.map(([vendor, hotelId, roomId]) => soldOutKey(vendor, hotelId, roomId)));
  }

  find(
    hotels: Hotel[],
    vendors: VendorCode[],
    stay: Stay,
    options: { soldOut: ReadonlySet<string>; includeMemberRates: boolean; context: PricingContext },
  ): PricedOffer[] {
    const offers: PricedOffer[] = [];
    for (const hotel of hotels) {
      for (const code of vendors) {
        const supplier = SUPPLIERS[code];
        for (const key of supplier.offers(hotel, stay, options)) {
          offers.push({ hotel, key, rate: supplier.price(hotel, key, stay, options.context) });
        }
      }
    }
    return offers;
  }
}
