import { Injectable } from '@nestjs/common';
import { InjectDataSource } from '@nestjs/typeorm';
import { LRUCache } from 'lru-cache';
import { DataSource } from 'typeorm';
import { Hotel, Place, citySpreadMeters, distanceMeters, findPlace, gazetteer, hotelById, hotelsForCity, hotelsNear, isImportedHotelId } from '@hotel/inventory';
import { HotelCodeBook } from '@hotel/hotelbeds';
import { rowsOf } from '@hotel/platform';

/**
 * How long a replica reuses what it read of the imported catalog: a hotel an import adds
 * or changes shows everywhere within this time. The table is the record; these are copies.
 */
const CATALOG_TTL_MS = 60_000;
/** About 111 km a degree of latitude: a box around a point, for the index on (lat, long). */
const METERS_PER_DEGREE = 111_000;

/**
 * The platform's hotel catalog: the generated hotels, and the hotels the vendors' content
 * added (search.catalog_hotels), which a city's search finds by their coordinates (as far
 * from its centre as its own hotels are) and a country's by the country of the city nearest them. Also
 * the vendors' codes of the platform's hotels, for the vendors that are asked by them.
 */
@Injectable()
export class HotelCatalog implements HotelCodeBook {
  private readonly importedByCity = new LRUCache<string, Hotel[]>({ max: 20_000, ttl: CATALOG_TTL_MS });
  private readonly importedById = new LRUCache<number, Hotel>({ max: 20_000, ttl: CATALOG_TTL_MS });
  /** `vendor:hotel id` → the vendor's code, 0 for none. */
  private readonly codes = new LRUCache<string, number>({ max: 500_000, ttl: CATALOG_TTL_MS });
  /** Whether any hotel was imported at all: without, a place search never waits on the table. */
  private anyImported?: { value: boolean; at: number };

  constructor(@InjectDataSource() private readonly dataSource: DataSource) {}

  /** A hotel by its platform id, or undefined. */
  async hotel(id: number): Promise<Hotel | undefined> {
    return (await this.hotels([id]))[0];
  }

  /** Hotels by platform id, aligned with `ids` (undefined for an unknown one). */
  async hotels(ids: readonly number[]): Promise<(Hotel | undefined)[]> {
    const missing = [...new Set(ids.filter((id) => isImportedHotelId(id) && !this.importedById.has(id)))];
    if (missing.length > 0) {
      for (const hotel of await this.importedRows('id = ANY($1)', [missing])) this.importedById.set(hotel.id, hotel);
    }
    return ids.map((id) => (isImportedHotelId(id) ? this.importedById.get(id) : hotelById(id)));
  }

  /** A city's hotels, or for a country the hotels of its biggest cities, at most `cap`; undefined for an unknown place. */
  async forPlace(placeId: string, cap: number): Promise<Hotel[] | undefined> {
    const place = findPlace(placeId);
    if (!place) return undefined;
    if (place.kind === 'city') return [...hotelsForCity(place), ...(await this.importedIn('city', place))].slice(0, cap);
    // Each city's imported hotels (those nearest it) come with its own, biggest cities first.
    const importedByCity = new Map<number, Hotel[]>();
    for (const hotel of await this.importedIn('country', place)) importedByCity.set(hotel.city.geonameId!, [...(importedByCity.get(hotel.city.geonameId!) ?? []), hotel]);
    const hotels: Hotel[] = [];
    for (const city of gazetteer().citiesByCountry.get(place.countryCode) ?? []) {
      hotels.push(...hotelsForCity(city), ...(importedByCity.get(city.geonameId!) ?? []));
      if (hotels.length >= cap) break;
    }
    return hotels.slice(0, cap);
  }

  /** Hotels within `radiusMeters` of a point, nearest first. */
  async near(lat: number, long: number, radiusMeters: number, cap = 5000): Promise<Hotel[]> {
    const generated = hotelsNear(lat, long, radiusMeters, cap);
    const imported = await this.importedNear(lat, long, radiusMeters);
    if (imported.length === 0) return generated;
    return [...generated, ...imported]
      .map((hotel) => ({ hotel, distance: distanceMeters(lat, long, hotel.lat, hotel.long) }))
      .sort((a, b) => a.distance - b.distance)
      .slice(0, cap)
      .map(({ hotel }) => hotel);
  }

  /** The vendor's codes of those of `hotelIds` it carries (as its content import matched them). */
  async codesOf(vendor: string, hotelIds: readonly number[]): Promise<ReadonlyMap<number, number>> {
    const unknown = [...new Set(hotelIds.filter((id) => !this.codes.has(`${vendor}:${id}`)))];
    if (unknown.length > 0) {
      const rows = rowsOf<{ hotel_id: number; code: string }>(
        await this.dataSource.query('SELECT hotel_id, code FROM search.vendor_hotel_codes WHERE vendor = $1 AND hotel_id = ANY($2)', [vendor, unknown]),
      );
      const found = new Map(rows.map((row) => [row.hotel_id, Number(row.code)]));
      for (const id of unknown) this.codes.set(`${vendor}:${id}`, found.get(id) ?? 0);
    }
    const codes = new Map<number, number>();
    for (const id of hotelIds) {
      const code = this.codes.get(`${vendor}:${id}`);
      if (code) codes.set(id, code);
    }
    return codes;
  }

  /** Forgets the copies (an import just changed the table). */
  forget(): void {
    this.importedByCity.clear();
    this.importedById.clear();
    this.codes.clear();
    this.anyImported = undefined;
  }

  private async importedIn(kind: 'city' | 'country', place: Place): Promise<Hotel[]> {
    if (!(await this.hasImported())) return [];
    const key = kind === 'city' ? `city:${place.geonameId}` : `country:${place.countryCode}`;
    let hotels = this.importedByCity.get(key);
    if (!hotels) {
      hotels =
        kind === 'city'
          ? await this.importedNear(place.lat, place.long, citySpreadMeters(place))
          : await this.importedRows('country_code = $1', [place.countryCode]);
      this.importedByCity.set(key, hotels);
    }
    return hotels;
  }

  /** Imported hotels within `radiusMeters` of a point (a box on the index, then the distance). */
  private async importedNear(lat: number, long: number, radiusMeters: number): Promise<Hotel[]> {
    if (!(await this.hasImported())) return [];
    const latSpan = radiusMeters / METERS_PER_DEGREE;
    const longSpan = Math.min(180, radiusMeters / (METERS_PER_DEGREE * Math.max(0.05, Math.cos((lat * Math.PI) / 180))));
    const rows = await this.importedRows('lat BETWEEN $1 AND $2 AND long BETWEEN $3 AND $4', [lat - latSpan, lat + latSpan, long - longSpan, long + longSpan]);
    return rows.filter((hotel) => distanceMeters(lat, long, hotel.lat, hotel.long) <= radiusMeters);
  }

  private async hasImported(): Promise<boolean> {
    const now = Date.now();
    if (this.anyImported && now - this.anyImported.at < CATALOG_TTL_MS) return this.anyImported.value;
    const [row] = rowsOf<{ any: boolean }>(await this.dataSource.query('SELECT EXISTS (SELECT 1 FROM search.catalog_hotels) AS any'));
    this.anyImported = { value: row.any, at: now };
    return row.any;
  }

  private async importedRows(where: string, params: unknown[]): Promise<Hotel[]> {
    const rows = rowsOf<{ hotel: Hotel }>(await this.dataSource.query(`SELECT hotel FROM search.catalog_hotels WHERE ${where} ORDER BY id`, params));
    return rows.map((row) => row.hotel);
  }
}
