import { Logger } from '@nestjs/common';
import { NestFactory } from '@nestjs/core';
import { FastifyAdapter, NestFastifyApplication } from '@nestjs/platform-fastify';
import { FastifyError, FastifyReply, FastifyRequest } from 'fastify';
import { randomUUID } from 'node:crypto';
import { createServer as createHttpServer, IncomingMessage, Server, ServerResponse } from 'node:http';
import { createServer as createHttpsServer } from 'node:https';
import { AddressInfo, Socket } from 'node:net';
import { hostname } from 'node:os';
import { TLSSocket } from 'node:tls';
import { EVENTS, ErrorCode, KV_BUCKETS, SUBJECTS } from '@hotel/contracts';
import { AppMetrics, DomainError, JsonLogger, KeyValueBucket, ServiceClient, acceptRequestId, busCredentials, withSpan } from '@hotel/platform';
import { AuthenticatedRequest } from './auth/api-family';
import { Authenticator } from './auth/auth.guard';
import { AddressLimiter } from './auth/address-limiter';
import { GatewayAppModule } from './gateway-app.module';
import { routedUrl } from './finance-console/finance-console.controller';
import { GatewayEnv } from './gateway.env';
import { installCompression } from './http/compression';
import { installEnvelope } from './http/envelope';
import { installRequestSpans, requestSpan } from './http/request-spans';
import { ReadinessMonitor } from './health/readiness-monitor';
import { answeredError, errorEnvelope, sendError } from './http/http-error.filter';
import { BODY_LIMIT_BYTES, bodyTooLarge, checkUrlInput, drainBounded, readJsonBody } from './http/request-input';
import { SECURITY_HEADERS, installSecurityHeaders, secureReply } from './http/security-headers';
import { TrustedProxies } from './http/trusted-proxies';
import { describeCertificate, loadTlsMaterial, watchTlsFiles } from './tls/certificate';
import { TLS_POLICY } from './tls/policy';
import { undeclaredSendCheck } from './http/route';

export { BODY_LIMIT_BYTES };

export interface RunningGateway {
  app: NestFastifyApplication;
  /** https://host:port of the TLS listener. */
  url: string;
  /** http://host:port of the behind-proxy listener, when HTTP_PORT is set. */
  plainUrl?: string;
  /** http://host:port/metrics: Prometheus metrics (METRICS_PORT). */
  metricsUrl: string;
  certificate: string;
  close(): Promise<void>;
}

type Handler = (request: IncomingMessage, response: ServerResponse) => void;

function hasBody(headers: IncomingMessage['headers']): boolean {
  return (headers['content-length'] !== undefined && headers['content-length'] !== '0') || headers['transfer-encoding'] !== undefined;
}

function isJson(contentType: string | undefined): boolean {
  return contentType !== undefined && /^application\/([\w.+-]+\+)?json\s*(;|$)/i.test(contentType);
}

/**
 * Everything decided from a request's head, before its body is read, in this
 * order: TLS (or a TLS-terminating proxy), the credential of a route that needs
 * one (401/403, rate limits, the client's requests in flight: 429), JSON content
 * type (415), declared size (413), then the query string and path parameters (400).
 */
async function checkRequestHead(request: AuthenticatedRequest, reply: FastifyReply, authenticator: Authenticator, proxies: TrustedProxies, addresses: AddressLimiter): Promise<void> {
  const socket = request.raw.socket as TLSSocket;
  // Plain HTTP only from a trusted proxy that says it took the request over TLS: anyone
  // else could set the header.
  if (socket.encrypted !== true && !(proxies.trusts(socket.remoteAddress) && request.headers['x-forwarded-proto'] === 'https')) {
    throw new DomainError('FORBIDDEN', 'plain HTTP is accepted only from a trusted TLS-terminating proxy that sets X-Forwarded-Proto: https; use HTTPS');
  }
  const family = Authenticator.familyOf(request);
  const source = addresses.sourceOf(socket.remoteAddress, request.headers['x-forwarded-for']);
  if (!family) addresses.takeAnonymous(source);
  else {
    // An address that keeps presenting bad credentials is refused before they are looked up.
    addresses.checkFailures(source);
    try {
      await authenticator.authenticate(request, reply, family);
    } catch (error) {
      if (error instanceof DomainError && error.code === 'UNAUTHORIZED') addresses.countFailure(source);
      throw error;
    }
  }
  if (hasBody(request.headers) && !isJson(request.headers['content-type'])) {
    throw new DomainError('UNSUPPORTED_MEDIA_TYPE', 'request bodies must be JSON with Content-Type: application/json');
  }
  if (Number(request.headers['content-length']) > BODY_LIMIT_BYTES) throw bodyTooLarge();
  checkUrlInput(request);
}

