import { Type } from 'class-transformer';
import { IsInt, IsOptional, IsUrl, Matches, Max, Min } from 'class-validator';
import { HOTELBEDS_IMAGE_BASE_URL, VendorsEnv } from '@hotel/hotelbeds';

export class SearchEnv extends VendorsEnv {
  /** A V1 search is complete when every vendor answered or this much time has passed. */
  @IsOptional()
  @Type(() => Number)
  @IsInt()
  @Min(100)
  @Max(60_000)
  SEARCH_TIMEOUT_MS = 10_000;

  /** V2 answers with what the vendors returned within this deadline. */
  @IsOptional()
  @Type(() => Number)
  @IsInt()
  @Min(10)
  @Max(30_000)
  V2_DEADLINE_MS = 3000;

  /** V2 keeps a vendor's answer for a hotel and stay at most this long (and never past its price step). */
  @IsOptional()
  @Type(() => Number)
  @IsInt()
  @Min(1)
  @Max(900)
  V2_CACHE_TTL_S = 60;

  /** A session lives this long after its last use. */
  @IsOptional()
  @Type(() => Number)
  @IsInt()
  @Min(1)
  @Max(24 * 3600)
  SESSION_TTL_S = 1800;

  /** A content vendor's hotels are imported at start and again this many hours after the last import began. */
  @IsOptional()
  @Type(() => Number)
  @IsInt()
  @Min(1)
  @Max(24 * 30)
  CONTENT_REFRESH_H = 24;

  /** Import only these countries' hotels (ISO codes, `ES,PT`); all of the vendor's by default. */
  @IsOptional()
  @Matches(/^\s*[A-Za-z]{2}\s*(,\s*[A-Za-z]{2}\s*)*$/, { message: 'CONTENT_IMPORT_COUNTRIES must be ISO country codes such as ES,PT' })
  CONTENT_IMPORT_COUNTRIES?: string;

  /** Import only these of the vendor's destinations (its codes, `PMI,BCN`); wins over CONTENT_IMPORT_COUNTRIES. */
  @IsOptional()
  @Matches(/^\s*[A-Za-z0-9]{1,12}\s*(,\s*[A-Za-z0-9]{1,12}\s*)*$/, { message: 'CONTENT_IMPORT_DESTINATIONS must be destination codes such as PMI,BCN' })
  CONTENT_IMPORT_DESTINATIONS?: string;

  /** Where the vendor's image paths are found (its photo server). */
  @IsOptional()
  @IsUrl({ require_tld: false, protocols: ['http', 'https'], require_protocol: true }, { message: 'HOTELBEDS_IMAGE_BASE_URL must be an http(s) URL' })
  HOTELBEDS_IMAGE_BASE_URL = HOTELBEDS_IMAGE_BASE_URL;
}
