import type { FastifyInstance, FastifyReply, FastifyRequest } from 'fastify';
import { Readable } from 'node:stream';
import { setTimeout as sleep } from 'node:timers/promises';
import { gzipSync } from 'node:zlib';
import type { SimulatorClock } from '../clock';
import type { FaultBoard } from '../faults/fault-knobs';
import { VENDOR_CODES, type VendorCode } from '../inventory/simulated-inventory';
import { type CredentialsByVendor, apiKeyValid, signatureValid } from '../vendors/vendor-credentials';
import { GatewayAnswer, NOT_AUTHORIZED, VendorError, auditData, errorBody, invalidRequest } from './vendor-errors';
import { SANDBOX_DESK, SCENARIO_HEADER, SIMULATOR_SCENARIOS, SimulatorScenario, operationOf, vendorPath } from './vendor-request';

export interface VendorWireOptions {
  credentials: CredentialsByVendor;
  clock: SimulatorClock;
  faults: FaultBoard;
  signatureSkewSeconds: number;
  /** The largest request body read. */
  bodyLimitBytes: number;
}

/** Writes one of the vendor gateway's short answers (`<h1>Not Authorized</h1>` and the like). */
export function sendGatewayAnswer(reply: FastifyReply, answer: GatewayAnswer): FastifyReply {
  reply.code(answer.status).type('text/xml');
  if (answer.code) reply.header('x-mashery-error-code', answer.code);
  for (const [name, value] of Object.entries(answer.headers ?? {})) reply.header(name, value);
  return reply.send(`<h1>${answer.text}</h1>`);
}

/** Writes one of the API's formatted errors. */
export function sendVendorError(request: FastifyRequest, reply: FastifyReply, error: VendorError, now: number): FastifyReply {
  const startedAt = request.vendorContext?.startedAt ?? now;
  return reply.code(error.status).type('application/json;charset=UTF-8').send(errorBody(error, auditData(now, startedAt, request.ip)));
}

/**
 * The vendor's side of the wire, around the routes: before a request is read, its
 * vendor (the path's prefix), its credentials (Api-key and X-Signature, or 401 as the
 * vendor's gateway answers), its sandbox scenario and the faults it meets (latency,
 * throttling, a server error); after the handler, what faults do to the answer
 * (malformed, trickled, lost) and gzip when the client accepts it.
 */
export function installVendorWire(fastify: FastifyInstance, options: VendorWireOptions): void {
  const { credentials, clock, faults } = options;

  // JSON only, as the client sends it; bodies are read after the checks below.
  fastify.removeAllContentTypeParsers();
  fastify.addContentTypeParser('application/json', { parseAs: 'string', bodyLimit: options.bodyLimitBytes }, (_request, body, done) => {
    if (body === '') return done(null, undefined);
    try {
      done(null, JSON.parse(body as string));
    } catch {
      done(invalidRequest('The request body is not valid JSON'), undefined);
    }
  });

  fastify.addHook('onRequest', async (request, reply) => {
    const url = new URL(request.url, 'http://simulator');
    const route = vendorPath(url.pathname);
    if (!route) return;
    const desk = route.vendor === SANDBOX_DESK;
    if (!desk && !(VENDOR_CODES as readonly string[]).includes(route.vendor)) return sendGatewayAnswer(reply, { status: 404, text: 'Not Found' });
    const vendor = route.vendor as VendorCode | typeof SANDBOX_DESK;
    const now = clock.now();
    const apiKey = headerText(request.headers['api-key']);
    if (!apiKeyValid(credentials[vendor], apiKey) || !signatureValid(credentials[vendor], headerText(request.headers['x-signature']), now, options.signatureSkewSeconds)) {
      return sendGatewayAnswer(reply, NOT_AUTHORIZED);
    }
    const operation = operationOf(request.method, route.rest, url.searchParams);
    // The sandbox desk books and rechecks; it has no availability and no content.
    if (desk && (operation === undefined || operation === 'availability' || operation === 'contentHotels')) return sendGatewayAnswer(reply, { status: 404, text: 'Not Found' });
    const scenarioText = headerText(request.headers[SCENARIO_HEADER]);
    const scenario = scenarioText === undefined ? undefined : (SIMULATOR_SCENARIOS as readonly string[]).includes(scenarioText) ? (scenarioText as SimulatorScenario) : null;
    // Faults are the vendors': the desk answers test traffic as it is.
    const plan = vendor === SANDBOX_DESK ? { delayMs: 0 } : faults.plan(vendor, operation);
    request.vendorContext = { vendor, operation, scenario: scenario ?? undefined, startedAt: now, answerFault: plan.answer };
    if (scenario === null) {
      return sendVendorError(request, reply, invalidRequest(`${SCENARIO_HEADER}: one of ${SIMULATOR_SCENARIOS.join(', ')} (the simulator's own extension)`), now);
    }
    if (plan.delayMs > 0) await sleep(plan.delayMs);
    if (plan.refusal?.kind === 'throttle') {
      const retryAfter = { 'retry-after': String(plan.refusal.retryAfterSeconds) };
      return plan.refusal.status === 403
        ? sendGatewayAnswer(reply, { status: 403, text: 'Developer Over Qps', code: 'ERR_403_DEVELOPER_OVER_QPS', headers: retryAfter })
        : sendGatewayAnswer(reply, { status: 429, text: 'Too Many Requests', headers: retryAfter });
    }
    if (plan.refusal?.kind === 'serverError') return sendVendorError(request, reply, new VendorError(500, 'SYSTEM_ERROR', 'System error (a fault the simulator was told to inject)'), clock.now());
  });

  fastify.addHook('onSend', async (request, reply, payload) => {
    const context = request.vendorContext;
    if (!context || (typeof payload !== 'string' && !Buffer.isBuffer(payload))) return payload;
    const fault = context.answerFault;
    if (fault?.kind === 'lose') {
      // The work is done; the client gets no answer at all.
      request.raw.socket.destroy();
      return payload;
    }
    let body = Buffer.isBuffer(payload) ? payload : Buffer.from(payload, 'utf8');
    if (fault?.kind === 'malformed' && reply.statusCode < 300) {
      // Half the document, then a gateway page: what a proxy cut short looks like.
      body = Buffer.concat([body.subarray(0, Math.floor(body.length / 2)), Buffer.from('<html><body>502 Bad Gateway</body></html>')]);
    }
    if (/\bgzip\b/i.test(headerText(request.headers['accept-encoding']) ?? '')) {
      body = gzipSync(body);
      reply.header('content-encoding', 'gzip');
    }
    if (fault?.kind === 'trickle') {
      reply.removeHeader('content-length');
      return trickle(body, fault.chunkBytes, fault.intervalMs);
    }
    reply.header('content-length', String(body.length));
    return body;
  });
}

/** The bytes, `chunkBytes` at a time, one chunk every `intervalMs`. */
function trickle(bytes: Buffer, chunkBytes: number, intervalMs: number): Readable {
  let offset = 0;
  let timer: NodeJS.Timeout | undefined;
  return new Readable({
    read() {
      if (timer) return;
      timer = setTimeout(() => {
        timer = undefined;
        const chunk = bytes.subarray(offset, offset + chunkBytes);
        offset += chunk.length;
        this.push(chunk.length > 0 ? chunk : null);
      }, intervalMs);
    },
    destroy(error, callback) {
      clearTimeout(timer);
      callback(error);
    },
  });
}

function headerText(value: string | string[] | undefined): string | undefined {
  return Array.isArray(value) ? value[0] : value;
}