/**
 * Waits before a 429 goes out, for its Retry-After but at most `maxMs` (REFUSAL_HOLD_MS):
 * a client that ignores Retry-After and asks again at once would otherwise keep the
 * gateway busy refusing it, at the other clients' expense.
 */
function holdRefusal(error: DomainError, maxMs: number): Promise<void> {
  const ms = Math.min(maxMs, (error.retryAfterSeconds ?? 1) * 1000);
  return ms > 0 ? new Promise((resolve) => setTimeout(resolve, ms)) : Promise.resolve();
}

/** The error envelope written on a raw Node response, for answers given before Fastify sees the request (with its request id, as every answer). */
function rawError(req: IncomingMessage, res: ServerResponse, status: number, code: ErrorCode, message: string): void {
  const body = JSON.stringify(errorEnvelope(new DomainError(code, message)));
  res.writeHead(status, {
    ...SECURITY_HEADERS,
    'x-request-id': acceptRequestId(req.headers['x-request-id']),
    'cache-control': 'no-store',
    'content-type': 'application/json; charset=utf-8',
    'content-length': Buffer.byteLength(body),
  });
  res.end(body);
}

/** An `Expect` header other than 100-continue (Node would answer a bare 417). */
function answerExpectation(request: IncomingMessage, response: ServerResponse): void {
  rawError(request, response, 417, 'VALIDATION_FAILED', 'the only Expect this server meets is 100-continue');
}

/** Malformed HTTP (Node's parser refused it): the error envelope, then the connection is closed. */
function answerClientError(error: NodeJS.ErrnoException, socket: Socket): void {
  if (error.code === 'ECONNRESET' || socket.destroyed) return;
  const [status, reason, code, message]: [number, string, ErrorCode, string] =
    error.code === 'HPE_HEADER_OVERFLOW'
      ? [431, 'Request Header Fields Too Large', 'PAYLOAD_TOO_LARGE', 'request headers are too large']
      : error.code === 'ERR_HTTP_REQUEST_TIMEOUT'
        ? [408, 'Request Timeout', 'VALIDATION_FAILED', 'the request was not received in time']
        : [400, 'Bad Request', 'VALIDATION_FAILED', 'the request is not valid HTTP'];
  const body = JSON.stringify(errorEnvelope(new DomainError(code, message)));
  // The request could not be read: its id is a new one.
  const headers = Object.entries({ ...SECURITY_HEADERS, 'x-request-id': acceptRequestId(undefined), 'cache-control': 'no-store', connection: 'close' }).map(([name, value]) => `${name}: ${value}\r\n`);
  if (socket.writable) {
    socket.write(
      `HTTP/1.1 ${status} ${reason}\r\ncontent-type: application/json; charset=utf-8\r\ncontent-length: ${Buffer.byteLength(body)}\r\n${headers.join('')}\r\n${body}`,
    );
  }
  socket.destroySoon();
}

/** A URL the router cannot decode (bad percent-encoding) or with a path parameter over its length. */
function answerFrameworkError(error: FastifyError, request: FastifyRequest, reply: FastifyReply): void {
  reply.header('x-request-id', request.id);
  secureReply(reply);
  const message = error.code === 'FST_ERR_MAX_PARAM_LENGTH' ? 'a path parameter is too long' : 'the URL is not valid: a part of its path does not decode';
  sendError(reply, new DomainError('VALIDATION_FAILED', message));
}

/**
 * Slow clients are cut off: the head (TLS handshake and headers) must arrive within
 * HTTP_HEADERS_TIMEOUT_MS and the whole request within HTTP_REQUEST_TIMEOUT_MS (answered 408
 * by the client error handler), idle kept-alive connections close after
 * HTTP_KEEP_ALIVE_TIMEOUT_MS, and one address holds at most MAX_CONNECTIONS_PER_ADDRESS
 * connections (a trusted proxy's are everyone's, so they are not counted).
 */
