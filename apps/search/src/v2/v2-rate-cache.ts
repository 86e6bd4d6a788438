import { HotelRate } from '@hotel/contracts';
import { Hotel, OfferKey, SUPPLIERS, Stay, VendorCode, encodeV2RateId, soldOutKey } from '@hotel/inventory';

/** One priced V2 offer, serialized once (UTF-8 JSON); the rest is what filters and sorting need. */
export interface CachedRate {
  json: Buffer;
  soldOutKey: string;
  roomId: number;
  memberRate: boolean;
  pricePerNightAvg: number;
  priceInclusive: number;
  priceChargeable: number;
}

const MAX_ENTRIES = 40_000;

/**
 * Vendors' bulk rates per hotel and stay, priced and serialized once per price
 * step (rate ids carry the step's start, so they are the same for the whole
 * step). A process-local cache of data any replica can recompute: no replica
 * depends on another's. Sold-out room types and filters are applied per request.
 */
export class V2RateCache {
  private readonly entries = new Map<string, CachedRate[]>();

  constructor(private readonly secret: string) {}

  rates(hotel: Hotel, vendors: VendorCode[], stay: Stay, epoch: number, issuedAt: Date): CachedRate[] {
    const key = `${hotel.id}|${stay.check_in}|${stay.check_out}|${JSON.stringify(stay.rooms)}|${epoch}|${vendors.join(',')}`;
    const cached = this.entries.get(key);
    if (cached) return cached;
    const rates: CachedRate[] = [];
    for (const code of vendors) {
      for (const offer of SUPPLIERS[code].offers(hotel, stay, { soldOut: new Set(), includeMemberRates: true })) {
        rates.push(this.serialize(hotel, offer, stay, epoch, issuedAt));
      }
    }
    rates.sort((a, b) => a.priceChargeable - b.priceChargeable);
    if (this.entries.size >= MAX_ENTRIES) this.entries.delete(this.entries.keys().next().value!);
    this.entries.set(key, rates);
    return rates;
  }

  private serialize(hotel: Hotel, key: OfferKey, stay: Stay, epoch: number, issuedAt: Date): CachedRate {
    const priced = SUPPLIERS[key.vendor].price(hotel, key, stay, { epoch, issuedAt });
    const rate: HotelRate = { id: encodeV2RateId({ key, stay, epoch, issuedAt }, this.secret), ...priced };
    return {
      json: Buffer.from(JSON.stringify(rate)),
      soldOutKey: soldOutKey(key.vendor, hotel.id, key.roomId),
      roomId: key.roomId,
      memberRate: key.memberRate,
      pricePerNightAvg: rate.price_per_night_avg,
      priceInclusive: rate.price_inclusive,
      priceChargeable: rate.price_chargeable,
    };
  }
}
