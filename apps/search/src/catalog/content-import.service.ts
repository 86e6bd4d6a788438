import { Inject, Injectable, Logger } from '@nestjs/common';
import { InjectDataSource } from '@nestjs/typeorm';
import { DataSource, EntityManager } from 'typeorm';
import { ContentImportReport, ContentImportTrigger } from '@hotel/contracts';
import { Hotel, Suppliers, distanceMeters, hotelsNear, nearestCity } from '@hotel/inventory';
import { ContentHotel, HotelbedsSupplier, catalogHotelOf, comparableHotelName, contentCoordinates } from '@hotel/hotelbeds';
import { DomainError, JobLeases, SERVICE_ENV, SERVICE_INSTANCE, rowsOf } from '@hotel/platform';
import { SearchEnv } from '../search.env';
import { HotelCatalog } from './hotel-catalog';

/** The same hotel from two vendors: the same comparable name, at most this far apart. */
export const SAME_HOTEL_METERS = 150;
/** How long one replica holds a vendor's import; renewed at every page, so a long import keeps it. */
export const CONTENT_IMPORT_LEASE_S = 10 * 60;
/** An incremental import asks for what changed since the day before the last import began (the vendor dates changes by day). */
const OVERLAP_DAYS = 1;

type Counts = Pick<ContentImportReport, 'pages' | 'hotels' | 'known' | 'matchedByGiata' | 'matchedByName' | 'created' | 'skipped'>;

interface ImportRow {
  id: number;
  vendor: string;
  trigger: ContentImportTrigger;
  updated_since: string | null;
  status: ContentImportReport['status'];
  started_at: Date;
  finished_at: Date | null;
  pages: number;
  hotels: number;
  known: number;
  matched_by_giata: number;
  matched_by_name: number;
  created: number;
  skipped: number;
  error: string | null;
}

/** A report's columns, named (a column a later migration adds must not change what a running replica reads). */
const REPORT_COLUMNS = 'id, vendor, trigger, updated_since, status, started_at, finished_at, pages, hotels, known, matched_by_giata, matched_by_name, created, skipped, error';

/** The lease's job name in search.job_leases, per vendor. */
export function contentImportJob(vendor: string): string {
  return `content-import:${vendor}`;
}

/**
 * Imports a vendor's hotel content into the catalog, page by page (1000 hotels a page). A
 * hotel the vendor names by a code already known keeps its platform hotel (its content
 * refreshed when the vendor's content made it); a new code is matched, in this order, to:
 * 1. the platform hotel another vendor gave the same GIATA code;
 * 2. the platform hotel of the same comparable name (case, accents, punctuation and the word
 *    "hotel" ignored) at most 150 m away, the nearest if several, one the vendor has no other code for;
 * 3. otherwise a new platform hotel, in the city nearest it.
 * A hotel without a name or coordinates is skipped. Each page is one transaction; the first
 * import of a vendor reads everything, later ones what the vendor changed since.
 */
@Injectable()
export class ContentImportService {
  private readonly logger = new Logger('ContentImport');
  private readonly leases: JobLeases;

  constructor(
    @InjectDataSource() private readonly dataSource: DataSource,
    private readonly suppliers: Suppliers,
    private readonly catalog: HotelCatalog,
    @Inject(SERVICE_ENV) private readonly env: SearchEnv,
    @Inject(SERVICE_INSTANCE) private readonly instance: string,
  ) {
    this.leases = new JobLeases(dataSource, 'search');
  }

  /** The vendors whose content the platform imports (`hotelbeds` when its key is set). */
  contentVendors(): HotelbedsSupplier[] {
    return this.suppliers.codes
      .map((code) => this.suppliers.of(code))
      .filter((supplier): supplier is HotelbedsSupplier => supplier instanceof HotelbedsSupplier && supplier.importsContent);
  }

  /** The admin command's run: each vendor asked (every content vendor by default) in turn. */
  async runNow(vendor: string | undefined, full: boolean): Promise<ContentImportReport[]> {
    const vendors = this.contentVendors().filter((supplier) => vendor === undefined || supplier.code === vendor);
    if (vendor !== undefined && vendors.length === 0) {
      const known = this.contentVendors().map((supplier) => supplier.code);
      throw DomainError.validation([{ field: 'vendor', message: `vendor ${vendor} has no content to import; ${known.length ? `these have: ${known.join(', ')}` : 'no vendor with content is configured (HOTELBEDS_API_KEY)'}` }]);
    }
    const reports: ContentImportReport[] = [];
    for (const supplier of vendors) {
      const report = await this.runLeased(supplier, 'command', full);
      if (!report) throw new DomainError('CONFLICT', `the content of ${supplier.code} is being imported by another replica now; try again when it has finished`);
      reports.push(report);
    }
    return reports;
  }

