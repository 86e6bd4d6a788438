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
const VENDOR_CREDENTIALS = Symbol('vendor credentials');
const UNCHECKED_SECRETS = Symbol('secrets production does not check');
/** What development defaults of secrets start with: refused in production. */
export const DEVELOPMENT_SECRET_PREFIX = 'development-';
/** The fewest bytes production takes for a secret of the platform's own (32 random bytes: 43 characters of base64url). */
export const MIN_SECRET_BYTES = 32;
/**
 * The fewest bits a secret of the platform's own must carry by its characters' spread
 * (length × the entropy of its characters' frequencies): 32 random hex digits carry
 * about 117, 32 random decimal digits about 100, 32 characters of four kinds 64.
 */
const MIN_SECRET_BITS = 80;

export interface SecretOptions {
  /** The secret of a feature that is off without it (a card processor's key): production refuses only a development value, not its absence. */
  optional?: boolean;
  /**
   * A credential a vendor issues (Hotelbeds', the simulated vendors', Stripe's): its length
   * is the vendor's to choose, so production refuses its development value and obvious
   * patterns, not a short one.
   */
  vendorCredential?: boolean;
  /** false: read like a secret (`<NAME>_FILE`, reported by `developmentSecrets`), but production does not insist on it (a test tool's credentials). */
  checkedInProduction?: boolean;
}

type SecretHolder = { [SECRETS]?: string[]; [OPTIONAL_SECRETS]?: string[]; [VENDOR_CREDENTIALS]?: string[]; [UNCHECKED_SECRETS]?: string[] };

/**
 * Marks a variable as a secret: with NODE_ENV=production the process refuses to
 * start while it is unset, still a development value or too weak to be a secret
 * (`secretWeakness`). A secret can also come from a file (a mounted Docker or
 * Kubernetes secret): `<NAME>_FILE=/path`.
 */
export function Secret(options: SecretOptions = {}): PropertyDecorator {
  return (target, property) => {
    const holder = target as SecretHolder;
    const add = (list: typeof SECRETS | typeof OPTIONAL_SECRETS | typeof VENDOR_CREDENTIALS | typeof UNCHECKED_SECRETS) => {
      holder[list] = [...(holder[list] ?? []), String(property)];
    };
    add(SECRETS);
    if (options.optional) add(OPTIONAL_SECRETS);
    if (options.vendorCredential) add(VENDOR_CREDENTIALS);
    if (options.checkedInProduction === false) add(UNCHECKED_SECRETS);
  };
}

/** Keys next to each other on a keyboard's rows (a walk along one, `qwerty` or `asdf`, is no secret). */
const KEYBOARD_ROWS = ['1234567890', 'qwertyuiop', 'asdfghjkl', 'zxcvbnm'];

/** Whether `next` follows `previous` as a person typing a pattern would: the same character, the next or previous one (`abc`, `987`), or a key beside it. */
function follows(previous: string, next: string): boolean {
  if (previous === next) return true;
  const step = (next.codePointAt(0) ?? 0) - (previous.codePointAt(0) ?? 0);
  if ((step === 1 || step === -1) && /[0-9A-Za-z]/.test(previous) && /[0-9A-Za-z]/.test(next)) return true;
  const [a, b] = [previous.toLowerCase(), next.toLowerCase()];
  return KEYBOARD_ROWS.some((row) => {
    const at = row.indexOf(a);
    return at >= 0 && (row[at + 1] === b || row[at - 1] === b);
  });
}

/**
 * The share of a value's characters (after the first) that a guesser gets for free:
 * each that carries on a run of two steps or more (`aaa`, `abc`, `432`, `qwe`) or ends
 * three characters already seen together earlier (a repeated unit: `abcabc…`,
 * `Secret1Secret1…`). About 0.01 for random base64, 0.04 for random hex and 0.1 for
 * random decimal digits; 1 for `aaaa…`.
 */
function predictableShare(value: string): number {
  const chars = [...value];
  if (chars.length < 2) return 1;
  const trigrams = new Set<string>();
  let predictable = 0;
  for (let index = 2; index < chars.length; index++) {
    const run = follows(chars[index - 2], chars[index - 1]) && follows(chars[index - 1], chars[index]);
    if (run || trigrams.has(chars.slice(index - 2, index + 1).join(''))) predictable++;
    // Seen from here on: an occurrence overlapping this one by two (`aaaa`) is a run, counted above.
    if (index >= 3) trigrams.add(chars.slice(index - 3, index).join(''));
  }
  return predictable / (chars.length - 1);
}

