import { SpanKind, trace } from '@opentelemetry/api';
import { Client } from 'pg';
import { traced } from '../tracing/tracing';

/**
 * A pg client class (for the pool, over `Base`) whose queries are spans under the span
 * of the request being handled, named after the statement's first word and the service
 * (`SELECT booking`), with the statement's text: its values are parameters, never in it.
 * At the platform's database layer rather than @opentelemetry/instrumentation-pg, which
 * patches `pg` through require hooks: these need installing before anything loads `pg`,
 * which in one process running every app (the system tests) is not an order to rely on.
 * Queries outside any span (migrations, probes' `SELECT 1`) make none. Only the promise
 * form, the one TypeORM uses; a callback or a stream goes untraced.
 */
export function tracedClient(Base: typeof Client, service: string): typeof Client {
  return class TracedClient extends Base {
    override query(...args: unknown[]): never {
      const query = (super.query as (...rest: unknown[]) => never).bind(this);
      const text = typeof args[0] === 'string' ? args[0] : undefined;
      if (text === undefined || typeof args[args.length - 1] === 'function' || !trace.getActiveSpan()) return query(...args);
      const operation = /^\s*(\w+)/.exec(text)?.[1]?.toUpperCase() ?? 'QUERY';
      const attributes = { 'db.system.name': 'postgresql', 'db.operation.name': operation, 'db.query.text': text };
      return traced(service, `${operation} ${service}`, { kind: SpanKind.CLIENT, attributes }, () => query(...args) as Promise<unknown>) as never;
    }
  };
}
