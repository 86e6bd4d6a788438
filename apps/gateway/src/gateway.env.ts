import { Type } from 'class-transformer';
import { IsInt, IsOptional, IsString, Matches, Max, Min } from 'class-validator';
import { PlatformEnv } from '@hotel/platform';

/** An address (IPv4 or IPv6, loosely) with an optional prefix length, comma-separated; each is parsed for real at start. */
const TRUSTED_PROXIES_PATTERN = /^\s*[0-9a-fA-F:.]+(\/\d{1,3})?\s*(,\s*[0-9a-fA-F:.]+(\/\d{1,3})?\s*)*$/;

export class GatewayEnv extends PlatformEnv {
  /** HTTPS port of both APIs (booking API at /, backend API at /api). */
  @IsOptional()
  @Type(() => Number)
  @IsInt()
  @Min(0)
  @Max(65535)
  PORT = 8443;

  /** Loopback by default; set 0.0.0.0 in a container. */
  @IsOptional()
  @IsString()
  HOST = '127.0.0.1';

  /**
   * A plain-HTTP listener for deployments behind a TLS-terminating proxy; it
   * accepts only requests from TRUSTED_PROXIES carrying `X-Forwarded-Proto: https`.
   */
  @IsOptional()
  @Type(() => Number)
  @IsInt()
  @Min(0)
  @Max(65535)
  HTTP_PORT?: number;

  /**
   * The peers whose `X-Forwarded-*` headers the plain-HTTP listener believes:
   * comma-separated addresses or CIDR ranges (IPv4 or IPv6). Anyone else reaching
   * that listener is refused, whatever headers they send.
   */
  @IsOptional()
  @Matches(TRUSTED_PROXIES_PATTERN, { message: 'TRUSTED_PROXIES must be comma-separated IP addresses or CIDR ranges (10.0.0.0/8,::1)' })
  TRUSTED_PROXIES = '127.0.0.1/8,::1/128';

  /** Prometheus metrics at /metrics, on a port of their own (never the public one); 0 takes a free port. */
  @IsOptional()
  @Type(() => Number)
  @IsInt()
  @Min(0)
  @Max(65535)
  METRICS_PORT = 9464;

  /** Loopback by default: a scraper on another host needs METRICS_HOST=0.0.0.0 (and a network policy). */
  @IsOptional()
  @IsString()
  METRICS_HOST = '127.0.0.1';

  @IsOptional()
  @IsString()
  TLS_CERT?: string;

  @IsOptional()
  @IsString()
  TLS_KEY?: string;

  /** How often TLS_CERT and TLS_KEY are read again: a renewed certificate is used from then on, without a restart. */
  @IsOptional()
  @Type(() => Number)
  @IsInt()
  @Min(1)
  @Max(86_400)
  TLS_RELOAD_S = 60;

  /** Where the generated development certificate is kept. */
  @IsOptional()
  @IsString()
  DATA_DIR = '.data';

  /** How long a resolved credential is trusted before asking the users service again. */
  @IsOptional()
  @Type(() => Number)
  @IsInt()
  @Min(0)
  @Max(60_000)
  AUTH_CACHE_TTL_MS = 5000;

  /**
   * Requests per second, and burst, one source address may make without a credential
   * (health, vouchers, documentation, console assets, unknown paths), and, apart, failed
   * authentications it may cause: beyond them, 429 before any work.
   */
  @IsOptional()
  @Type(() => Number)
  @IsInt()
  @Min(1)
  ADDRESS_RATE_LIMIT_RPS = 20;

  @IsOptional()
  @Type(() => Number)
  @IsInt()
  @Min(1)
  ADDRESS_RATE_LIMIT_BURST = 40;

  /**
   * Requests per second per credential, and the burst above it (a client's own limit, set
   * with `set-rate-limit`, wins); every gateway replica draws on the same buckets.
   */
  @IsOptional()
  @Type(() => Number)
  @IsInt()
  @Min(1)
  RATE_LIMIT_RPS = 250;

  @IsOptional()
  @Type(() => Number)
  @IsInt()
  @Min(1)
  RATE_LIMIT_BURST = 500;

  /**
   * Requests per second, and burst, of a whole client: every key, backend token and
   * user token of the client draws on it as well as on its own budget. Defaults to
   * RATE_LIMIT_RPS / RATE_LIMIT_BURST; a client's own limit (`set-rate-limit`) replaces it.
   */
  @IsOptional()
  @Type(() => Number)
  @IsInt()
  @Min(1)
  RATE_LIMIT_CLIENT_RPS?: number;

