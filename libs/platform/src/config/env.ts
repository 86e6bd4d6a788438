import { Type, plainToInstance } from 'class-transformer';
import { IsIn, IsInt, IsOptional, IsString, Matches, Max, Min, MinLength, validateSync } from 'class-validator';

export class ConfigError extends Error {
  constructor(readonly problems: string[]) {
    super(`invalid configuration: ${problems.join('; ')}`);
  }
}

/** Variables every service and the gateway read. */
export class PlatformEnv {
  @IsOptional()
  @Matches(/^(nats|tls|ws|wss):\/\/[^\s,]+(,(nats|tls|ws|wss):\/\/[^\s,]+)*$/, {
    message: 'NATS_URL must be one or more nats:// URLs separated by commas',
  })
  NATS_URL = 'nats://127.0.0.1:4222';

  @IsOptional()
  @IsIn(['fatal', 'error', 'warn', 'info', 'debug'])
  LOG_LEVEL: 'fatal' | 'error' | 'warn' | 'info' | 'debug' = 'info';

  /** How long a caller waits for a service's answer before answering 503. */
  @IsOptional()
  @Type(() => Number)
  @IsInt()
  @Min(100)
  @Max(120_000)
  RPC_TIMEOUT_MS = 5000;

  /** How long a stopping service keeps answering requests already received. */
  @IsOptional()
  @Type(() => Number)
  @IsInt()
  @Min(0)
  @Max(60_000)
  SHUTDOWN_GRACE_MS = 2000;
}

/** Variables of a service that owns a database schema. */
export class ServiceEnv extends PlatformEnv {
  @Matches(/^postgres(ql)?:\/\/\S+$/, { message: 'DATABASE_URL must be a postgres:// URL' })
  DATABASE_URL: string;

  @IsOptional()
  @Type(() => Number)
  @IsInt()
  @Min(1)
  @Max(200)
  DB_POOL_SIZE = 10;

  /** `off` sends every statement unnamed: for a transaction-pooling PgBouncer before 1.21, which cannot keep prepared statements. */
  @IsOptional()
  @IsIn(['on', 'off'])
  DB_PREPARED_STATEMENTS: 'on' | 'off' = 'on';

  /** When set, a plain HTTP listener answers /health and /health/ready for probes. */
  @IsOptional()
  @Type(() => Number)
  @IsInt()
  @Min(0)
  @Max(65535)
  HEALTH_PORT?: number;

  @IsOptional()
  @IsString()
  HEALTH_HOST = '127.0.0.1';
}

/** Services that issue or accept V2 rate ids (search issues them, rates takes them back). */
export class RateIdEnv extends ServiceEnv {
  /** Signs V2 rate ids; every replica of search and rates must share it. */
  @IsOptional()
  @IsString()
  @MinLength(16)
  RATE_ID_SECRET = 'development-rate-id-secret-change-me';

  /** A V2 rate id stays valid this long. */
  @IsOptional()
  @Type(() => Number)
  @IsInt()
  @Min(1)
  @Max(24 * 3600)
  V2_RATE_TTL_S = 1800;
}

/**
 * Reads and validates environment variables into `EnvClass`. Fails with every bad
 * or missing variable named, so a misconfigured process stops at start.
 */
export function loadEnv<T extends object>(
  EnvClass: new () => T,
  source: Record<string, string | undefined> = process.env,
): T {
  // Empty variables count as unset, so `FOO=` falls back to the default.
  const present = Object.fromEntries(Object.entries(source).filter(([, value]) => value !== undefined && value !== ''));
  const candidate = plainToInstance(EnvClass, present);
  const errors = validateSync(candidate as object);
  if (errors.length > 0) {
    throw new ConfigError(
      errors.map((error) => `${error.property}: ${Object.values(error.constraints ?? {}).join(', ') || 'invalid value'}`),
    );
  }
  return candidate;
}
