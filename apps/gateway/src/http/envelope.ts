import { FastifyInstance } from 'fastify';
import { requestContext } from '@hotel/platform';
import { Paginated } from './paginated';

export interface Envelope<T> {
  data: T;
  success: true;
  message: string | null;
}

/**
 * Two Fastify hooks instead of a Nest interceptor (which would cost an async
 * resource per request): every handler runs in the request's context (so
 * service calls and log lines carry its id), and every object a handler
 * returns is wrapped in `{data, success, message}` (`Paginated` adds `total`).
 * Strings and buffers pass as they are: the V2 rates body (the specification
 * gives it without an envelope), PDF vouchers, and error bodies, which the
 * error filter and the request hooks serialize themselves.
 */
export function installEnvelope(fastify: FastifyInstance): void {
  fastify.addHook('preHandler', (request, _reply, done) => {
    requestContext.enterWith({ requestId: request.id, service: 'gateway' });
    done();
  });
  fastify.addHook('preSerialization', (_request, _reply, payload, done) => {
    if (payload instanceof Paginated) return done(null, { data: payload.items, total: payload.total, success: true, message: null });
    done(null, { data: payload, success: true, message: null } satisfies Envelope<unknown>);
  });
}