  @IsOptional()
  @Type(() => Number)
  @IsInt()
  @Min(1)
  RATE_LIMIT_CLIENT_BURST?: number;

  /**
   * Expensive requests (lists, searches, hotel rates, V2 rates, prebook, book) one
   * client may have in flight at once, across every gateway replica; more are answered
   * 429 with Retry-After.
   */
  @IsOptional()
  @Type(() => Number)
  @IsInt()
  @Min(1)
  @Max(100_000)
  CLIENT_MAX_IN_FLIGHT = 32;

  /**
   * List pages (GET /book, GET /api/booking…, GET /api/accounting…) one gateway replica
   * lets into the services at once, all clients together: about the cores that assemble
   * them. The ones over it wait and are let in per client in turn (with V2 rates below:
   * a client's turn counts both), so a client flooding pages or V2 rates holds up another
   * client's page by about one page, not by all of its own.
   */
  @IsOptional()
  @Type(() => Number)
  @IsInt()
  @Min(1)
  @Max(10_000)
  PAGE_CONCURRENCY = 2;

  /**
   * V2 rates requests one gateway replica lets into the services at once, all clients
   * together; the others wait and go in per client in turn, as pages do. More than pages:
   * a V2 request may wait on vendors as long as it works.
   */
  @IsOptional()
  @Type(() => Number)
  @IsInt()
  @Min(1)
  @Max(10_000)
  V2_RATES_CONCURRENCY = 16;

  /**
   * Answers of at least this many bytes are compressed for clients that send
   * Accept-Encoding (Brotli or gzip); 0 turns compression off. Below about a kilobyte the
   * bytes saved are under one TCP segment's worth: no packet, no round trip saved.
   */
  @IsOptional()
  @Type(() => Number)
  @IsInt()
  @Min(0)
  @Max(1 << 30)
  COMPRESSION_MIN_BYTES = 1024;

  /**
   * How long a 429 is held before it is sent (at most its Retry-After): a client that
   * retries at once, whatever Retry-After says, then cannot make the gateway spend its
   * CPU refusing thousands of requests a second; one that waits as told loses nothing.
   */
  @IsOptional()
  @Type(() => Number)
  @IsInt()
  @Min(0)
  @Max(10_000)
  REFUSAL_HOLD_MS = 1000;

  /**
   * Copies of the rate limits' shared bucket (`hotel_rate_limits`, JetStream KV) a clustered
   * broker keeps: 3 on a three-node cluster, so losing a node keeps the limits (and the
   * requests, which are refused with 503 while the limits cannot be checked). Used when
   * the gateway creates the bucket; an existing bucket is kept as it is.
   */
  @IsOptional()
  @Type(() => Number)
  @IsInt()
  @Min(1)
  @Max(5)
  RATE_LIMIT_STORE_REPLICAS = 1;

  /**
   * A connection must deliver a request's head (TLS handshake and headers) this soon, or it
   * is answered 408 and closed: a client trickling headers holds no connection for long.
   */
  @IsOptional()
  @Type(() => Number)
  @IsInt()
  @Min(500)
  @Max(120_000)
  HTTP_HEADERS_TIMEOUT_MS = 10_000;

  /** A whole request, body included, must arrive this soon (at least HTTP_HEADERS_TIMEOUT_MS). */
  @IsOptional()
  @Type(() => Number)
  @IsInt()
  @Min(500)
  @Max(600_000)
  HTTP_REQUEST_TIMEOUT_MS = 30_000;

  /** An idle kept-alive connection is closed after this; behind a proxy, set it above the proxy's own idle timeout. */
  @IsOptional()
  @Type(() => Number)
  @IsInt()
  @Min(100)
  @Max(600_000)
  HTTP_KEEP_ALIVE_TIMEOUT_MS = 5_000;

  /** Open connections one address may hold at once (TRUSTED_PROXIES, which carry everyone's, are not counted); more are closed at once. */
  @IsOptional()
  @Type(() => Number)
  @IsInt()
  @Min(1)
  @Max(100_000)
  MAX_CONNECTIONS_PER_ADDRESS = 64;

  /** How often the gateway asks every service's health in the background; GET /health/ready answers from the last round. */
  @IsOptional()
  @Type(() => Number)
  @IsInt()
  @Min(100)
  @Max(60_000)
  READY_CHECK_INTERVAL_MS = 2000;

  /** Timeout of each service's answer to a readiness check. */
  @IsOptional()
  @Type(() => Number)
  @IsInt()
  @Min(100)
  @Max(30_000)
  READY_TIMEOUT_MS = 1500;
}
