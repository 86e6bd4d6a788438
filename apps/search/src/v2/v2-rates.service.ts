import { Inject, Injectable, Logger } from '@nestjs/common';
import { ClientPricing, Coordinates, V2_LIMITS, V2RatesHead, V2RatesQuery, V2RatesQueryChunk, commaJoinedChunks, nightsBetween, toDecimalString } from '@hotel/contracts';
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
  async *answer(query: V2RatesQuery, pricing: ClientPricing): AsyncGenerator<V2RatesQueryChunk> {
    const { head, rates } = await this.search(query, pricing);
    yield { head };
    await new Promise((resolve) => setImmediate(resolve));
    yield* commaJoinedChunks(rates.map((rate) => rate.json));
  }

  async search(query: V2RatesQuery, pricing: ClientPricing): Promise<{ head: V2RatesHead; rates: CachedRate[] }> {
    const started = performance.now();
    const { hotels: located, center, radius } = await this.locate(query);
    const filter = query.filter ?? {};
    const hotels = located.filter(
      (hotel) =>
        (!filter.starRating || filter.starRating.includes(Math.floor(hotel.stars))) &&
        (!filter.propertyTypes || filter.propertyTypes.includes(hotel.type)) &&
        (!filter.amenities || filter.amenities.every((amenity) => hotel.amenities.includes(amenity))),
    );
    const stay = { check_in: query.checkIn, check_out: query.checkOut, rooms: query.rooms.map((room) => ({ adults: room.adults, children: room.children, children_ages: room.childAges })) };
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
    const { results: unsorted, missing } = await this.byHotel(hotels, this.suppliers.codes, stay, query, epoch, issuedAt, priced);
    const vendorsAnswered = performance.now();
    const results = unsorted.sort(this.order(query, center));

    const limit = query.limit ?? (query.hotelIds ? query.hotelIds.length : V2_LIMITS.defaultLimit);
    const page = query.page ?? 1;
    const allRates = results.flatMap((result) => result.rates);
    const head: V2RatesHead = {
      completed: missing.length === 0,
      page,
      limit,
      ...(radius !== undefined && { radius }),
      totalHotels: results.length,
      totalPages: Math.ceil(results.length / limit),
      maxPricePerNightAvg: toDecimalString(allRates.reduce((max, rate) => Math.max(max, rate.pricePerNightAvg), 0)),
      maxPriceInclusive: toDecimalString(allRates.reduce((max, rate) => Math.max(max, rate.priceInclusive), 0)),
      nights: nightsBetween(query.checkIn, query.checkOut),
      rooms: query.rooms.length,
      center,
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

  private async locate(query: V2RatesQuery): Promise<{ hotels: Hotel[]; center: Coordinates; radius?: number }> {
    if (query.placeId !== undefined) {
      const place = findPlace(query.placeId);
      if (!place) throw DomainError.validation([{ field: 'placeId', message: 'placeId names no known place' }]);
      return { hotels: (await this.catalog.forPlace(query.placeId, PLACE_HOTEL_CAP))!, center: { lat: place.lat, long: place.long } };
    }
    if (query.coordinates) {
      const radius = query.radius ?? V2_LIMITS.defaultRadius;
      return { hotels: await this.catalog.near(query.coordinates.lat, query.coordinates.long, radius), center: query.coordinates, radius };
    }
    const ids = [...new Set(query.hotelIds ?? [])];
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
    query: V2RatesQuery,
    epoch: number,
    issuedAt: Date,
    priced: PricedIn,
  ): Promise<{ results: HotelResult[]; missing: string[] }> {
    const filter = query.filter ?? {};
    const withMemberRates = query.memberRates;
    const { rates: cached, missing } = await this.cache.rates(hotels, vendors, stay, epoch, issuedAt, priced, this.env.V2_DEADLINE_MS);
    const results: HotelResult[] = [];
    for (let i = 0; i < hotels.length; i++) {
      const hotel = hotels[i];
      const category = (roomId: number) => hotel.roomTypes.find((room) => room.roomId === roomId)?.category;
      const rates = cached[i].filter(
        (rate) =>
          (withMemberRates || !rate.memberRate) &&
          (!filter.priceRange || (rate.pricePerNightAvg >= filter.priceRange[0] && rate.pricePerNightAvg <= filter.priceRange[1])) &&
          (!filter.roomType || category(rate.roomId) === filter.roomType),
      );
      if (rates.length > 0) results.push({ hotel, rates, lowest: rates[0].priceChargeable });
    }
    return { results, missing };
  }

  private order(query: V2RatesQuery, center: Coordinates) {
    const distance = (hotel: Hotel) => distanceMeters(center.lat, center.long, hotel.lat, hotel.long);
    const byPrice = (a: HotelResult, b: HotelResult) => a.lowest - b.lowest || a.hotel.id - b.hotel.id;
    switch (query.sortBy ?? 'price_asc') {
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
