import { Inject, Injectable } from '@nestjs/common';
import { setTimeout as sleep } from 'node:timers/promises';
import { Coordinates, HotelRate, V2_LIMITS, V2RatesBody, V2RatesChunk, nightsBetween } from '@hotel/contracts';
import {
  Hotel,
  VENDOR_CODES,
  VendorCode,
  distanceMeters,
  encodeV2RateId,
  findPlace,
  hotelById,
  hotelsForPlace,
  hotelsNear,
  parseVendorLatencies,
  priceEpoch,
} from '@hotel/inventory';
import { DomainError, SERVICE_ENV } from '@hotel/platform';
import { OfferFinder, PricedOffer } from '../offers/offer-finder';
import { SearchEnv } from '../search.env';

/** Keeps each NATS message well under the broker's 1 MB limit. */
const CHUNK_BYTES = 512 * 1024;
const PLACE_HOTEL_CAP = 2000;

interface HotelResult {
  hotel: Hotel;
  rates: HotelRate[];
  lowest: number;
}

/**
 * `POST /v2/rates`: every rate of every matching hotel at once, no session. The
 * vendors answer from their bulk rate caches; those that miss the deadline are
 * left out and the answer says `search_completed: false`.
 */
@Injectable()
export class V2RatesService {
  private readonly latencies: Record<VendorCode, number>;

  constructor(
    private readonly offers: OfferFinder,
    @Inject(SERVICE_ENV) private readonly env: SearchEnv,
  ) {
    this.latencies = parseVendorLatencies(env.V2_VENDOR_LATENCY_MS);
  }

  async search(body: V2RatesBody): Promise<V2RatesChunk[]> {
    const { hotels: located, center, radius } = this.locate(body);
    const filters = body.filters ?? {};
    const hotels = located.filter(
      (hotel) =>
        (!filters.star_rating || filters.star_rating.includes(Math.floor(hotel.stars))) &&
        (!filters.property_types || filters.property_types.includes(hotel.type)) &&
        (!filters.amenities || filters.amenities.every((amenity) => hotel.amenities.includes(amenity))),
    );
    const stay = { check_in: body.check_in, check_out: body.check_out, rooms: body.rooms };
    const answered = VENDOR_CODES.filter((code) => this.latencies[code] <= this.env.V2_DEADLINE_MS);
    const waitMs = Math.max(0, ...answered.map((code) => this.latencies[code]));
    const [soldOut] = await Promise.all([this.offers.soldOut(hotels, stay), sleep(waitMs)]);
    const issuedAt = new Date(Math.floor(Date.now() / 1000) * 1000);
    const offers = this.offers.find(hotels, answered, stay, {
      soldOut,
      includeMemberRates: body.search_loyalty_rates !== false,
      context: { epoch: priceEpoch(issuedAt.getTime()), issuedAt },
    });
    const results = this.byHotel(offers, body, issuedAt).sort(this.order(body, center));

    const limit = body.limit ?? (body.hotel_ids ? body.hotel_ids.length : V2_LIMITS.defaultLimit);
    const page = body.page ?? 1;
    const allRates = results.flatMap((result) => result.rates);
    const head = {
      search_completed: answered.length === VENDOR_CODES.length,
      search: { ...body, nationality: body.nationality ?? 'US', ...(body.coordinates ? { radius } : {}), page, limit },
      metadata: {
        total_hotels: results.length,
        total_pages: Math.ceil(results.length / limit),
        max_price_per_night_avg: allRates.reduce((max, rate) => Math.max(max, rate.price_per_night_avg), 0),
        max_price_inclusive: allRates.reduce((max, rate) => Math.max(max, rate.price_inclusive), 0),
        nights: nightsBetween(body.check_in, body.check_out),
        rooms: body.rooms.length,
        center_coordinates: center,
      },
    };
    const pageRates = results.slice((page - 1) * limit, page * limit).flatMap((result) => result.rates);
    return [{ head }, ...chunkRates(pageRates)];
  }

  private locate(body: V2RatesBody): { hotels: Hotel[]; center: Coordinates; radius?: number } {
    const placeId = body.place_id ?? body.destination_id;
    if (placeId) {
      const place = findPlace(placeId);
      if (!place) {
        const field = body.place_id ? 'place_id' : 'destination_id';
        throw DomainError.validation([{ field, message: `${field} names no known place; find one with GET /places/search` }]);
      }
      return { hotels: hotelsForPlace(placeId, PLACE_HOTEL_CAP)!, center: { lat: place.lat, long: place.long } };
    }
    if (body.coordinates) {
      const radius = body.radius ?? V2_LIMITS.defaultRadius;
      return { hotels: hotelsNear(body.coordinates.lat, body.coordinates.long, radius), center: body.coordinates, radius };
    }
    const seen = new Set<number>();
    const hotels: Hotel[] = [];
    for (const id of body.hotel_ids ?? []) {
      const hotel = seen.has(id) ? undefined : hotelById(id);
      seen.add(id);
      if (hotel) hotels.push(hotel);
    }
    const center = hotels.length
      ? { lat: round6(hotels.reduce((sum, hotel) => sum + hotel.lat, 0) / hotels.length), long: round6(hotels.reduce((sum, hotel) => sum + hotel.long, 0) / hotels.length) }
      : { lat: 0, long: 0 };
    return { hotels, center };
  }

  private byHotel(offers: PricedOffer[], body: V2RatesBody, issuedAt: Date): HotelResult[] {
    const filters = body.filters ?? {};
    const epoch = priceEpoch(issuedAt.getTime());
    const byHotel = new Map<number, HotelResult>();
    for (const offer of offers) {
      const { rate, hotel, key } = offer;
      if (filters.price_range && (rate.price_per_night_avg < filters.price_range[0] || rate.price_per_night_avg > filters.price_range[1])) continue;
      if (filters.room_type && hotel.roomTypes.find((room) => room.roomId === key.roomId)?.category !== filters.room_type) continue;
      const id = encodeV2RateId({ key, stay: { check_in: body.check_in, check_out: body.check_out, rooms: body.rooms }, epoch, issuedAt }, this.env.RATE_ID_SECRET);
      const result = byHotel.get(hotel.id) ?? { hotel, rates: [], lowest: Number.POSITIVE_INFINITY };
      result.rates.push({ id, ...rate });
      result.lowest = Math.min(result.lowest, rate.price_chargeable);
      byHotel.set(hotel.id, result);
    }
    for (const result of byHotel.values()) result.rates.sort((a, b) => a.price_chargeable - b.price_chargeable);
    return [...byHotel.values()];
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

/** Serializes rates once, into comma-joined chunks small enough for one NATS message each. */
function chunkRates(rates: HotelRate[]): V2RatesChunk[] {
  const chunks: V2RatesChunk[] = [];
  let parts: string[] = [];
  let size = 0;
  for (const rate of rates) {
    const json = JSON.stringify(rate);
    if (size + json.length > CHUNK_BYTES && parts.length > 0) {
      chunks.push({ rates_json: parts.join(',') });
      parts = [];
      size = 0;
    }
    parts.push(json);
    size += json.length + 1;
  }
  if (parts.length > 0) chunks.push({ rates_json: parts.join(',') });
  return chunks;
}
