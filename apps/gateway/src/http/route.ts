import { AsyncLocalStorage } from 'node:async_hooks';
import { HttpCode, RequestMapping, RequestMethod } from '@nestjs/common';
import { DomainError } from '@hotel/platform';
import { ROUTES, RouteDefinition, RouteKey } from './route-definitions';

/** The route a handler is answering, while it answers: what the bus client checks each call against. */
interface RouteInCall {
  key: RouteKey;
  sends: ReadonlySet<string>;
}

const routeInCall = new AsyncLocalStorage<RouteInCall>();

/** `{name}` segments as Nest's `:name`. */
function nestPath(template: string): string {
  return template.replace(/\{([^}]+)\}/g, ':$1');
}

/**
 * Maps a controller's handler to the public route of this key, as its definition
 * (route-definitions.ts) says: method, path and success status. The handler then runs
 * with the route in its async context, so that a bus call the definition does not
 * declare (`sends`) is caught (see undeclaredSendCheck). Use it in place of `@Get`,
 * `@Post` and `@HttpCode`, in a controller without a path prefix: the key is the path.
 */
export function Route(key: RouteKey): MethodDecorator {
  const definition: RouteDefinition = ROUTES[key];
  const space = key.indexOf(' ');
  const method = key.slice(0, space) as keyof typeof RequestMethod;
  const inCall: RouteInCall = { key, sends: new Set(definition.sends.map((operation) => operation.subject)) };
  const status = definition.status ?? (method === 'POST' ? 201 : 200);
  return (target, name, descriptor) => {
    const handler = descriptor.value as unknown as (...args: unknown[]) => unknown;
    const inRoute = function (this: unknown, ...args: unknown[]): unknown {
      return routeInCall.run(inCall, () => handler.apply(this, args));
    };
    // Decorators below this one (a credential family, a header) marked the handler itself.
    for (const metadataKey of Reflect.getOwnMetadataKeys(handler)) Reflect.defineMetadata(metadataKey, Reflect.getOwnMetadata(metadataKey, handler), inRoute);
    Object.defineProperty(inRoute, 'name', { value: handler.name });
    (descriptor as TypedPropertyDescriptor<unknown>).value = inRoute;
    RequestMapping({ path: nestPath(key.slice(space + 1)), method: RequestMethod[method] })(target, name, descriptor);
    HttpCode(status)(target, name, descriptor);
  };
}

/**
 * The bus client's check of each call (ServiceClient.checkEachSend): a call made while a
 * route answers must be one its definition declares. `refuse` fails the call (a 500:
 * tests and development, where every route's calls are exercised); `report` lets it
 * through and reports it once per route and subject (production, where a partner's
 * request must not fail for a missing declaration). Calls outside a route (the
 * credential check before it, background refreshes) are not checked.
 */
export function undeclaredSendCheck(mode: 'refuse' | 'report', report: (message: string) => void): (subject: string) => void {
  const reported = new Set<string>();
  return (subject) => {
    const route = routeInCall.getStore();
    if (!route || route.sends.has(subject)) return;
    const message = `${route.key} sent ${subject}, which its route definition does not declare (sends)`;
    undeclaredSends.add(message);
    if (mode === 'refuse') throw new DomainError('INTERNAL_ERROR', message);
    if (reported.has(message)) return;
    reported.add(message);
    report(message);
  };
}

/** Every undeclared call this process has met (refused or reported), once each. */
const undeclaredSends = new Set<string>();

/**
 * The undeclared calls met so far: the test platform fails a test file that met any,
 * since a helper that answers without what a call would have told it (a client's name
 * for a document's title) hides the refusal from the answer.
 */
export function undeclaredSendsMet(): string[] {
  return [...undeclaredSends];
}
