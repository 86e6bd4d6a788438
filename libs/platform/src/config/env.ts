import { readFileSync } from 'node:fs';
import { Type, plainToInstance } from 'class-transformer';
import { IsIn, IsInt, IsOptional, IsString, Matches, Max, Min, MinLength, validateSync } from 'class-validator';

export class ConfigError extends Error {
  constructor(readonly problems: string[]) {
    super(`invalid configuration: ${problems.join('; ')}`);
  }
}

const SECRETS = Symbol('secrets');
const OPTIONAL_SECRETS = Symbol('optional secrets');
/** What development defaults of secrets start with: refused in production. */
export const DEVELOPMENT_SECRET_PREFIX = 'development-';

/**
 * Marks a variable as a secret: with NODE_ENV=production the process refuses to
 * start while it is unset or still a development value. A secret can also come
 * from a file (a mounted Docker or Kubernetes secret): `<NAME>_FILE=/path`.
 * `optional`: the secret of a feature that is off without it (a card processor's
 * key); production refuses only a development value, not its absence.
 */
export function Secret(options: { optional?: boolean } = {}): PropertyDecorator {
  return (target, property) => {
    const holder = target as { [SECRETS]?: string[]; [OPTIONAL_SECRETS]?: string[] };
    holder[SECRETS] = [...(holder[SECRETS] ?? []), String(property)];
    if (options.optional) holder[OPTIONAL_SECRETS] = [...(holder[OPTIONAL_SECRETS] ?? []), String(property)];
  };
}

/** The problems of a production configuration: secrets missing or left at development values. */
function productionProblems(env: object): string[] {
  const problems: string[] = [];
  const optional = (env as { [OPTIONAL_SECRETS]?: string[] })[OPTIONAL_SECRETS] ?? [];
  for (const name of (env as { [SECRETS]?: string[] })[SECRETS] ?? []) {
    const value = (env as Record<string, unknown>)[name];
    if (value === undefined && optional.includes(name)) continue;
    if (typeof value !== 'string' || value === '' || value.startsWith(DEVELOPMENT_SECRET_PREFIX)) {
      problems.push(`${name}: must be set to a secret of your own when NODE_ENV=production`);
    }
  }
  const bus = env as Partial<PlatformEnv>;
  if (bus.NATS_URL !== undefined && !bus.NATS_NKEY_SEED && !bus.NATS_NKEY_SEED_FILE && !/\/\/[^/@]+@/.test(bus.NATS_URL)) {
    problems.push('NATS_NKEY_SEED or NATS_NKEY_SEED_FILE: every app needs its own NATS identity when NODE_ENV=production');
  }
  return problems;
}

/** Variables every service and the gateway read. */
export class PlatformEnv {
  @IsOptional()
  @Matches(/^(nats|tls|ws|wss):\/\/[^\s,]+(,(nats|tls|ws|wss):\/\/[^\s,]+)*$/, {
    message: 'NATS_URL must be one or more nats:// URLs separated by commas',
  })
  NATS_URL = 'nats://127.0.0.1:4222';

  /** This app's NATS identity: an NKEY user seed (`SU…`), or a file holding one (a mounted secret). */
  @IsOptional()
  @Matches(/^SU[A-Z2-7]{56}$/, { message: 'NATS_NKEY_SEED must be an NKEY user seed (SU…)' })
  NATS_NKEY_SEED?: string;

  @IsOptional()
  @IsString()
  NATS_NKEY_SEED_FILE?: string;

  /** TLS to NATS: the CA that signed the broker's certificate, and a client certificate if the broker asks for one. */
  @IsOptional()
  @IsString()
  NATS_TLS_CA_FILE?: string;

  @IsOptional()
  @IsString()
  NATS_TLS_CERT_FILE?: string;

  @IsOptional()
  @IsString()
  NATS_TLS_KEY_FILE?: string;

  /** `production` refuses development secrets and an anonymous bus identity. */
  @IsOptional()
  @IsString()
  NODE_ENV?: string;

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

  /** An OpenTelemetry collector's OTLP/HTTP base address (traces go to its /v1/traces); unset: no tracing at all. */
  @IsOptional()
  @Matches(/^https?:\/\/[^\s/]+(\/\S*)?$/, { message: 'OTEL_EXPORTER_OTLP_ENDPOINT must be an http:// or https:// URL (the collector\'s OTLP/HTTP address)' })
  OTEL_EXPORTER_OTLP_ENDPOINT?: string;

