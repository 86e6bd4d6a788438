import { LRUCache } from 'lru-cache';
import { HotelRate } from '@hotel/contracts';
import { FxConversion, Hotel, Stay, SupplierOffer, convertRate, encodeV2RateId } from '@hotel/inventory';
import { OfferFinder } from '../offers/offer-finder';

/** One priced V2 offer, serialized once (UTF-8 JSON); the rest is what filters and sorting need. */
export interface CachedRate {
  json: Buffer;
  roomId: number;
  memberRate: boolean;
  pricePerNightAvg: number;
  priceInclusive: number;
  priceChargeable: number;
}

const MAX_ENTRIES = 40_000;

/**
 * The currency a V2 answer is priced in: the conversion from each vendor's currency,
 * and a key naming currency, margin and the rates' date (cached rates are per key).
 */
export interface PricedIn {
  key: string;
  /** The reference date of the exchange rates, written into each rate id. */
  fxDate: string | null;
  conversion(vendorCurrency: string): FxConversion;
}

/**
 * Vendors' rates per hotel and stay, priced and serialized once per price step (rate
 * ids carry the step's start, so they are the same for the whole step) and kept at most
 * `ttlMs` (V2_CACHE_TTL_S): a room a vendor has sold out since shows no longer than that
 * (prebook rechecks with the vendor, so it is never sold). A process-local cache of data
 * any replica can recompute: no replica depends on another's. Filters apply per request.
 */
export class V2RateCache {
  /** Least recently used out first: a past price step's entries are never asked again and go. */
  private readonly entries: LRUCache<string, CachedRate[]>;

  constructor(
    private readonly secret: string,
    private readonly offers: OfferFinder,
    ttlMs: number,
  ) {
    this.entries = new LRUCache<string, CachedRate[]>({ max: MAX_ENTRIES, ttl: ttlMs });
  }

  /**
   * Each hotel's rates (element i is hotels[i]'s), cheapest first. The hotels not
   * cached yet are asked of each vendor in one availability call.
   */
  async rates(
    hotels: readonly Hotel[],
    vendors: readonly string[],
    stay: Stay,
    epoch: number,
    issuedAt: Date,
    priced: PricedIn,
    deadlineMs: number,
  ): Promise<{ rates: CachedRate[][]; missing: string[] }> {
    const suffix = `|${stay.check_in}|${stay.check_out}|${JSON.stringify(stay.rooms)}|${epoch}|${vendors.join(',')}|${priced.key}`;
    const results: CachedRate[][] = new Array<CachedRate[]>(hotels.length);
    const missing: number[] = [];
    for (let i = 0; i < hotels.length; i++) {
      const cached = this.entries.get(`${hotels[i].id}${suffix}`);
      if (cached) results[i] = cached;
      else missing.push(i);
    }
    if (missing.length === 0) return { rates: results, missing: [] };

    const asked = missing.map((i) => hotels[i]);
    const request = { includeMemberRates: true, context: { epoch, issuedAt }, deadlineMs };
    const answers = await Promise.all(vendors.map((code) => this.offers.ask(code, asked, stay, request)));
    // What a vendor that did not answer would have offered is unknown: nothing is cached then.
    const unanswered = vendors.filter((_, index) => answers[index] === null);
    for (let m = 0; m < missing.length; m++) {
      const hotel = asked[m];
      const rates: CachedRate[] = [];
      for (const answer of answers) {
        for (const offer of answer?.[m] ?? []) rates.push(this.serialize(offer, stay, epoch, issuedAt, priced));
      }
      rates.sort((a, b) => a.priceChargeable - b.priceChargeable);
      if (unanswered.length === 0) this.entries.set(`${hotel.id}${suffix}`, rates);
      results[missing[m]] = rates;
    }
    return { rates: results, missing: unanswered };
  }

  private serialize({ key, rate: vendorRate }: SupplierOffer, stay: Stay, epoch: number, issuedAt: Date, priced: PricedIn): CachedRate {
    const rate: HotelRate = { id: encodeV2RateId({ key, stay, epoch, issuedAt, fxDate: priced.fxDate }, this.secret), ...convertRate(vendorRate, priced.conversion(vendorRate.price_currency)) };
    return {
      json: Buffer.from(JSON.stringify(rate)),
      roomId: key.roomId,
      memberRate: key.memberRate,
      pricePerNightAvg: rate.price_per_night_avg,
      priceInclusive: rate.price_inclusive,
      priceChargeable: rate.price_chargeable,
    };
  }
}
