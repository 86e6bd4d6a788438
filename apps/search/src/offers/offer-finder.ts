import { Injectable, Logger } from '@nestjs/common';
import { HotelRate } from '@hotel/contracts';
import { AvailabilityRequest, Hotel, OfferKey, PricingContext, Stay, SupplierOffer, Suppliers } from '@hotel/inventory';

export interface PricedOffer {
  hotel: Hotel;
  key: OfferKey;
  rate: Omit<HotelRate, 'id'>;
}

/**
 * Asks the vendors (the suppliers behind the SupplierPort) for offers for a stay, each
 * within a deadline. Each vendor keeps its own allotment: what it offers is what it has.
 */
@Injectable()
export class OfferFinder {
  private readonly logger = new Logger('OfferFinder');

  constructor(private readonly suppliers: Suppliers) {}

  /**
   * Every hotel's offers, hotel by hotel and, within a hotel, vendor by vendor: one
   * availability call per vendor. A vendor that fails, or has not answered within
   * `deadlineMs`, is left out and named in `missing` (its answer, should it come later,
   * is dropped).
   */
  async find(
    hotels: Hotel[],
    vendors: readonly string[],
    stay: Stay,
    options: { includeMemberRates: boolean; context: PricingContext; deadlineMs: number },
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

  /** One vendor's availability; null when it failed or missed the deadline. */
  async ask(code: string, hotels: readonly Hotel[], stay: Stay, request: AvailabilityRequest & { deadlineMs: number }): Promise<SupplierOffer[][] | null> {
    const supplier = this.suppliers.of(code);
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
