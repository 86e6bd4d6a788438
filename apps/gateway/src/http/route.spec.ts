import { Controller, Header, RequestMethod } from '@nestjs/common';
import { HEADERS_METADATA, HTTP_CODE_METADATA, METHOD_METADATA, PATH_METADATA } from '@nestjs/common/constants';
import { HEALTH_SUBJECT_BY_SERVICE, OPERATIONS, SUBJECTS } from '@hotel/contracts';
import { DomainError } from '@hotel/platform';
import { API_FAMILY, BackendApi } from '../auth/api-family';
import { Route, undeclaredSendCheck, undeclaredSendsMet } from './route';
import { ROUTES, RouteDefinition } from './route-definitions';

/** What a handler of a probe controller saw: the check's verdict on a subject, after an await (the context must survive it). */
let check: (subject: string) => void = () => undefined;

@Controller()
class ProbeController {
  @Route('POST /book/cancel/{booking_id}')
  @Header('x-probe', 'kept')
  async cancel(subject: string): Promise<string> {
    await new Promise((resolve) => setTimeout(resolve, 1));
    check(subject);
    return 'sent';
  }

  @Route('POST /api/user')
  create(): string {
    return 'created';
  }

  @Route('GET /api/user/{id}')
  @BackendApi()
  get(): string {
    return 'got';
  }
}

@BackendApi()
class BackendProbe {}

const handler = (name: keyof ProbeController) => ProbeController.prototype[name] as (...args: unknown[]) => unknown;

describe('@Route', () => {
  it('maps the handler to its definition\'s method, path and status, and keeps what the decorators below it set', () => {
    expect(Reflect.getMetadata(PATH_METADATA, handler('cancel'))).toBe('/book/cancel/:booking_id');
    expect(Reflect.getMetadata(METHOD_METADATA, handler('cancel'))).toBe(RequestMethod.POST);
    // The definition says 200 for a cancellation; a POST without one is 201, anything else 200.
    expect(Reflect.getMetadata(HTTP_CODE_METADATA, handler('cancel'))).toBe(200);
    expect(Reflect.getMetadata(HTTP_CODE_METADATA, handler('create'))).toBe(201);
    expect(Reflect.getMetadata(HTTP_CODE_METADATA, handler('get'))).toBe(200);
    expect(Reflect.getMetadata(METHOD_METADATA, handler('get'))).toBe(RequestMethod.GET);
    expect(Reflect.getMetadata(HEADERS_METADATA, handler('cancel'))).toEqual([{ name: 'x-probe', value: 'kept' }]);
    expect(handler('cancel').name).toBe('cancel');
    // The credential a route takes (its API family), set below @Route on the method.
    expect(Reflect.getMetadata(API_FAMILY, handler('get'))).toBe(Reflect.getMetadata(API_FAMILY, BackendProbe));
  });

  it('runs the handler with its route in context: a declared call passes, another is refused, after an await too', async () => {
    check = undeclaredSendCheck('refuse', () => undefined);
    const probe = new ProbeController();
    await expect(probe.cancel(SUBJECTS.BOOKING_BOOKING_CANCEL)).resolves.toBe('sent');
    const refused = await probe.cancel(SUBJECTS.BOOKING_BOOKING_CREATE).catch((error: unknown) => error);
    expect(refused).toBeInstanceOf(DomainError);
    expect(refused).toMatchObject({
      code: 'INTERNAL_ERROR',
      message: `POST /book/cancel/{booking_id} sent ${SUBJECTS.BOOKING_BOOKING_CREATE}, which its route definition does not declare (sends)`,
    });
    // Outside a route (the credential check, a background refresh) nothing is checked.
    expect(() => check(SUBJECTS.BOOKING_BOOKING_CREATE)).not.toThrow();
    // And what was refused is kept, for the test platform to fail the file on.
    expect(undeclaredSendsMet()).toContain(`POST /book/cancel/{booking_id} sent ${SUBJECTS.BOOKING_BOOKING_CREATE}, which its route definition does not declare (sends)`);
  });

  it('in production reports an undeclared call once per route and subject, and lets it through', async () => {
    const reports: string[] = [];
    check = undeclaredSendCheck('report', (message) => reports.push(message));
    const probe = new ProbeController();
    await probe.cancel(SUBJECTS.BOOKING_BOOKING_CREATE);
    await probe.cancel(SUBJECTS.BOOKING_BOOKING_CREATE);
    await probe.cancel(SUBJECTS.BOOKING_BOOKING_LIST);
    await probe.cancel(SUBJECTS.BOOKING_BOOKING_CANCEL);
    expect(reports).toEqual([
      `POST /book/cancel/{booking_id} sent ${SUBJECTS.BOOKING_BOOKING_CREATE}, which its route definition does not declare (sends)`,
      `POST /book/cancel/{booking_id} sent ${SUBJECTS.BOOKING_BOOKING_LIST}, which its route definition does not declare (sends)`,
    ]);
  });
});

describe('route definitions', () => {
  const definitions = Object.entries(ROUTES as Record<string, RouteDefinition>);
  const busOperations = new Set(Object.values(OPERATIONS));

  it('declare only bus operations the gateway may send, each once', () => {
    for (const [key, definition] of definitions) {
      for (const operation of definition.sends) {
        expect({ key, operation: operation.subject, known: busOperations.has(operation as never), gatewayMaySend: operation.callers.includes('gateway') }).toEqual({
          key,
          operation: operation.subject,
          known: true,
          gatewayMaySend: true,
        });
      }
      expect(new Set(definition.sends).size).toBe(definition.sends.length);
    }
  });

  it('have a key of an HTTP method and a path template, and a status among their replies', () => {
    for (const [key, definition] of definitions) {
      expect(key).toMatch(/^(GET|POST|PUT|DELETE) \/[A-Za-z0-9_.{}/-]*$/);
      const status = definition.status ?? (key.startsWith('POST ') ? 201 : 200);
      expect({ key, status, declared: Object.keys(definition.replies).map(Number).includes(status) }).toEqual({ key, status, declared: true });
    }
  });
});

describe("the gateway's bus permissions", () => {
  it('are the routes\' calls, its own (the credential check before a route, the readiness probe) and the previous release\'s operations', () => {
    const routeCalls = Object.values(ROUTES as Record<string, RouteDefinition>).flatMap((definition) => definition.sends);
    const ownCalls = [OPERATIONS.USERS_CREDENTIAL_RESOLVE, ...Object.values(OPERATIONS).filter((operation) => Object.values(HEALTH_SUBJECT_BY_SERVICE).includes(operation.subject as never))];
    const previousRelease = Object.values(OPERATIONS).filter((operation) => operation.servedForPreviousRelease && (operation.callers as readonly string[]).includes('gateway'));
    const derived = new Set([...routeCalls, ...ownCalls, ...previousRelease].map((operation) => operation.subject));
    const declared = Object.values(OPERATIONS)
      .filter((operation) => (operation.callers as readonly string[]).includes('gateway'))
      .map((operation) => operation.subject);
    expect(declared.sort()).toEqual([...derived].sort());
  });
});
