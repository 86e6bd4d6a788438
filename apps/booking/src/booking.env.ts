import { Type } from 'class-transformer';
import { IsDefined, IsIn, IsInt, IsOptional, IsString, Matches, Max, Min, MinLength, ValidateIf } from 'class-validator';
import { DEVELOPMENT_SECRET_PREFIX, Secret, ServiceEnv } from '@hotel/platform';

export class BookingEnv extends ServiceEnv {
  /**
   * Copies of the BOOKING_EVENTS stream a clustered broker keeps: 3 on a three-node
   * cluster, so that losing a node (the stream's leader too) loses no event and stops
   * no publishing beyond the election. Used when the booking service creates the stream;
   * an existing stream is kept as it is (raising its copies is an operator's act).
   */
  @IsOptional()
  @Type(() => Number)
  @IsInt()
  @Min(1)
  @Max(5)
  BOOKING_EVENTS_REPLICAS = 1;

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

  /** A booking the vendor accepted without confirming is asked about this often at first (then less and less often, up to every 15 minutes). */
  @IsOptional()
  @Type(() => Number)
  @IsInt()
  @Min(1)
  @Max(600)
  SUPPLIER_CHECK_S = 10;

  /** How long one worker owns a saga before another replica may take it over. */
  @IsOptional()
  @Type(() => Number)
  @IsInt()
  @Min(1)
  @Max(3600)
  SAGA_LEASE_S = 15;

  /** How often each replica says it is alive (booking.workers); a saga whose lease holder missed three beats is taken over at once. */
  @IsOptional()
  @Type(() => Number)
  @IsInt()
  @Min(100)
  @Max(60_000)
  WORKER_HEARTBEAT_MS = 1000;

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

  /**
   * The card processor of live bookings: `stripe`, or `sandbox` (the built-in test
   * processor, which production refuses for live bookings). Sandbox keys' bookings
   * always use the built-in one.
   */
  @IsOptional()
  @IsIn(['sandbox', 'stripe'])
  PAYMENT_PROCESSOR: 'sandbox' | 'stripe' = 'sandbox';

  /** Stripe's secret or restricted API key (sk_live_…, sk_test_…, rk_…), or a file holding it: STRIPE_SECRET_KEY_FILE. */
  @ValidateIf((env: BookingEnv) => env.PAYMENT_PROCESSOR === 'stripe' || env.STRIPE_SECRET_KEY !== undefined)
  @IsDefined({ message: 'STRIPE_SECRET_KEY (or STRIPE_SECRET_KEY_FILE) is required with PAYMENT_PROCESSOR=stripe' })
  @Matches(/^(sk|rk)_(live|test)_[0-9A-Za-z]+$/, { message: 'STRIPE_SECRET_KEY must be a Stripe secret key (sk_live_…, sk_test_…) or restricted key (rk_…)' })
  @Secret({ optional: true, vendorCredential: true })
  STRIPE_SECRET_KEY?: string;

  @IsOptional()
  @IsString()
  STRIPE_SECRET_KEY_FILE?: string;

  /** Stripe's API address; tests point it at a stand-in (http://127.0.0.1:PORT). No path: the SDK adds /v1/. */
  @IsOptional()
  @Matches(/^https?:\/\/[^\s/:@]+(:\d{1,5})?\/?$/, { message: 'STRIPE_API_BASE_URL must be http(s)://host[:port], without a path' })
  STRIPE_API_BASE_URL = 'https://api.stripe.com';

  /** How long one request to Stripe may take (a whole payment step is bounded by two thirds of SAGA_LEASE_S as well). */
  @IsOptional()
  @Type(() => Number)
  @IsInt()
  @Min(100)
  @Max(60_000)
  STRIPE_TIMEOUT_MS = 5000;

  /** How many times the Stripe SDK repeats a request that failed in transit or with 409/429/5xx, under its idempotency key. */
  @IsOptional()
  @Type(() => Number)
  @IsInt()
  @Min(0)
  @Max(5)
  STRIPE_MAX_NETWORK_RETRIES = 1;

  /** The most connections a replica opens to Stripe at once; more requests wait for one. */
  @IsOptional()
  @Type(() => Number)
  @IsInt()
  @Min(1)
  @Max(256)
  STRIPE_MAX_SOCKETS = 16;
}
