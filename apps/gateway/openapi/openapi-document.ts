import { Type } from '@nestjs/common';
import { readFileSync } from 'node:fs';
import { join } from 'node:path';
import { ERROR_CODES, ErrorCode, TEST_SCENARIOS } from '@hotel/contracts';
import { HTTP_STATUS_BY_CODE } from '@hotel/platform';
import { OPENAPI_DOCUMENT_FILE } from '../src/docs/docs.controller';
import { gatewayControllers } from '../src/gateway-app.module';
import { JsonSchema, ref } from './json-schema';
import { ROUTES, RouteDefinition, Reply, TAGS, routeDefinitionOf } from '../src/http/route-definitions';
import { bodySchemas, classSchema } from './request-schemas';
import { replySchemas } from './reply-schemas';
import { GatewayRoute, gatewayRoutes } from './routes';

export type OpenApiDocument = JsonSchema & { paths: Record<string, Record<string, JsonSchema>>; components: JsonSchema & { schemas: Record<string, JsonSchema> } };

/** One example per operation, by operationId: its parameters, its body and its success answer. */
export interface OperationExample {
  parameters?: Record<string, unknown>;
  request?: unknown;
  response?: unknown;
}

export const EXAMPLES_FILE = join(__dirname, 'examples.json');

/** Where the generated document is kept: in the gateway's sources, which serve it (and the build copies it to dist). */
export const OPENAPI_DOCUMENT = OPENAPI_DOCUMENT_FILE;

/** Every route can answer these: a URL that does not decode (400), plain HTTP from outside a trusted proxy (403), a body over 1 MiB (413) or not JSON (415), a bug (500). */
/** Every route; RATE_LIMITED: the limit of the source address (requests without a credential, failed authentications). */
const EVERY_ROUTE: ErrorCode[] = ['VALIDATION_FAILED', 'FORBIDDEN', 'PAYLOAD_TOO_LARGE', 'UNSUPPORTED_MEDIA_TYPE', 'RATE_LIMITED', 'INTERNAL_ERROR'];
/** A route with a credential: unknown or missing (401), the rate limit (429), the users service that resolves it (503). */
const AUTHENTICATED: ErrorCode[] = ['UNAUTHORIZED', 'RATE_LIMITED', 'SERVICE_UNAVAILABLE'];

/** The error codes a route answers with, the common ones first. */
export function errorCodes(route: GatewayRoute, spec: RouteDefinition): ErrorCode[] {
  return [...new Set([...EVERY_ROUTE, ...(route.family ? AUTHENTICATED : []), ...spec.errors])];
}

const ERROR_EXAMPLE_MESSAGES: Record<ErrorCode, string> = {
  VALIDATION_FAILED: 'check_in: check_in must be a date YYYY-MM-DD from today (UTC) to 500 days ahead',
  UNAUTHORIZED: 'invalid, revoked or expired credential',
  FORBIDDEN: 'this credential is for the backend API; the booking API takes an API key or a user token',
  NOT_FOUND: 'booking 42 not found',
  CONFLICT: 'idempotency_key in use',
  SESSION_EXPIRED: 'session expired; start a new search',
  RATE_NOT_AVAILABLE: 'rate not available',
  PREBOOK_REQUIRED: 'prebook required',
  INSUFFICIENT_FUNDS: 'insufficient funds',
  DUPLICATE_CLIENT_REFERENCE: 'duplicate client_reference',
  IDEMPOTENCY_CONFLICT: 'idempotency_key was used with a different request',
  PAYMENT_DECLINED: 'card declined: insufficient funds',
  PAYMENT_INCOMPLETE: 'the booking was interrupted before the card was charged; nothing was charged: book again',
  PAYMENT_METHOD_UNAVAILABLE: 'card payments are not available: no card processor is configured for live bookings; pay by account',
  CURRENCY_MISMATCH: 'the price is in USD but the account is in JPY: nothing was booked or charged; prebook again',
  PREBOOK_ALREADY_BOOKED: 'prebook already booked: booking 42; prebook again for another booking',
  PROMO_CODE_INVALID: 'unknown promo code',
  SUPPLIER_ERROR: 'the supplier could not confirm the booking',
  PAYLOAD_TOO_LARGE: 'request body is larger than 1 MiB',
  UNSUPPORTED_MEDIA_TYPE: 'request bodies must be JSON with Content-Type: application/json',
  RATE_LIMITED: 'rate limit exceeded for this credential; retry after Retry-After seconds',
  SERVICE_UNAVAILABLE: 'the booking service did not answer in time',
  FX_RATES_STALE: 'exchange rates of 2026-11-20 are older than 4 days: prices in other currencies are not offered until they are refreshed',
  FX_RATE_UNAVAILABLE: 'no exchange rate for RUB is in force: prices in RUB cannot be given',
  INTERNAL_ERROR: 'internal error; retry with exponential backoff',
};

