import { Inject, Injectable, Logger } from '@nestjs/common';
import { ClientPricing, Coordinates, V2_LIMITS, V2RatesBody, V2RatesChunk, commaJoinedChunks, nightsBetween } from '@hotel/contracts';
import { Hotel, Stay, Suppliers, distanceMeters, findPlace, priceEpoch, priceEpochStart, FxRates } from '@hotel/inventory';
import { DomainError, SERVICE_ENV } from '@hotel/platform';
import { OfferFinder } from '../offers/offer-finder';
import { CachedRate, PricedIn, V2RateCache } from './v2-rate-cache';
import { SearchEnv } from '../search.env';
import { HotelCatalog } from '../catalog/hotel-catalog';

const PLACE_HOTEL_CAP = 2000;

interface HotelResult {
  hotel: Hotel;
  rates: CachedRate[];
  lowest: number;
}

/**
 * `POST /v2/rates`: every rate of every matching hotel at once, no session. Every
 * vendor is asked (or answers from the rate cache); those that miss the deadline are
 * left out and the answer says `search_completed: false`.
 */
@Injectable()
export class V2RatesService {
  private readonly cache: V2RateCache;
  private readonly logger = new Logger('V2Rates');

  constructor(
    offers: OfferFinder,
    private readonly fx: FxRates,
    private readonly suppliers: Suppliers,
    private readonly catalog: HotelCatalog,
    @Inject(SERVICE_ENV) private readonly env: SearchEnv,
  ) {
    this.cache = new V2RateCache(env.RATE_ID_SECRET, offers, env.V2_CACHE_TTL_S * 1000);
  }

  /**
   * The answer as it goes out: the head (search, metadata) once every hotel is priced
   * and sorted, then the page's rates in chunks of serialized JSON, each joined only
   * when the one before has been handed to the broker, so the head leaves first.
   */
  async *answer(body: V2RatesBody, pricing: ClientPricing): AsyncGenerator<V2RatesChunk> {
    const { head, rates } = await this.search(body, pricing);
    yield { head };
    await new Promise((resolve) => setImmediate(resolve));
    yield* commaJoinedChunks(rates.map((rate) => rate.json));
  }

  async search(body: V2RatesBody, pricing: ClientPricing): Promise<{ head: Extract<V2RatesChunk, { head: unknown }>['head']; rates: CachedRate[] }> {
    const started = performance.now();
    const { hotels: located, center, radius } = await this.locate(body);
    const filters = body.filters ?? {};
    const hotels = located.filter(
      (hotel) =>
        (!filters.star_rating || filters.star_rating.includes(Math.floor(hotel.stars))) &&
        (!filters.property_types || filters.property_types.includes(hotel.type)) &&
        (!filters.amenities || filters.amenities.every((amenity) => hotel.amenities.includes(amenity))),
    );
    const stay = { check_in: body.check_in, check_out: body.check_out, rooms: body.rooms };
    const fx = await this.fx.cache.current();
    // Rates are priced per 15-minute price step; their ids carry the step's start.
    const epoch = priceEpoch();
    const issuedAt = new Date(priceEpochStart(epoch));
    // In the client's currency at the rates in force now; each rate id says their date, so prebook knows what the client saw.
    const fxDate = fx.inForce?.date ?? null;
    const priced: PricedIn = {
      key: `${pricing.currency}|${pricing.fxMarginPercent}|${fxDate ?? '-'}`,
      fxDate,
      conversion: (vendorCurrency) => fx.priced(vendorCurrency, pricing),
    };
    const { results: unsorted, missing } = await this.byHotel(hotels, this.suppliers.codes, stay, body, epoch, issuedAt, priced);
    const vendorsAnswered = performance.now();
    const results = unsorted.sort(this.order(body, center));

    const limit = body.limit ?? (body.hotel_ids ? body.hotel_ids.length : V2_LIMITS.defaultLimit);
    const page = body.page ?? 1;
    const allRates = results.flatMap((result) => result.rates);
    const head = {
      search_completed: missing.length === 0,
      search: { ...body, nationality: body.nationality ?? 'US', ...(body.coordinates ? { radius } : {}), page, limit },
      metadata: {
        total_hotels: results.length,
        total_pages: Math.ceil(results.length / limit),
        max_price_per_night_avg: allRates.reduce((max, rate) => Math.max(max, rate.pricePerNightAvg), 0),
        max_price_inclusive: allRates.reduce((max, rate) => Math.max(max, rate.priceInclusive), 0),
        nights: nightsBetween(body.check_in, body.check_out),
        rooms: body.rooms.length,
        center_coordinates: center,
      },
    };
    const pageRates = results.slice((page - 1) * limit, page * limit).flatMap((result) => result.rates);
    this.logger.debug({
      msg: 'v2 rates',
      hotels: hotels.length,
      rates: pageRates.length,
      vendorsMs: Math.round(vendorsAnswered - started),
      pricingMs: Math.round(performance.now() - vendorsAnswered),
    });
    return { head, rates: pageRates };
  }