  /** The service.name of this app's spans; the app's name by default. */
  @IsOptional()
  @Matches(/^[\w.:-]{1,100}$/, { message: 'OTEL_SERVICE_NAME must be 1-100 letters, digits or ._:-' })
  OTEL_SERVICE_NAME?: string;
}

/** Variables of a service that owns a database schema. */
export class ServiceEnv extends PlatformEnv {
  @Matches(/^postgres(ql)?:\/\/\S+$/, { message: 'DATABASE_URL must be a postgres:// URL' })
  DATABASE_URL: string;

  /**
   * The service's connection budget: how many connections all its replicas together may
   * hold. Each replica's pool is DB_MAX_CONNECTIONS / DB_MAX_REPLICAS. The budgets of all
   * services (plus room for migrations and operators) must stay under PostgreSQL's
   * max_connections.
   */
  @IsOptional()
  @Type(() => Number)
  @IsInt()
  @Min(1)
  @Max(10_000)
  DB_MAX_CONNECTIONS = 10;

  /** How many replicas of the service run at most (its autoscaler's maximum): they share the budget. */
  @IsOptional()
  @Type(() => Number)
  @IsInt()
  @Min(1)
  @Max(1000)
  DB_MAX_REPLICAS = 1;

  /** A replica's pool size as it is, instead of its share of the budget (tests and tools). */
  @IsOptional()
  @Type(() => Number)
  @IsInt()
  @Min(1)
  @Max(200)
  DB_POOL_SIZE?: number;

  /** How long a request waits for one of the pool's connections; then 503 with Retry-After, never a connection more. */
  @IsOptional()
  @Type(() => Number)
  @IsInt()
  @Min(50)
  @Max(60_000)
  DB_ACQUIRE_TIMEOUT_MS = 5000;

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
  @Secret()
  RATE_ID_SECRET = `${DEVELOPMENT_SECRET_PREFIX}rate-id-secret-change-me`;

  /** A V2 rate id stays valid this long. */
  @IsOptional()
  @Type(() => Number)
  @IsInt()
  @Min(1)
  @Max(24 * 3600)
  V2_RATE_TTL_S = 1800;

  /**
   * Exchange rates older than this many days are stale: with NODE_ENV=production a price
   * that needs a conversion answers 503 FX_RATES_STALE rather than sell at an old rate;
   * otherwise a warning is logged. The ECB publishes on working days, so 4 covers a weekend.
   */
  @IsOptional()
  @Type(() => Number)
  @IsInt()
  @Min(1)
  @Max(365)
  FX_MAX_AGE_DAYS = 4;
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
  const fileProblems: string[] = [];
  for (const name of (EnvClass.prototype as { [SECRETS]?: string[] })[SECRETS] ?? []) {
    const file = present[`${name}_FILE`];
    if (present[name] !== undefined || file === undefined) continue;
    try {
      present[name] = readFileSync(file, 'utf8').trim();
    } catch (error) {
      fileProblems.push(`${name}_FILE: cannot read ${file} (${(error as NodeJS.ErrnoException).code ?? error})`);
    }
  }
  const candidate = plainToInstance(EnvClass, present);
  const errors = validateSync(candidate as object);
  const problems = [...fileProblems, ...errors.map((error) => `${error.property}: ${Object.values(error.constraints ?? {}).join(', ') || 'invalid value'}`)];
  if ((candidate as Partial<PlatformEnv>).NODE_ENV === 'production') problems.push(...productionProblems(candidate));
  if (problems.length > 0) throw new ConfigError(problems);
  return candidate;
}

/** A replica's pool: DB_POOL_SIZE when set, else its share of the service's budget (DB_MAX_CONNECTIONS / DB_MAX_REPLICAS). */
export function databasePoolSize(env: Pick<ServiceEnv, 'DB_MAX_CONNECTIONS' | 'DB_MAX_REPLICAS' | 'DB_POOL_SIZE'>): number {
  if (env.DB_POOL_SIZE !== undefined) return env.DB_POOL_SIZE;
  const share = Math.floor(env.DB_MAX_CONNECTIONS / env.DB_MAX_REPLICAS);
  if (share < 1) throw new ConfigError([`DB_MAX_CONNECTIONS (${env.DB_MAX_CONNECTIONS}) must be at least DB_MAX_REPLICAS (${env.DB_MAX_REPLICAS}): every replica needs a connection`]);
  return share;
}