/** Answers of the HTTP server itself, before a route is chosen (start-gateway.ts): possible on every operation. */
const BEFORE_ROUTING: Record<number, { name: string; description: string; code: ErrorCode; message: string }> = {
  408: { name: 'RequestTimeout', description: 'The request was not received in time.', code: 'VALIDATION_FAILED', message: 'the request was not received in time' },
  417: { name: 'ExpectationFailed', description: 'An `Expect` header other than `100-continue`.', code: 'VALIDATION_FAILED', message: 'the only Expect this server meets is 100-continue' },
  431: { name: 'RequestHeaderFieldsTooLarge', description: 'The request line and headers are too large.', code: 'PAYLOAD_TOO_LARGE', message: 'request headers are too large' },
};

const STATUS_TEXT: Record<number, string> = {
  400: 'The request is not valid, or a business rule refused it: `code` says which.',
  401: 'Missing, unknown, revoked or expired credential.',
  403: 'A valid credential on an API its role does not reach, another client\'s `clientId`, or plain HTTP.',
  404: 'Not found (another client\'s object too), or an expired session or a rate no longer available.',
  409: 'A conflict with an earlier request.',
  413: 'The body is larger than 1 MiB.',
  415: 'The body is not JSON.',
  429: 'Past the rate limit or the bound on requests in flight: retry after `Retry-After` seconds.',
  500: 'An unexpected error; retry with exponential backoff.',
  503: 'A service, NATS or the database is down or did not answer in time: retry after `Retry-After` seconds.',
};

const HEADERS: Record<string, JsonSchema> = {
  'X-Request-Id': {
    description: 'The request\'s id: the caller\'s `X-Request-Id` if it is 1–128 characters of `[A-Za-z0-9._:-]`, else a new UUID. Every log line of every service carries it.',
    schema: { type: 'string', pattern: '^[A-Za-z0-9._:-]{1,128}$' },
  },
  'RateLimit-Limit': { description: 'The burst of the tighter of the credential\'s and the client\'s token buckets.', schema: { type: 'string', pattern: '^\\d+$' } },
  'RateLimit-Remaining': { description: 'Requests left in that bucket now.', schema: { type: 'string', pattern: '^\\d+$' } },
  'RateLimit-Reset': { description: 'Seconds until that bucket is full again.', schema: { type: 'string', pattern: '^\\d+$' } },
  'Retry-After': { description: 'Seconds to wait before a retry.', schema: { type: 'string', pattern: '^\\d+$' } },
  ETag: { description: 'The version of what is answered; send it back in `If-None-Match` for 304 when it has not changed.', schema: { type: 'string', pattern: '^(W/)?"[!#-~]+"$' } },
  'Cache-Control': { description: 'How long a copy may be kept, and by whom.', schema: { type: 'string' } },
};

const RATE_LIMIT_HEADERS = ['RateLimit-Limit', 'RateLimit-Remaining', 'RateLimit-Reset'];

/** `components.headers`: each header required, and as `Optional<name>` not required (the rate limit headers of an error, absent when the credential was refused). */
function headerComponents(): Record<string, JsonSchema> {
  const key = (name: string) => name.replace(/-/g, '');
  return Object.fromEntries(
    Object.entries(HEADERS).flatMap(([name, header]) => [
      [key(name), { ...header, required: true }],
      ...(RATE_LIMIT_HEADERS.includes(name) ? [[`Optional${key(name)}`, header]] : []),
    ]),
  );
}

/** Response headers by reference to `components.headers`. */
function headers(required: string[], optional: string[] = []): JsonSchema {
  const at = (component: string) => ({ $ref: `#/components/headers/${component}` });
  return Object.fromEntries([
    ...required.map((name) => [name, at(name.replace(/-/g, ''))]),
    ...optional.map((name) => [name, at(`Optional${name.replace(/-/g, '')}`)]),
  ]);
}