/** Length × the Shannon entropy of the value's character frequencies: bits, if its characters were drawn independently. */
function estimatedBits(value: string): number {
  const chars = [...value];
  const counts = new Map<string, number>();
  for (const char of chars) counts.set(char, (counts.get(char) ?? 0) + 1);
  let perChar = 0;
  for (const count of counts.values()) perChar -= (count / chars.length) * Math.log2(count / chars.length);
  return perChar * chars.length;
}

/**
 * Why a value will not do as a production secret, or null when it will: a development
 * value; shorter than MIN_SECRET_BYTES; half or more of it predictable (one character
 * repeated, a repeated unit, a run such as `abcd`, `0123` or `qwerty`); or too few
 * different characters to carry MIN_SECRET_BITS. A vendor's credential is judged by
 * the development value and the patterns only: its length is the vendor's.
 */
export function secretWeakness(value: string, options: { vendorCredential?: boolean } = {}): string | null {
  if (value.startsWith(DEVELOPMENT_SECRET_PREFIX)) return `a development value (starts with ${DEVELOPMENT_SECRET_PREFIX})`;
  if (!options.vendorCredential && Buffer.byteLength(value, 'utf8') < MIN_SECRET_BYTES) return `shorter than ${MIN_SECRET_BYTES} bytes`;
  if (predictableShare(value) >= 0.5) return 'an obvious pattern (a character or a sequence repeated, or a run such as abcd, 1234 or qwerty)';
  if (!options.vendorCredential && estimatedBits(value) < MIN_SECRET_BITS) return 'too few different characters';
  return null;
}

/** The variables of an environment (a loaded one, or its class's prototype) marked @Secret. */
export function secretNames(env: object): string[] {
  return [...((env as SecretHolder)[SECRETS] ?? [])];
}

/** The secrets of a loaded environment still at a development value: what production refuses, and what a running system should have none of. */
export function developmentSecrets(env: object): string[] {
  return secretNames(env).filter((name) => {
    const value = (env as Record<string, unknown>)[name];
    return typeof value === 'string' && value.startsWith(DEVELOPMENT_SECRET_PREFIX);
  });
}

/** The problems of a production configuration: secrets missing, left at development values or too weak, and an anonymous bus identity. */
function productionProblems(env: object): string[] {
  const problems: string[] = [];
  const holder = env as SecretHolder;
  const optional = holder[OPTIONAL_SECRETS] ?? [];
  const unchecked = holder[UNCHECKED_SECRETS] ?? [];
  const vendorCredentials = holder[VENDOR_CREDENTIALS] ?? [];
  for (const name of holder[SECRETS] ?? []) {
    if (unchecked.includes(name)) continue;
    const value = (env as Record<string, unknown>)[name];
    if (value === undefined && optional.includes(name)) continue;
    if (typeof value !== 'string' || value === '' || value.startsWith(DEVELOPMENT_SECRET_PREFIX)) {
      problems.push(`${name}: must be set to a secret of your own when NODE_ENV=production`);
      continue;
    }
    const weakness = secretWeakness(value, { vendorCredential: vendorCredentials.includes(name) });
    if (weakness) {
      const advice = vendorCredentials.includes(name) ? 'use the credential the vendor issued' : `use ${MIN_SECRET_BYTES} random bytes, as init-secrets makes them (or: openssl rand -base64 32)`;
      problems.push(`${name}: too weak for NODE_ENV=production: ${weakness}; ${advice}`);
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

  /**
   * The longest a stopping service keeps answering requests already received: it stops as
   * soon as it has answered them. As long as RPC_TIMEOUT_MS, so that a request that came
   * just before the stop is answered while its caller still waits for it.
   */
  @IsOptional()
  @Type(() => Number)
  @IsInt()
  @Min(0)
  @Max(60_000)
  SHUTDOWN_GRACE_MS = 5000;

  /** An OpenTelemetry collector's OTLP/HTTP base address (traces go to its /v1/traces); unset: no tracing at all. */
  @IsOptional()
  @Matches(/^https?:\/\/[^\s/]+(\/\S*)?$/, { message: 'OTEL_EXPORTER_OTLP_ENDPOINT must be an http:// or https:// URL (the collector\'s OTLP/HTTP address)' })
  OTEL_EXPORTER_OTLP_ENDPOINT?: string;

  /** Where SIGUSR2 writes this app's CPU profiles (the first signal starts one, the next writes it); the system's temporary directory by default. */
  @IsOptional()
  @IsString()
  CPU_PROFILE_DIR?: string;

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
  for (const name of (EnvClass.prototype as SecretHolder)[SECRETS] ?? []) {
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