  private async locate(body: V2RatesBody): Promise<{ hotels: Hotel[]; center: Coordinates; radius?: number }> {
    const placeId = body.place_id ?? body.destination_id;
    if (placeId) {
      const place = findPlace(placeId);
      if (!place) {
        const field = body.place_id ? 'place_id' : 'destination_id';
        throw DomainError.validation([{ field, message: `${field} names no known place; find one with GET /places/search` }]);
      }
      return { hotels: (await this.catalog.forPlace(placeId, PLACE_HOTEL_CAP))!, center: { lat: place.lat, long: place.long } };
    }
    if (body.coordinates) {
      const radius = body.radius ?? V2_LIMITS.defaultRadius;
      return { hotels: await this.catalog.near(body.coordinates.lat, body.coordinates.long, radius), center: body.coordinates, radius };
    }
    const ids = [...new Set(body.hotel_ids ?? [])];
    const hotels = (await this.catalog.hotels(ids)).filter((hotel): hotel is Hotel => hotel !== undefined);
    const center = hotels.length
      ? { lat: round6(hotels.reduce((sum, hotel) => sum + hotel.lat, 0) / hotels.length), long: round6(hotels.reduce((sum, hotel) => sum + hotel.long, 0) / hotels.length) }
      : { lat: 0, long: 0 };
    return { hotels, center };
  }

  private async byHotel(
    hotels: Hotel[],
    vendors: readonly string[],
    stay: Stay,
    body: V2RatesBody,
    epoch: number,
    issuedAt: Date,
    priced: PricedIn,
  ): Promise<{ results: HotelResult[]; missing: string[] }> {
    const filters = body.filters ?? {};
    const withMemberRates = body.search_loyalty_rates !== false;
    const { rates: cached, missing } = await this.cache.rates(hotels, vendors, stay, epoch, issuedAt, priced, this.env.V2_DEADLINE_MS);
    const results: HotelResult[] = [];
    for (let i = 0; i < hotels.length; i++) {
      const hotel = hotels[i];
      const category = (roomId: number) => hotel.roomTypes.find((room) => room.roomId === roomId)?.category;
      const rates = cached[i].filter(
        (rate) =>
          (withMemberRates || !rate.memberRate) &&
          (!filters.price_range || (rate.pricePerNightAvg >= filters.price_range[0] && rate.pricePerNightAvg <= filters.price_range[1])) &&
          (!filters.room_type || category(rate.roomId) === filters.room_type),
      );
      if (rates.length > 0) results.push({ hotel, rates, lowest: rates[0].priceChargeable });
    }
    return { results, missing };
  }

  private order(body: V2RatesBody, center: Coordinates) {
    const distance = (hotel: Hotel) => distanceMeters(center.lat, center.long, hotel.lat, hotel.long);
    const byPrice = (a: HotelResult, b: HotelResult) => a.lowest - b.lowest || a.hotel.id - b.hotel.id;
    switch (body.filters?.sort_by ?? 'price_asc') {
      case 'price_desc':
        return (a: HotelResult, b: HotelResult) => b.lowest - a.lowest || a.hotel.id - b.hotel.id;
      case 'stars_desc':
        return (a: HotelResult, b: HotelResult) => b.hotel.stars - a.hotel.stars || byPrice(a, b);
      case 'rating_desc':
        return (a: HotelResult, b: HotelResult) => b.hotel.rating - a.hotel.rating || byPrice(a, b);
      case 'distance_asc':
        return (a: HotelResult, b: HotelResult) => distance(a.hotel) - distance(b.hotel) || byPrice(a, b);
      default:
        return byPrice;
    }
  }
}

function round6(value: number): number {
  return Math.round(value * 1e6) / 1e6;
}
