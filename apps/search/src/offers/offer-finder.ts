import { Inject, Injectable, Logger } from '@nestjs/common';
import { HotelRate, SUBJECTS } from '@hotel/contracts';
import { AvailabilityRequest, Hotel, OfferKey, PricingContext, Stay, SupplierOffer, Suppliers, soldOutKey } from '@hotel/inventory';
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
  private readonly logger = new Logger('OfferFinder');

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

  /**
   * Every hotel's offers, hotel by hotel and, within a hotel, vendor by vendor: one
   * availability call per vendor. A remote vendor that fails, or has not answered within
   * `deadlineMs`, is left out and named in `missing` (its answer, should it come later,
   * is dropped).
   */
  async find(
    hotels: Hotel[],
    vendors: readonly string[],
    stay: Stay,
    options: { soldOut: ReadonlySet<string>; includeMemberRates: boolean; context: PricingContext; deadlineMs: number },
  ): Promise<{ offers: PricedOffer[]; missing: string[] }> {
    if (hotels.length === 0 || vendors.length === 0) return { offers: [], missing: [] };
    const answers = await Promise.all(vendors.map((code) => this.ask(code, hotels, stay, options)));
    const offers: PricedOffer[] = [];
    for (let i = 0; i < hotels.length; i++) {
      const hotel = hotels[i];
      for (const answer of answers) {
        for (const { key, rate } of answer?.[i] ?? []) offers.push({ hotel, key, rate });
      }
    }
    return { offers, missing: vendors.filter((_, index) => answers[index] === null) };
  }

  /** One vendor's availability; null when a remote one failed or missed the deadline. */
  async ask(code: string, hotels: readonly Hotel[], stay: Stay, request: AvailabilityRequest & { deadlineMs: number }): Promise<SupplierOffer[][] | null> {
    const supplier = this.suppliers.of(code);
    if (!supplier.remote) return supplier.availability(hotels, stay, request);
    let timer: NodeJS.Timeout | undefined;
    const deadline = new Promise<null>((resolve) => {
      timer = setTimeout(() => resolve(null), request.deadlineMs);
    });
    const answer = supplier.availability(hotels, stay, request).catch((error: unknown) => {
      this.logger.warn({ msg: 'a vendor did not answer availability', vendor: code, hotels: hotels.length, error: String(error) });
      return null;
    });
    try {
      return await Promise.race([answer, deadline]);
    } finally {
      clearTimeout(timer);
    }
  }
}
