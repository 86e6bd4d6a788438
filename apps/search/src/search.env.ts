import { Type } from 'class-transformer';
import { IsInt, IsOptional, Matches, Max, Min } from 'class-validator';
import { VendorsEnv } from '@hotel/hotelbeds';

export class SearchEnv extends VendorsEnv {
  /** Answer latency of each simulated vendor in V1 search, e.g. `atlas=400,borealis=1500,cobalt=4000`. */
  @IsOptional()
  @Matches(/^(\s*\w+\s*=\s*\d+\s*)(,\s*\w+\s*=\s*\d+\s*)*$/, { message: 'VENDOR_LATENCY_MS must look like atlas=400,borealis=1500' })
  VENDOR_LATENCY_MS?: string;

  /** The vendors' bulk (cached-rate) latency that V2 waits for, e.g. `atlas=10,borealis=20,cobalt=40`. */
  @IsOptional()
  @Matches(/^(\s*\w+\s*=\s*\d+\s*)(,\s*\w+\s*=\s*\d+\s*)*$/, { message: 'V2_VENDOR_LATENCY_MS must look like atlas=20,borealis=60' })
  V2_VENDOR_LATENCY_MS = 'atlas=10,borealis=20,cobalt=40';

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

  /** A session lives this long after its last use. */
  @IsOptional()
  @Type(() => Number)
  @IsInt()
  @Min(1)
  @Max(24 * 3600)
  SESSION_TTL_S = 1800;
}
