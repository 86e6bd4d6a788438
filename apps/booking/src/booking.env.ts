import { Type } from 'class-transformer';
import { IsInt, IsOptional, IsString, Matches, Max, Min, MinLength } from 'class-validator';
import { DEVELOPMENT_SECRET_PREFIX, Secret, ServiceEnv } from '@hotel/platform';

export class BookingEnv extends ServiceEnv {
  /** How often a replica looks for sagas whose worker died. */
  @IsOptional()
  @Type(() => Number)
  @IsInt()
  @Min(100)
  @Max(600_000)
  RECOVERY_INTERVAL_MS = 5000;

  /**
   * How often a replica publishes the booking events it has not published yet
   * (besides right after each status change): the bound on an event's delay
   * after JetStream was unreachable.
   */
  @IsOptional()
  @Type(() => Number)
  @IsInt()
  @Min(50)
  @Max(60_000)
  EVENTS_RELAY_INTERVAL_MS = 1000;

  /** Sent booking events leave the outbox after this many days (the stream keeps them 30 days). */
  @IsOptional()
  @Type(() => Number)
  @IsInt()
  @Min(1)
  @Max(3650)
  EVENTS_OUTBOX_RETENTION_DAYS = 30;

  /** How long one worker owns a saga before another replica may take it over. */
  @IsOptional()
  @Type(() => Number)
  @IsInt()
  @Min(1)
  @Max(3600)
  SAGA_LEASE_S = 15;

  /** Signs voucher links; every booking replica must share it. */
  @IsOptional()
  @IsString()
  @MinLength(16)
  @Secret()
  VOUCHER_SECRET = `${DEVELOPMENT_SECRET_PREFIX}voucher-secret-change-me`;

  /** The gateway's public address, for voucher links. */
  @IsOptional()
  @Matches(/^https?:\/\/\S+[^/]$/, { message: 'PUBLIC_BASE_URL must be an http(s) URL without a trailing slash' })
  PUBLIC_BASE_URL = 'https://localhost:8443';

  /** How long a voucher link works. */
  @IsOptional()
  @Type(() => Number)
  @IsInt()
  @Min(60)
  @Max(365 * 86400)
  VOUCHER_TTL_S = 30 * 86400;

  /** How long an idempotency_key is kept. */
  @IsOptional()
  @Type(() => Number)
  @IsInt()
  @Min(1)
  @Max(24 * 30)
  IDEMPOTENCY_HOURS = 24;
}
