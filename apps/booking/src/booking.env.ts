import { Type } from 'class-transformer';
import { IsInt, IsOptional, Max, Min } from 'class-validator';
import { ServiceEnv } from '@hotel/platform';

export class BookingEnv extends ServiceEnv {
  /** How often a replica looks for sagas whose worker died. */
  @IsOptional()
  @Type(() => Number)
  @IsInt()
  @Min(100)
  @Max(600_000)
  RECOVERY_INTERVAL_MS = 5000;

  /** How long one worker owns a saga before another replica may take it over. */
  @IsOptional()
  @Type(() => Number)
  @IsInt()
  @Min(1)
  @Max(3600)
  SAGA_LEASE_S = 30;

  /** How long an idempotency_key is kept. */
  @IsOptional()
  @Type(() => Number)
  @IsInt()
  @Min(1)
  @Max(24 * 30)
  IDEMPOTENCY_HOURS = 24;
}