/** An error envelope with this code, as `components.examples` keeps it. */
function errorExample(code: ErrorCode): JsonSchema {
  const message = ERROR_EXAMPLE_MESSAGES[code];
  return {
    summary: code,
    value: {
      data: null,
      success: false,
      message,
      code,
      ...(code === 'VALIDATION_FAILED' && { errors: [{ field: 'check_in', message: message.replace(/^check_in: /, '') }] }),
    },
  };
}

const SECURITY_SCHEMES = {
  ApiKey: {
    type: 'http',
    scheme: 'bearer',
    description:
      'Booking API: `Authorization: Bearer <key>` with the client\'s `api_key` (`hb_live_…`), its `sandbox_api_key` (`hb_test_…`: bookings are tests and move no money) ' +
      'or a user token (`hb_user_…`, from `GET /api/user/{id}/token`).',
  },
  BackendToken: {
    type: 'apiKey',
    in: 'header',
    name: 'Authorization',
    description: 'Backend API: `Authorization: <token>` (a `Bearer ` prefix also works) with the client\'s `backend_token` (`hb_back_…`) or a user token (`hb_user_…`).',
  },
};

function securityOf(route: GatewayRoute): JsonSchema[] {
  if (route.family === 'booking') return [{ ApiKey: [] }];
  if (route.family === 'backend') return [{ BackendToken: [] }];
  return [];
}

/** The schema name of a reply in its form (the envelope around it, a page of it, a list of it). */
function replySchemaName(reply: Reply): string | undefined {
  if (!reply.type) return undefined;
  switch (reply.form) {
    case 'envelope':
      return `${reply.type}Envelope`;
    case 'page':
      return `${reply.type}Page`;
    case 'list':
      return `${reply.type}ListEnvelope`;
    default:
      return reply.type;
  }
}

function envelopeSchema(data: JsonSchema, description: string, total = false): JsonSchema {
  return {
    type: 'object',
    description,
    properties: {
      data,
      ...(total && { total: { type: 'integer', minimum: 0, description: 'Every match across pages; the page count is ceil(total / limit).' } }),
      success: { const: true },
      message: { type: ['string', 'null'] },
    },
    required: ['data', ...(total ? ['total'] : []), 'success', 'message'],
    additionalProperties: false,
  };
}

function envelopeSchemas(replies: Reply[]): Record<string, JsonSchema> {
  const schemas: Record<string, JsonSchema> = {};
  for (const reply of replies) {
    const name = replySchemaName(reply);
    if (!name || !reply.type || name === reply.type) continue;
    if (reply.form === 'envelope') schemas[name] = envelopeSchema(ref(reply.type), `A ${reply.type} in the envelope.`);
    if (reply.form === 'list') schemas[name] = envelopeSchema({ type: 'array', items: ref(reply.type) }, `A list of ${reply.type} in the envelope.`);
    if (reply.form === 'page') schemas[name] = envelopeSchema({ type: 'array', items: ref(reply.type) }, `A page of ${reply.type} in the envelope, with \`total\`.`, true);
  }
  return schemas;
}

function successContent(reply: Reply, example: unknown): JsonSchema | undefined {
  const withExample = (media: JsonSchema) => (example === undefined ? media : { ...media, example });
  switch (reply.form) {
    case 'pdf':
      return { 'application/pdf': { schema: { type: 'string', contentMediaType: 'application/pdf' } } };
    case 'empty':
      return undefined;
    case 'html':
      return { 'text/html': { schema: { type: 'string' } } };
    case 'asset':
      return {
        'text/css': { schema: { type: 'string' } },
        'application/javascript': { schema: { type: 'string' } },
        'image/png': { schema: { type: 'string', contentMediaType: 'image/png' } },
      };
    case 'json-document':
      return { 'application/json': { schema: { type: 'object', description: 'An OpenAPI 3.1 document.' } } };
    default:
      return { 'application/json': withExample({ schema: ref(replySchemaName(reply)!) }), ...Object.assign({}, ...(reply.downloads ?? []).map(downloadContent)) };
  }
}

/** A download's media type: CSV (RFC 4180, header record first) or PDF. */
function downloadContent(kind: 'csv' | 'pdf'): JsonSchema {
  return kind === 'csv' ? { 'text/csv': { schema: { type: 'string', description: 'RFC 4180, a header record first.' } } } : successContent({ form: 'pdf', description: '' }, undefined)!;
}