function limitConnections(server: Server, env: GatewayEnv, proxies: TrustedProxies, refused: () => void): void {
  server.headersTimeout = env.HTTP_HEADERS_TIMEOUT_MS;
  server.requestTimeout = Math.max(env.HTTP_REQUEST_TIMEOUT_MS, env.HTTP_HEADERS_TIMEOUT_MS);
  server.keepAliveTimeout = env.HTTP_KEEP_ALIVE_TIMEOUT_MS;
  const open = new Map<string, number>();
  server.on('connection', (socket: Socket) => {
    const address = socket.remoteAddress ?? '';
    if (proxies.trusts(address)) return;
    const count = (open.get(address) ?? 0) + 1;
    if (count > env.MAX_CONNECTIONS_PER_ADDRESS) {
      refused();
      socket.destroy();
      return;
    }
    open.set(address, count);
    socket.once('close', () => {
      const left = (open.get(address) ?? 1) - 1;
      if (left === 0) open.delete(address);
      else open.set(address, left);
    });
  });
}

/**
 * The rate limits' shared bucket: an answer within a second, or the request is refused
 * (503); a budget not written for a day goes (it has refilled long before, unless its
 * burst is more than a day of its rate).
 */
const LIMITS_TIMEOUT_MS = 1000;
const LIMITS_MAX_AGE_MS = 24 * 3600 * 1000;

/**
 * The shared bucket's calls counted by outcome (its cost and its health), and a warning
 * while it cannot be reached (at most one a minute: a flood of refusals is one incident).
 */
function observedLimits(store: KeyValueBucket, metrics: AppMetrics, logger: JsonLogger): KeyValueBucket {
  const calls = metrics.counter('hotel_rate_limit_store_calls_total', 'Calls to the rate limits shared by the gateway replicas (NATS KV), by call and outcome', ['call', 'outcome']);
  let warnedAt = 0;
  const observe = async <T>(call: 'get' | 'update', run: () => Promise<T>): Promise<T> => {
    try {
      const result = await run();
      calls.inc({ call, outcome: result === null && call === 'update' ? 'conflict' : 'ok' });
      return result;
    } catch (error) {
      calls.inc({ call, outcome: 'unavailable' });
      if (Date.now() - warnedAt > 60_000) {
        warnedAt = Date.now();
        logger.warn({ msg: 'the rate limits cannot be checked: requests that need them are answered 503 until the bucket answers', bucket: KV_BUCKETS.RATE_LIMITS, error: error instanceof Error ? error.message : String(error) });
      }
      throw error;
    }
  };
  return {
    get: (key) => observe('get', () => store.get(key)),
    update: (key, value, revision) => observe('update', () => store.update(key, value, revision)),
  };
}

/**
 * The calls whose answers are large (V2 rates, list pages, search results, ledger pages),
 * each over a NATS connection of its own: on the one shared connection every other answer
 * (another client's page, a rate-limit lease, a credential) would wait behind them.
 */
const LARGE_ANSWER_SUBJECTS = [
  SUBJECTS.SEARCH_V2_RATES_SEARCH,
  SUBJECTS.SEARCH_SESSION_POLL,
  SUBJECTS.BOOKING_BOOKING_LIST,
  SUBJECTS.BOOKING_BACKEND_BOOKING_LIST,
  SUBJECTS.ACCOUNTING_ENTRY_LIST,
  SUBJECTS.ACCOUNTING_EXPORT_PAGE,
] as const;

/** How often the servers look for requests past their timeouts: a tenth of the head's time, at most a second. */
function timeoutCheckMs(env: GatewayEnv): number {
  return Math.max(100, Math.min(1000, Math.floor(env.HTTP_HEADERS_TIMEOUT_MS / 10)));
}