  /** Whether a vendor's content is due: never imported, or its last import began CONTENT_REFRESH_H hours ago or more. */
  async due(vendor: string): Promise<ContentImportTrigger | null> {
    const [last] = rowsOf<{ started_at: Date }>(
      await this.dataSource.query(`SELECT started_at FROM search.content_imports WHERE vendor = $1 AND status = 'completed' ORDER BY started_at DESC LIMIT 1`, [vendor]),
    );
    if (!last) return 'start';
    return Date.now() - last.started_at.getTime() >= this.env.CONTENT_REFRESH_H * 3_600_000 ? 'schedule' : null;
  }

  /** One import of a vendor under its lease; null when another replica holds it. */
  async runLeased(supplier: HotelbedsSupplier, trigger: ContentImportTrigger, full = false): Promise<ContentImportReport | null> {
    const job = contentImportJob(supplier.code);
    if (!(await this.leases.take(job, this.instance, CONTENT_IMPORT_LEASE_S))) return null;
    try {
      return await this.run(supplier, trigger, full, () => this.renew(job));
    } finally {
      await this.leases.release(job, this.instance);
    }
  }

  private async renew(job: string): Promise<void> {
    await this.dataSource.query(`UPDATE search.job_leases SET taken_until = now() + make_interval(secs => $3) WHERE job = $1 AND holder = $2`, [job, this.instance, CONTENT_IMPORT_LEASE_S]);
  }

  private async run(supplier: HotelbedsSupplier, trigger: ContentImportTrigger, full: boolean, renewLease: () => Promise<void>): Promise<ContentImportReport> {
    const vendor = supplier.code;
    const updatedSince = full ? null : await this.updatedSince(vendor);
    const [{ id }] = rowsOf<{ id: number }>(
      await this.dataSource.query(`INSERT INTO search.content_imports (vendor, trigger, updated_since, status) VALUES ($1, $2, $3, 'running') RETURNING id`, [vendor, trigger, updatedSince]),
    );
    const counts: Counts = { pages: 0, hotels: 0, known: 0, matchedByGiata: 0, matchedByName: 0, created: 0, skipped: 0 };
    this.logger.log({ msg: `content import ${id} of ${vendor} begins: ${updatedSince ? `hotels changed since ${updatedSince}` : 'every hotel'}${this.scopeText()}`, vendor });
    try {
      for (const query of this.queries(updatedSince)) {
        for await (const page of supplier.contentPages(query)) {
          const hotels = page.hotels ?? [];
          await this.dataSource.transaction((manager) => this.importPage(manager, vendor, hotels, counts));
          counts.pages += 1;
          await this.saveCounts(id, counts);
          await renewLease();
          this.logger.log({ msg: `content import ${id} of ${vendor}: page ${counts.pages}, ${counts.hotels}${page.total ? ` of ${page.total}` : ''} hotels (${describe(counts)})`, vendor });
        }
      }
      await this.dataSource.query(`UPDATE search.content_imports SET status = 'completed', finished_at = now() WHERE id = $1`, [id]);
      this.logger.log({ msg: `content import ${id} of ${vendor} completed: ${counts.hotels} hotels in ${counts.pages} pages (${describe(counts)})`, vendor });
    } catch (error) {
      const message = error instanceof Error ? error.message : String(error);
      await this.dataSource.query(`UPDATE search.content_imports SET status = 'failed', finished_at = now(), error = $2 WHERE id = $1`, [id, message.slice(0, 2000)]);
      this.logger.warn({ msg: `content import ${id} of ${vendor} failed after ${counts.pages} pages: ${message}; the pages before stay imported`, vendor });
    } finally {
      this.catalog.forget();
    }
    return this.report(id);
  }