function errorResponse(status: number, codes: ErrorCode[], authenticated: boolean): JsonSchema {
  const retry = status === 429 || status === 503;
  const rateLimit = authenticated ? RATE_LIMIT_HEADERS : [];
  return {
    description: STATUS_TEXT[status] ?? 'An error.',
    // A 429 of the source address's limit comes before any credential is known: no RateLimit-* headers then.
    headers: headers(['X-Request-Id', ...(retry ? ['Retry-After'] : [])], rateLimit),
    content: {
      'application/json': {
        schema: { allOf: [ref('ErrorEnvelope')], properties: { code: { enum: codes } } },
        examples: Object.fromEntries(codes.map((code) => [code, { $ref: `#/components/examples/${code}` }])),
      },
    },
  };
}

function parametersOf(route: GatewayRoute, example: OperationExample): JsonSchema[] {
  const fromClass = (target: Type | undefined, location: 'path' | 'query'): JsonSchema[] => {
    if (!target) return [];
    const schema = classSchema(target);
    const required = new Set((schema.required as string[] | undefined) ?? []);
    return Object.entries(schema.properties as Record<string, JsonSchema>).map(([name, { description, ...property }]) => ({
      name,
      in: location,
      required: location === 'path' || required.has(name),
      ...(description !== undefined && { description }),
      schema: property,
      ...(example.parameters?.[name] !== undefined && { example: example.parameters[name] }),
    }));
  };
  const pathNames = [...route.path.matchAll(/\{(\w+)\}/g)].map((match) => match[1]);
  const path = fromClass(route.params, 'path');
  const missing = pathNames.filter((name) => !path.some((parameter) => parameter.name === name));
  if (missing.length) throw new Error(`${route.key}: path parameters without a validated class property: ${missing.join(', ')}`);
  return [
    ...path,
    ...fromClass(route.query, 'query'),
    { $ref: '#/components/parameters/X-Request-Id' },
    ...(route.testScenario
      ? [
          {
            name: 'X-Test-Scenario',
            in: 'header',
            required: false,
            description: 'Sandbox keys only (ignored for live keys): forces an outcome. Prebook: `price_changed`, `sold_out`; book: `supplier_pending`, `supplier_error`, `card_declined`.',
            schema: { type: 'string', enum: [...TEST_SCENARIOS] },
          },
        ]
      : []),
  ];
}

function operation(route: GatewayRoute, spec: RouteDefinition, example: OperationExample): JsonSchema {
  const statuses = Object.keys(spec.replies).map(Number);
  if (!statuses.includes(route.status)) throw new Error(`${route.key}: the route answers ${route.status}, which its replies (${statuses.join(', ')}) do not list`);
  const authenticated = route.family !== undefined;
  const successHeaders = headers(['X-Request-Id', ...(authenticated ? RATE_LIMIT_HEADERS : []), ...(spec.conditional ? ['ETag', 'Cache-Control'] : [])]);
  const responses: Record<string, JsonSchema> = {};
  for (const [status, reply] of Object.entries(spec.replies)) {
    const content = successContent(reply, Number(status) === route.status ? example.response : undefined);
    responses[status] = { description: reply.description, headers: successHeaders, ...(content && { content }) };
  }
  const codes = errorCodes(route, spec);
  const byStatus = new Map<number, ErrorCode[]>();
  for (const code of codes) byStatus.set(HTTP_STATUS_BY_CODE[code], [...(byStatus.get(HTTP_STATUS_BY_CODE[code]) ?? []), code]);
  for (const status of [...byStatus.keys()].sort()) responses[status] = errorResponse(status, byStatus.get(status)!, authenticated);
  for (const [status, { name }] of Object.entries(BEFORE_ROUTING)) responses[status] = { $ref: `#/components/responses/${name}` };
  return {
    operationId: spec.operationId,
    tags: [spec.tag],
    summary: spec.summary,
    ...(spec.description && { description: spec.description }),
    security: securityOf(route),
    parameters: [
      ...parametersOf(route, example),
      ...(spec.conditional
        ? [{ name: 'If-None-Match', in: 'header', required: false, description: 'The `ETag` of the copy the client has: 304 without a body when it is still the version.', schema: { type: 'string' } }]
        : []),
    ],
    ...(route.body && {
      requestBody: {
        required: true,
        content: { 'application/json': { schema: ref(route.body.name), ...(example.request !== undefined && { example: example.request }) } },
      },
    }),
    responses,
    // Whether a client may send the call again (route-definitions.ts RetryRule); the SDK follows it.
    'x-retry': spec.retry,
  };
}

