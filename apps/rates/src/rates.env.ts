import { Type } from 'class-transformer';
import { IsInt, IsOptional, Max, Min } from 'class-validator';
import { RateIdEnv } from '@hotel/platform';

export class RatesEnv extends RateIdEnv {
  /** A prebook holds its price this long; book needs one that has not expired. */
  @IsOptional()
  @Type(() => Number)
  @IsInt()
  @Min(1)
  @Max(24 * 3600)
  PREBOOK_TTL_S = 900;

  /** A sandbox booking in the supplier_pending scenario is confirmed by its vendor after this long. */
  @IsOptional()
  @Type(() => Number)
  @IsInt()
  @Min(0)
  @Max(3600)
  SUPPLIER_PENDING_S = 60;
}