export async function startGateway(env: GatewayEnv): Promise<RunningGateway> {
  const proxies = TrustedProxies.parse(env.TRUSTED_PROXIES);
  const tls = await loadTlsMaterial({ certFile: env.TLS_CERT, keyFile: env.TLS_KEY, dataDir: env.DATA_DIR });
  const metrics = new AppMetrics('gateway');
  const routeLog = new Logger('routes');
  const services = new ServiceClient(busCredentials(env, 'gateway'), env.RPC_TIMEOUT_MS)
    .recordTo(metrics)
    .withLanes(LARGE_ANSWER_SUBJECTS)
    .checkEachSend(undeclaredSendCheck(env.NODE_ENV === 'production' ? 'report' : 'refuse', (message) => routeLog.error(message)));
  let plainServer: Server | undefined;
  let secureServer: ReturnType<typeof createHttpsServer> | undefined;
  const connectionsRefused = metrics.counter('hotel_http_connections_refused_total', 'Connections closed at once, by listener: their address already held MAX_CONNECTIONS_PER_ADDRESS', ['listener']);
  /** Set when close() begins: a request that still arrives (on a kept-alive connection) is refused with the error envelope. */
  let closing = false;
  const adapter = new FastifyAdapter({
    bodyLimit: BODY_LIMIT_BYTES,
    // Fastify's own 503 while closing has neither the error code nor Retry-After: the hook below answers instead.
    return503OnClosing: false,
    requestIdHeader: false,
    genReqId: (request: IncomingMessage) => acceptRequestId(request.headers['x-request-id']),
    frameworkErrors: answerFrameworkError,
    rewriteUrl: (request: IncomingMessage) => routedUrl(request.url!),
    clientErrorHandler: answerClientError,
    // One router behind two listeners: HTTPS, and plain HTTP for a TLS-terminating proxy.
    serverFactory: (handler: Handler) => {
      const connectionsCheckingInterval = timeoutCheckMs(env);
      if (env.HTTP_PORT !== undefined) {
        plainServer = createHttpServer({ connectionsCheckingInterval }, handler);
        plainServer.on('clientError', answerClientError);
      }
      const server = createHttpsServer({ key: tls.key, cert: tls.cert, ...TLS_POLICY, handshakeTimeout: env.HTTP_HEADERS_TIMEOUT_MS, connectionsCheckingInterval }, handler);
      secureServer = server;
      for (const listener of [server, plainServer]) {
        // `Expect: 100-continue` is answered by the request hook, once the head is accepted.
        listener?.on('checkContinue', handler).on('checkExpectation', answerExpectation);
        if (listener) limitConnections(listener, env, proxies, () => connectionsRefused.inc({ listener: listener === server ? 'https' : 'http' }));
      }
      return server;
    },
  });
  const logger = new JsonLogger('gateway', env.LOG_LEVEL);
  // The body parser is the gateway's own (below), not Nest's.
  const app = await NestFactory.create<NestFastifyApplication>(GatewayAppModule.register(env, services), adapter, { logger, bodyParser: false });
  const fastify = app.getHttpAdapter().getInstance();
  installRequestSpans(fastify);
  installEnvelope(fastify);
  installSecurityHeaders(fastify);
  installCompression(fastify, env.COMPRESSION_MIN_BYTES);
  const limits = services.keyValue({
    bucket: KV_BUCKETS.RATE_LIMITS,
    // On disk, not in memory: the NATS chart offers no memory store (max_memory_store: 0),
    // and the limits then outlive a restart of the broker. A write costs about the same.
    storage: 'file',
    replicas: env.RATE_LIMIT_STORE_REPLICAS,
    maxAgeMs: LIMITS_MAX_AGE_MS,
    timeoutMs: LIMITS_TIMEOUT_MS,
  });
  const authenticator = new Authenticator(services, env, observedLimits(limits, metrics, logger), `${hostname()}-${process.pid}-${randomUUID().slice(0, 8)}`);
  const addresses = new AddressLimiter(env.ADDRESS_RATE_LIMIT_RPS, env.ADDRESS_RATE_LIMIT_BURST, proxies);
  fastify.addHook('onRequest', async (request, reply) => {
    reply.header('x-request-id', request.id);
    if (closing) {
      reply.header('connection', 'close');
      throw new DomainError('SERVICE_UNAVAILABLE', 'this gateway is shutting down; retry (another replica answers)', undefined, 1);
    }
    try {
      await checkRequestHead(request, reply, authenticator, proxies, addresses);
    } catch (error) {
      // Answered before the body was read: read what still comes, bounded, so the answer arrives.
      if (hasBody(request.headers)) drainBounded(request.raw);
      if (error instanceof DomainError && error.code === 'RATE_LIMITED') await holdRefusal(error, env.REFUSAL_HOLD_MS);
      throw error;
    }
    // A client that waits for leave to send its body gets it only now (refused: the answer instead).
    if (/^100-continue$/i.test(request.headers.expect ?? '')) reply.raw.writeContinue();
  });
  // An expensive request stops counting against its client's bound once it is answered.
  fastify.addHook('onSend', (request: AuthenticatedRequest, _reply, payload, done) => {
    request.releaseInFlight?.();
    done(null, payload);
  });
  // Every body is JSON (the hook above answered 415 otherwise), bounded in size, depth and count.
  fastify.removeAllContentTypeParsers();
  fastify.addContentTypeParser('*', (request, payload, done) => readJsonBody(request.raw, payload, done));
  const accessLog = new Logger('http');
  const httpRequests = metrics.histogram('hotel_http_request_duration_seconds', 'HTTP requests answered, by method, route template and status', ['method', 'route', 'status']);
  const rateLimited = metrics.counter('hotel_rate_limited_requests_total', 'Requests answered 429, by API family', ['family']);
  fastify.addHook('onResponse', (request, reply, done) => {
    // The route's template, never the raw path, so the label stays bounded.
    const route = request.routeOptions.url ?? 'unmatched';
    httpRequests.observe({ method: request.method, route, status: reply.statusCode }, reply.elapsedTime / 1000);
    if (reply.statusCode === 429) rateLimited.inc({ family: Authenticator.familyOf(request) ?? 'none' });
    if (logger.isEnabled('info')) {
      // In the request's span, so the line names its trace (this hook runs outside it).
      withSpan(requestSpan(request), () => accessLog.log({
        msg: 'request',
        requestId: request.id,
        method: request.method,
        path: request.url.split('?')[0],
        status: reply.statusCode,
        ms: Math.round(reply.elapsedTime * 100) / 100,
        // An error answer says which, so a failed request can be explained from this line alone.
        ...answeredError(reply),
      }));
    }
    done();
  });
  await services.connect();
  // Revocation takes effect at the next request on every replica: the users service
  // announces each change of a client's credentials. Announcements sent while the
  // connection was down are lost, so a reconnect forgets everything.
  services.onEvent(EVENTS.USERS_CREDENTIALS_REVOKED, (event) => authenticator.cache.forgetClient(event.clientId, event.userId));
  services.onReconnect(() => authenticator.cache.clear());
  await app.listen(env.PORT, env.HOST);
  const secureAddress = app.getHttpServer().address() as AddressInfo;
  const url = `https://${hostForUrl(env.HOST)}:${secureAddress.port}`;
  let plainUrl: string | undefined;
  if (plainServer) plainUrl = `http://${hostForUrl(env.HOST)}:${await listen(plainServer, env.HTTP_PORT, env.HOST)}`;
  const metricsServer = createHttpServer((request, response) => {
    if (request.url === '/metrics') return void metrics.respond(response);
    response.writeHead(404).end();
  });
  const metricsUrl = `http://${hostForUrl(env.METRICS_HOST)}:${await listen(metricsServer, env.METRICS_PORT, env.METRICS_HOST)}/metrics`;
  // A certificate of TLS_CERT/TLS_KEY (a mounted Secret) that is renewed is taken up by new connections.
  const tlsLog = new Logger('tls');
  let tlsReloadFailing = false;
  const stopWatchingTls =
    env.TLS_CERT && env.TLS_KEY
      ? watchTlsFiles({ certFile: env.TLS_CERT, keyFile: env.TLS_KEY }, tls, env.TLS_RELOAD_S * 1000, {
          apply: (material) => {
            secureServer!.setSecureContext({ ...TLS_POLICY, key: material.key, cert: material.cert });
            tlsReloadFailing = false;
            tlsLog.log({ msg: 'TLS certificate reloaded', ...describeCertificate(material.cert) });
          },
          failed: (error) => {
            // Once per failing spell: a Secret being swapped is read half-written now and then.
            if (!tlsReloadFailing) tlsLog.warn({ msg: 'TLS certificate files changed but cannot be used yet; the current certificate is kept', error: String(error) });
            tlsReloadFailing = true;
          },
        })
      : () => undefined;
  return {
    app,
    url,
    plainUrl,
    metricsUrl,
    certificate: tls.cert,
    close: async () => {
      // Readiness goes first (a load balancer stops sending here; in Kubernetes the preStop
      // pause gives it the time), then new requests are refused and the ones in flight finish.
      app.get(ReadinessMonitor).drain();
      closing = true;
      stopWatchingTls();
      await new Promise<void>((resolve) => metricsServer.close(() => resolve()));
      await new Promise<void>((resolve) => (plainServer ? plainServer.close(() => resolve()) : resolve()));
      await app.close();
      await authenticator.close();
      await services.close();
    },
  };
}

/** Listens, failing on a port taken; the port it got. */
async function listen(server: Server, port: number | undefined, host: string): Promise<number> {
  await new Promise<void>((resolve, reject) => {
    server.once('error', reject);
    server.listen(port, host, () => resolve());
  });
  return (server.address() as AddressInfo).port;
}

function hostForUrl(host: string): string {
  if (host === '0.0.0.0' || host === '::') return 'localhost';
  return host.includes(':') ? `[${host}]` : host;
}
