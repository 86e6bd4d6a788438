import { ArrayMaxSize, ArrayMinSize, IsArray, IsBoolean, IsInt, IsOptional, Matches, Max, Min } from 'class-validator';

/** A vendor's code as the platform names it (`hotelbeds`, `atlas`). */
const VENDOR_CODE = /^[a-z][a-z0-9-]{0,31}$/;

/** At most this many hotels in one catalog lookup. */
export const MAX_CATALOG_LOOKUP = 100;

/** search.catalog-hotels.get.v1 (rates): hotels the vendors' content added to the catalog, by id. */
export class GetCatalogHotelsRequest {
  @IsArray()
  @ArrayMinSize(1)
  @ArrayMaxSize(MAX_CATALOG_LOOKUP)
  @IsInt({ each: true })
  @Min(1, { each: true })
  @Max(2_147_483_647, { each: true })
  ids: number[];
}

/**
 * A hotel of the catalog as the search service holds it (the shape of libs/inventory's
 * Hotel, which this library does not know): its id, and the rest for the catalog's readers.
 */
export type CatalogHotelRecord = { id: number } & Record<string, unknown>;

export interface CatalogHotelsReply {
  /** The hotels found, in no particular order; an unknown id is left out. */
  hotels: CatalogHotelRecord[];
}

/** search.content-import.run.v1 (admin command line): imports a vendor's hotel content now. */
export class RunContentImportRequest {
  /** A vendor whose content is imported; every such vendor when absent. */
  @IsOptional()
  @Matches(VENDOR_CODE, { message: 'vendor must be a vendor code such as hotelbeds' })
  vendor?: string;

  /** Every hotel again, not only those the vendor changed since the last import. */
  @IsOptional()
  @IsBoolean()
  full?: boolean;
}

export type ContentImportTrigger = 'start' | 'schedule' | 'command';

/** One run of the content import for one vendor (a row of search.content_imports). */
export interface ContentImportReport {
  id: number;
  vendor: string;
  trigger: ContentImportTrigger;
  /** YYYY-MM-DD: only hotels the vendor changed since then were asked for; null for a full import. */
  updatedSince: string | null;
  status: 'running' | 'completed' | 'failed';
  startedAt: string;
  finishedAt: string | null;
  pages: number;
  /** Hotels the vendor answered. */
  hotels: number;
  /** Of them: already known by the vendor's code (their content refreshed). */
  known: number;
  /** Matched to a platform hotel another vendor gave the same GIATA code. */
  matchedByGiata: number;
  /** Matched to a platform hotel of the same name at most 150 m away. */
  matchedByName: number;
  /** New platform hotels. */
  created: number;
  /** Left out: no name or no usable coordinates. */
  skipped: number;
  error: string | null;
}

export interface ContentImportRunReply {
  reports: ContentImportReport[];
}
