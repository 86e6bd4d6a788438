import { Inject, Injectable } from '@nestjs/common';
import { LRUCache } from 'lru-cache';
import { SUBJECTS } from '@hotel/contracts';
import { Hotel, hotelById, isImportedHotelId } from '@hotel/inventory';
import { SERVICE_CLIENT, ServiceClient } from '@hotel/platform';

/** How long this replica reuses a hotel the search service described (the catalog is search's; an import changes it rarely). */
const IMPORTED_TTL_MS = 5 * 60_000;

/**
 * The catalog's hotels as prebook needs them: a generated hotel from the id alone, one the
 * vendors' content added asked of the search service, which keeps the catalog.
 */
@Injectable()
export class CatalogHotels {
  private readonly imported = new LRUCache<number, Hotel>({ max: 10_000, ttl: IMPORTED_TTL_MS });

  constructor(@Inject(SERVICE_CLIENT) private readonly services: ServiceClient) {}

  async hotel(id: number): Promise<Hotel | undefined> {
    if (!isImportedHotelId(id)) return hotelById(id);
    const kept = this.imported.get(id);
    if (kept) return kept;
    const { hotels } = await this.services.send(SUBJECTS.SEARCH_CATALOG_HOTELS_GET, { ids: [id] });
    const hotel = hotels.find((candidate) => candidate.id === id) as unknown as Hotel | undefined;
    if (hotel) this.imported.set(id, hotel);
    return hotel;
  }
}
