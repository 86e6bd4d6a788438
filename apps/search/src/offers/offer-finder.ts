import { Inject, Injectable } from '@nestjs/common';
import { HotelRate, SUBJECTS } from '@hotel/contracts';
import { Hotel, OfferKey, PricingContext, Stay, Suppliers, VendorCode, soldOutKey } from '@hotel/inventory';
import { SERVICE_CLIENT, ServiceClient } from '@hotel/platform';

export interface PricedOffer {
  hotel: Hotel;
  key: OfferKey;
  rate: Omit<HotelRate, 'id'>;
}

/**
 * Asks the vendors (the suppliers behind the SupplierPort) for offers: which room
 * types fit, leaving out what the rates service reports sold out, priced for the stay.
 */
@Injectable()
export class OfferFinder {
  constructor(
    @Inject(SERVICE_CLIENT) private readonly services: ServiceClient,
    private readonly suppliers: Suppliers,
  ) {}

  async soldOut(hotels: Hotel[], stay: Stay): Promise<Set<string>> {
    if (hotels.length === 0) return new Set();
    const { soldOut } = await this.services.send(SUBJECTS.RATES_INVENTORY_SOLD_OUT, {
      hotelIds: hotels.map((hotel) => hotel.id),
      checkIn: stay.check_in,
      checkOut: stay.check_out,
      rooms: stay.rooms.length,
    });
    return new Set(soldOut.map(([vendor, hotelId, roomId]) => soldOutKey(vendor, hotelId, roomId)));
  }

  /** Every hotel's offers, hotel by hotel and, within a hotel, vendor by vendor: one availability call per vendor. */
  async find(
    hotels: Hotel[],
    vendors: readonly VendorCode[],
    stay: Stay,
    options: { soldOut: ReadonlySet<string>; includeMemberRates: boolean; context: PricingContext },
  ): Promise<PricedOffer[]> {
    if (hotels.length === 0 || vendors.length === 0) return [];
    const answers = await Promise.all(vendors.map((code) => this.suppliers.of(code).availability(hotels, stay, options)));
    const offers: PricedOffer[] = [];
    for (let i = 0; i < hotels.length; i++) {
      const hotel = hotels[i];
      for (const answer of answers) {
        for (const { key, rate } of answer[i] ?? []) offers.push({ hotel, key, rate });
      }
    }
    return offers;
  }
}