  /** The vendor's hotels of one page into the catalog. */
  private async importPage(manager: EntityManager, vendor: string, hotels: ContentHotel[], counts: Counts): Promise<void> {
    const codes = hotels.map((hotel) => hotel.code);
    const knownRows = rowsOf<{ code: string; hotel_id: number }>(await manager.query('SELECT code, hotel_id FROM search.vendor_hotel_codes WHERE vendor = $1 AND code = ANY($2)', [vendor, codes]));
    const known = new Map(knownRows.map((row) => [Number(row.code), row.hotel_id]));
    for (const content of hotels) {
      counts.hotels += 1;
      const at = contentCoordinates(content);
      const name = content.name?.content?.trim();
      if (!at || !name) {
        counts.skipped += 1;
        continue;
      }
      const giata = content.giataCode ?? null;
      const hotelId = known.get(content.code);
      if (hotelId !== undefined) {
        counts.known += 1;
        await manager.query(
          `UPDATE search.vendor_hotel_codes SET name = $3, lat = $4, long = $5, giata_code = $6, content_updated = $7, last_seen_at = now() WHERE vendor = $1 AND code = $2`,
          [vendor, content.code, name, at.lat, at.long, giata, content.lastUpdate ?? null],
        );
        await this.refreshContent(manager, vendor, hotelId, content);
        continue;
      }
      const match = await this.match(manager, vendor, name, at, giata);
      let matchedBy: 'giata_code' | 'name_and_distance' | 'new';
      let platformId: number;
      if (match) {
        ({ hotelId: platformId, by: matchedBy } = match);
        if (matchedBy === 'giata_code') counts.matchedByGiata += 1;
        else counts.matchedByName += 1;
      } else {
        const created = await this.createHotel(manager, vendor, content);
        if (created === null) {
          counts.skipped += 1;
          continue;
        }
        platformId = created;
        matchedBy = 'new';
        counts.created += 1;
      }
      await manager.query(
        `INSERT INTO search.vendor_hotel_codes (vendor, code, hotel_id, giata_code, matched_by, name, lat, long, content_updated) VALUES ($1, $2, $3, $4, $5, $6, $7, $8, $9)`,
        [vendor, content.code, platformId, giata, matchedBy, name, at.lat, at.long, content.lastUpdate ?? null],
      );
      known.set(content.code, platformId);
    }
  }

  /** The platform hotel a new vendor code is, by GIATA code or by name and distance; null for a hotel new to the platform. */
  private async match(
    manager: EntityManager,
    vendor: string,
    name: string,
    at: { lat: number; long: number },
    giata: number | null,
  ): Promise<{ hotelId: number; by: 'giata_code' | 'name_and_distance' } | null> {
    if (giata !== null) {
      const [row] = rowsOf<{ hotel_id: number }>(
        await manager.query(
          `SELECT hotel_id FROM search.vendor_hotel_codes c WHERE giata_code = $1 AND vendor <> $2
             AND NOT EXISTS (SELECT 1 FROM search.vendor_hotel_codes mine WHERE mine.vendor = $2 AND mine.hotel_id = c.hotel_id)
           ORDER BY first_seen_at LIMIT 1`,
          [giata, vendor],
        ),
      );
      if (row) return { hotelId: row.hotel_id, by: 'giata_code' };
    }
    const wanted = comparableHotelName(name);
    const latSpan = SAME_HOTEL_METERS / 111_000;
    const longSpan = SAME_HOTEL_METERS / (111_000 * Math.max(0.05, Math.cos((at.lat * Math.PI) / 180)));
    const imported = rowsOf<{ id: number; lat: number; long: number; comparable_name: string }>(
      await manager.query(`SELECT id, lat, long, comparable_name FROM search.catalog_hotels WHERE lat BETWEEN $1 AND $2 AND long BETWEEN $3 AND $4`, [
        at.lat - latSpan,
        at.lat + latSpan,
        at.long - longSpan,
        at.long + longSpan,
      ]),
    );
    const candidates = [
      ...hotelsNear(at.lat, at.long, SAME_HOTEL_METERS).map((hotel: Hotel) => ({ id: hotel.id, lat: hotel.lat, long: hotel.long, name: comparableHotelName(hotel.name) })),
      ...imported.map((row) => ({ id: row.id, lat: row.lat, long: row.long, name: row.comparable_name })),
    ]
      .filter((candidate) => candidate.name === wanted)
      .map((candidate) => ({ id: candidate.id, distance: distanceMeters(at.lat, at.long, candidate.lat, candidate.long) }))
      .filter((candidate) => candidate.distance <= SAME_HOTEL_METERS)
      .sort((a, b) => a.distance - b.distance);
    if (candidates.length === 0) return null;
    const taken = new Set(
      rowsOf<{ hotel_id: number }>(
        await manager.query('SELECT hotel_id FROM search.vendor_hotel_codes WHERE vendor = $1 AND hotel_id = ANY($2)', [vendor, candidates.map((candidate) => candidate.id)]),
      ).map((row) => row.hotel_id),
    );
    // A vendor listing one hotel twice: the second code is a hotel of its own.
    const free = candidates.find((candidate) => !taken.has(candidate.id));
    return free ? { hotelId: free.id, by: 'name_and_distance' } : null;
  }

  /** A new platform hotel from the vendor's content, in the city nearest it; null when no city is within reach. */
  private async createHotel(manager: EntityManager, vendor: string, content: ContentHotel): Promise<number | null> {
    const at = contentCoordinates(content)!;
    const city = nearestCity(at.lat, at.long);
    if (!city) return null;
    const [{ id }] = rowsOf<{ id: number }>(await manager.query(`SELECT nextval('search.imported_hotel_ids')::integer AS id`));
    const hotel = catalogHotelOf(content, id, city, this.env.HOTELBEDS_IMAGE_BASE_URL)!;
    await manager.query(
      `INSERT INTO search.catalog_hotels (id, city_id, country_code, lat, long, name, comparable_name, hotel, content_vendor) VALUES ($1, $2, $3, $4, $5, $6, $7, $8, $9)`,
      [id, city.geonameId, city.countryCode, hotel.lat, hotel.long, hotel.name, comparableHotelName(hotel.name), JSON.stringify(hotel), vendor],
    );
    return id;
  }