/** The routes and their definitions (ROUTES), refused unless they name the same set. */
export function documentedRoutes(): { route: GatewayRoute; spec: RouteDefinition }[] {
  const routes = gatewayRoutes(gatewayControllers());
  const undocumented = routes.filter((route) => !routeDefinitionOf(route.key)).map((route) => route.key);
  const unrouted = Object.keys(ROUTES).filter((key) => !routes.some((route) => route.key === key));
  if (undocumented.length || unrouted.length) {
    throw new Error(
      `the route definitions (apps/gateway/src/http/route-definitions.ts) and the gateway's routes differ: ` +
        `routes without a definition: ${undocumented.join(', ') || 'none'}; definitions without a route: ${unrouted.join(', ') || 'none'}`,
    );
  }
  return routes.map((route) => ({ route, spec: routeDefinitionOf(route.key)! }));
}

/** The schemas of both sides: request classes (class-validator) and reply types (TypeScript); a name both use must mean the same fields. */
function mergeSchemas(requests: Record<string, JsonSchema>, replies: Record<string, JsonSchema>): Record<string, JsonSchema> {
  for (const [name, reply] of Object.entries(replies)) {
    const request = requests[name];
    if (!request) continue;
    const fields = (schema: JsonSchema) => JSON.stringify(Object.keys((schema.properties as object | undefined) ?? {}).sort());
    if (fields(request) !== fields(reply)) throw new Error(`${name} is both a request class and a reply type with other fields`);
  }
  // The request class says more (limits): it serves both.
  return { ...replies, ...requests };
}

/**
 * Fields the specification gives as integers, where TypeScript can only say `number`:
 * `a.b` is a nested field, `a[]` the items of an array. The contract test holds the
 * replies to it.
 */
const INTEGER_FIELDS: Record<string, string[]> = {
  AccountingEntryView: ['id', 'clientId', 'bookingId', 'userId', 'bankPaymentId'],
  BackendBooking: ['id', 'hotelId', 'userId', 'hotel.id', 'rooms[].children[].age'],
  BalanceView: ['clientId'],
  BedType: ['quantity'],
  BookingRoom: ['children[].age'],
  BookingView: ['id', 'hotel_id', 'nights'],
  HotelDetails: ['id', 'review_count', 'minimum_age'],
  HotelRate: ['hotel_id'],
  HotelRateElite: ['breakfast_pax'],
  HotelRateRoom: ['adults', 'children', 'children_ages[]'],
  HotelRateRoomData: ['size_sqft', 'size_sqm', 'max_occupancy', 'max_adults', 'max_children', 'room_id'],
  IdentityView: ['client_id', 'user_id'],
  PrebookData: ['nights', 'booking_id'],
  PrebookSearch: ['radius'],
  SearchMetadata: ['total_hotels', 'total_pages', 'nights', 'rooms'],
  SearchResultHotel: ['hotel.id'],
  UserView: ['id'],
};

function asInteger(schema: JsonSchema, path: string[], where: string): void {
  const [step, ...rest] = path;
  const items = step.endsWith('[]');
  const property = (schema.properties as Record<string, JsonSchema> | undefined)?.[items ? step.slice(0, -2) : step];
  const target = items ? (property?.items as JsonSchema | undefined) : property;
  if (!target) throw new Error(`INTEGER_FIELDS: ${where} names no field`);
  if (rest.length) return asInteger(target, rest, where);
  const type = target.type;
  if (type === 'number') target.type = 'integer';
  else if (Array.isArray(type) && type.includes('number')) target.type = type.map((name) => (name === 'number' ? 'integer' : name));
  else throw new Error(`INTEGER_FIELDS: ${where} is not a number`);
}

function markIntegers(schemas: Record<string, JsonSchema>): void {
  for (const [name, fields] of Object.entries(INTEGER_FIELDS)) {
    if (!schemas[name]) throw new Error(`INTEGER_FIELDS: no schema ${name}`);
    for (const field of fields) asInteger(schemas[name], field.split('.'), `${name}.${field}`);
  }
}

