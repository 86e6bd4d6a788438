import { Type } from 'class-transformer';
import { IsIn, IsInt, IsOptional, IsString, Matches, Max, Min, MinLength, ValidationArguments, registerDecorator } from 'class-validator';
import { DEVELOPMENT_SECRET_PREFIX, Secret, ServiceEnv } from '@hotel/platform';

/**
 * The default retry schedule: the delays (seconds) between a delivery's attempts
 * after the first, about 72 hours in all (5 s, 5 min, 30 min, 2 h, 5 h, 10 h, 14 h,
 * 20 h, 20 h); each delay gets ±10 % jitter.
 */
export const DEFAULT_RETRY_SCHEDULE_S = '5,300,1800,7200,18000,36000,50400,72000,72000';

/** A switch for local testing: `1` is refused with NODE_ENV=production. */
function OffInProduction() {
  return (target: object, propertyName: string) =>
    registerDecorator({
      name: 'offInProduction',
      target: target.constructor,
      propertyName,
      options: { message: `${propertyName}=1 is for local testing only: refused with NODE_ENV=production` },
      validator: {
        validate: (value: unknown, args: ValidationArguments) => value !== '1' || (args.object as { NODE_ENV?: string }).NODE_ENV !== 'production',
      },
    });
}

export class WebhooksEnv extends ServiceEnv {
  /** Comma-separated delays in seconds between attempts; after the last one a delivery is `failed`. */
  @IsOptional()
  @Matches(/^\d{1,7}(,\d{1,7}){0,29}$/, { message: 'WEBHOOK_RETRY_SCHEDULE_S must be up to 30 comma-separated whole numbers of seconds' })
  WEBHOOK_RETRY_SCHEDULE_S = DEFAULT_RETRY_SCHEDULE_S;

  /** How long a receiver has to answer 2xx. */
  @IsOptional()
  @Type(() => Number)
  @IsInt()
  @Min(100)
  @Max(60_000)
  WEBHOOK_TIMEOUT_MS = 10_000;

  /** An endpoint whose every attempt failed for this long is disabled (5 days). */
  @IsOptional()
  @Type(() => Number)
  @IsInt()
  @Min(1)
  @Max(365 * 86400)
  WEBHOOK_DISABLE_AFTER_S = 5 * 86400;

  /** How often a replica looks for due deliveries (besides right after new ones arrive). */
  @IsOptional()
  @Type(() => Number)
  @IsInt()
  @Min(50)
  @Max(60_000)
  WEBHOOK_DISPATCH_INTERVAL_MS = 1000;

  /** Attempts one replica makes at the same time. */
  @IsOptional()
  @Type(() => Number)
  @IsInt()
  @Min(1)
  @Max(256)
  WEBHOOK_CONCURRENCY = 16;

  /**
   * Attempts one client may have in flight across the replicas (a soft bound), so that
   * one client's slow or silent receivers cannot take every attempt slot.
   */
  @IsOptional()
  @Type(() => Number)
  @IsInt()
  @Min(1)
  @Max(256)
  WEBHOOK_MAX_IN_FLIGHT_PER_CLIENT = 4;

  /**
   * A stream message its replica did not acknowledge in this time (it died) goes to another
   * replica. Short: a booking's later events wait for it (their order), and writing an
   * event's deliveries takes milliseconds.
   */
  @IsOptional()
  @Type(() => Number)
  @IsInt()
  @Min(1)
  @Max(3600)
  WEBHOOK_ACK_WAIT_S = 5;

  /** Delivered and failed deliveries leave the delivery log after this many days. */
  @IsOptional()
  @Type(() => Number)
  @IsInt()
  @Min(1)
  @Max(3650)
  WEBHOOK_LOG_RETENTION_DAYS = 30;

  /** Encrypts the endpoints' signing secrets in the database; every replica must share it. */
  @IsOptional()
  @IsString()
  @MinLength(16)
  @Secret()
  WEBHOOK_SECRET_KEY = `${DEVELOPMENT_SECRET_PREFIX}webhook-secret-key-change-me`;

  /**
   * `1`: webhooks may also go to loopback, private and link-local addresses, and over
   * plain http, so that a receiver on the same machine works in local testing. Off
   * (`0`), the policy is production's everywhere: https to public addresses only.
   */
  @IsOptional()
  @IsIn(['0', '1'])
  @OffInProduction()
  WEBHOOK_ALLOW_PRIVATE_TARGETS: '0' | '1' = '0';
}