  /** A known hotel's content again, when this vendor's content made it (a generated hotel keeps the platform's own). */
  private async refreshContent(manager: EntityManager, vendor: string, hotelId: number, content: ContentHotel): Promise<void> {
    const [row] = rowsOf<{ city_id: number }>(await manager.query('SELECT city_id FROM search.catalog_hotels WHERE id = $1 AND content_vendor = $2', [hotelId, vendor]));
    if (!row) return;
    const at = contentCoordinates(content)!;
    const city = nearestCity(at.lat, at.long);
    if (!city) return;
    const hotel = catalogHotelOf(content, hotelId, city, this.env.HOTELBEDS_IMAGE_BASE_URL)!;
    await manager.query(
      `UPDATE search.catalog_hotels SET city_id = $2, country_code = $3, lat = $4, long = $5, name = $6, comparable_name = $7, hotel = $8, updated_at = now() WHERE id = $1`,
      [hotelId, city.geonameId, city.countryCode, hotel.lat, hotel.long, hotel.name, comparableHotelName(hotel.name), JSON.stringify(hotel)],
    );
  }

  /** The day an incremental import asks from: the day before the last completed import began; null for the first (a full one). */
  private async updatedSince(vendor: string): Promise<string | null> {
    const [last] = rowsOf<{ since: string }>(
      await this.dataSource.query(
        `SELECT to_char((started_at AT TIME ZONE 'UTC')::date - $2::integer, 'YYYY-MM-DD') AS since FROM search.content_imports WHERE vendor = $1 AND status = 'completed' ORDER BY started_at DESC LIMIT 1`,
        [vendor, OVERLAP_DAYS],
      ),
    );
    return last?.since ?? null;
  }

  /** One content query per destination (CONTENT_IMPORT_DESTINATIONS), else per country (CONTENT_IMPORT_COUNTRIES), else one for everything. */
  private queries(updatedSince: string | null): { countryCode?: string; destinationCode?: string; lastUpdateTime?: string }[] {
    const since = updatedSince ? { lastUpdateTime: updatedSince } : {};
    const destinations = listOf(this.env.CONTENT_IMPORT_DESTINATIONS);
    if (destinations.length > 0) return destinations.map((destinationCode) => ({ destinationCode, ...since }));
    const countries = listOf(this.env.CONTENT_IMPORT_COUNTRIES);
    if (countries.length > 0) return countries.map((countryCode) => ({ countryCode, ...since }));
    return [since];
  }

  private scopeText(): string {
    const destinations = listOf(this.env.CONTENT_IMPORT_DESTINATIONS);
    if (destinations.length > 0) return `, in destinations ${destinations.join(', ')}`;
    const countries = listOf(this.env.CONTENT_IMPORT_COUNTRIES);
    return countries.length > 0 ? `, in countries ${countries.join(', ')}` : '';
  }

  private async saveCounts(id: number, counts: Counts): Promise<void> {
    await this.dataSource.query(
      `UPDATE search.content_imports SET pages = $2, hotels = $3, known = $4, matched_by_giata = $5, matched_by_name = $6, created = $7, skipped = $8 WHERE id = $1`,
      [id, counts.pages, counts.hotels, counts.known, counts.matchedByGiata, counts.matchedByName, counts.created, counts.skipped],
    );
  }

  private async report(id: number): Promise<ContentImportReport> {
    const [row] = rowsOf<ImportRow>(await this.dataSource.query(`SELECT ${REPORT_COLUMNS} FROM search.content_imports WHERE id = $1`, [id]));
    return {
      id: row.id,
      vendor: row.vendor,
      trigger: row.trigger,
      updatedSince: row.updated_since,
      status: row.status,
      startedAt: row.started_at.toISOString(),
      finishedAt: row.finished_at?.toISOString() ?? null,
      pages: row.pages,
      hotels: row.hotels,
      known: row.known,
      matchedByGiata: row.matched_by_giata,
      matchedByName: row.matched_by_name,
      created: row.created,
      skipped: row.skipped,
      error: row.error,
    };
  }
}

function listOf(value: string | undefined): string[] {
  return (value ?? '')
    .split(',')
    .map((part) => part.trim())
    .filter((part) => part !== '');
}

function describe(counts: Counts): string {
  return `known ${counts.known}, matched by GIATA code ${counts.matchedByGiata}, by name and distance ${counts.matchedByName}, new ${counts.created}, skipped ${counts.skipped}`;
}