/** `search` of the V2 rates answer: the request as validated, with the defaults it was answered with. */
function v2SearchEcho(body: JsonSchema): JsonSchema {
  return {
    ...body,
    description: 'The request, with the defaults it was answered with (`nationality`, `page`, `limit`, and `radius` for a coordinates search).',
    required: [...(body.required as string[]), 'nationality', 'page', 'limit'],
  };
}

function sorted<T>(record: Record<string, T>): Record<string, T> {
  return Object.fromEntries(Object.entries(record).sort(([a], [b]) => (a < b ? -1 : a > b ? 1 : 0)));
}

export function buildOpenApiDocument(examples: Record<string, OperationExample> = JSON.parse(readFileSync(EXAMPLES_FILE, 'utf8'))): OpenApiDocument {
  const documented = documentedRoutes();
  const bodies = documented.flatMap(({ route }) => (route.body ? [route.body] : []));
  const replies = documented.flatMap(({ spec }) => Object.values(spec.replies));
  const requestSchemas = bodySchemas(bodies);
  const replyTypes = [...new Set(replies.flatMap((reply) => (reply.type ? [reply.type] : [])))];
  const schemas = mergeSchemas(requestSchemas, replySchemas([...replyTypes, 'ErrorEnvelope']));
  markIntegers(schemas);
  schemas.V2RatesSearchEcho = v2SearchEcho(requestSchemas.V2RatesBody);
  (schemas.V2RatesResponse.properties as Record<string, JsonSchema>).search = ref('V2RatesSearchEcho');
  Object.assign(schemas, envelopeSchemas(replies));
  const unknownExamples = Object.keys(examples).filter((id) => !documented.some(({ spec }) => spec.operationId === id));
  if (unknownExamples.length) throw new Error(`examples of no operation: ${unknownExamples.join(', ')}`);

  const paths: Record<string, Record<string, JsonSchema>> = {};
  for (const { route, spec } of documented) {
    paths[route.path] ??= {};
    paths[route.path][route.method.toLowerCase()] = operation(route, spec, examples[spec.operationId] ?? {});
  }
  return {
    openapi: '3.1.0',
    info: {
      title: 'Hotel booking platform API',
      version: '1.0.0',
      summary: 'The booking API (V1 and V2) and the backend API under /api.',
      description:
        'Partner platforms search and book hotel stays through the booking API, suppliers and resellers pull rates from V2, and the finance team works the ledger ' +
        'through the backend API under `/api`. Answers are JSON in the envelope `{"data", "success", "message"}` (lists add `total`), except `POST /v2/rates` ' +
        '(no envelope), vouchers (PDF) and this documentation. Every error, on both APIs, is `{"data": null, "success": false, "message", "code"}`; validation ' +
        'errors add `errors: [{field, message}]`. Every answer carries `X-Request-Id`; authenticated answers carry `RateLimit-Limit`, `RateLimit-Remaining` and ' +
        '`RateLimit-Reset`, and 429 and 503 carry `Retry-After`.',
      // package.json: UNLICENSED, a private API for the platform's clients.
      license: { name: 'Proprietary', identifier: 'LicenseRef-Proprietary' },
    },
    servers: [{ url: '/', description: 'The gateway that serves this document (npm start: https://localhost:8443)' }],
    tags: TAGS.map((tag) => ({ ...tag })),
    paths,
    components: {
      schemas: sorted(schemas),
      securitySchemes: SECURITY_SCHEMES,
      // Answered by the HTTP server before any route is chosen, so on every path.
      responses: Object.fromEntries(
        Object.values(BEFORE_ROUTING).map(({ name, description, code, message }) => [
          name,
          {
            description,
            headers: headers(['X-Request-Id']),
            content: {
              'application/json': {
                schema: { allOf: [ref('ErrorEnvelope')], properties: { code: { enum: [code] } } },
                example: { data: null, success: false, message, code },
              },
            },
          },
        ]),
      ),
      headers: sorted(headerComponents()),
      examples: Object.fromEntries(ERROR_CODES.map((code) => [code, errorExample(code)])),
      parameters: {
        'X-Request-Id': { name: 'X-Request-Id', in: 'header', required: false, description: 'Your id for the request (1–128 characters of `[A-Za-z0-9._:-]`), echoed in the answer.', schema: { type: 'string', maxLength: 128 } },
      },
    },
  };
}

/** The document as the gateway serves it: JSON, two-space indented, with a final newline. */
export function renderOpenApiDocument(): string {
  return `${JSON.stringify(buildOpenApiDocument(), null, 2)}\n`;
}

