import { readFileSync, readdirSync } from 'node:fs';
import { join, resolve } from 'node:path';
import { ArgumentMetadata } from '@nestjs/common';
import { BUS_IDENTITIES, HEALTH_SUBJECT_BY_SERVICE, OPERATIONS, Operation, OperationKey, SERVICE_NAMES, busPermissions, ownerOf } from '@hotel/contracts';
import { DomainError, createValidationPipe, handledOperation } from '@hotel/platform';

// The provider side of every operation of OPERATIONS, derived from its definition: one
// handler, in the service that owns the subject, validating what it receives with the
// operation's request class; and the broker letting exactly its callers send it.

const ROOT = resolve(__dirname, '..');

function controllerFiles(directory: string): string[] {
  return readdirSync(join(ROOT, directory), { withFileTypes: true }).flatMap((entry) => {
    const path = `${directory}/${entry.name}`;
    if (entry.isDirectory()) return controllerFiles(path);
    return entry.name.endsWith('.controller.ts') ? [path] : [];
  });
}

interface Handler {
  operation: Operation;
  file: string;
  controller: string;
  method: string;
  paramTypes: unknown[];
}

/** Every `@Handles` method of every service's controllers. */
function handlers(): Handler[] {
  const found: Handler[] = [];
  for (const service of SERVICE_NAMES) {
    for (const file of controllerFiles(`apps/${service}/src`)) {
      // eslint-disable-next-line @typescript-eslint/no-require-imports -- the controllers found on disk, to read their metadata
      const exports = require(join(ROOT, file)) as Record<string, unknown>;
      for (const exported of Object.values(exports)) {
        if (typeof exported !== 'function') continue;
        const prototype = exported.prototype as object;
        for (const method of Object.getOwnPropertyNames(prototype)) {
          const operation = handledOperation(prototype, method);
          if (operation) found.push({ operation, file, controller: exported.name, method, paramTypes: Reflect.getMetadata('design:paramtypes', prototype, method) ?? [] });
        }
      }
    }
  }
  return found;
}

/** The TypeScript of every app and library, tests aside (the contracts, which declare the operations, too). */
function sources(directory: string): { file: string; text: string }[] {
  return readdirSync(join(ROOT, directory), { withFileTypes: true }).flatMap((entry) => {
    const path = `${directory}/${entry.name}`;
    if (entry.isDirectory()) return sources(path);
    return /(?<!\.(spec|service-spec|e2e-spec))\.ts$/.test(entry.name) ? [{ file: path, text: readFileSync(join(ROOT, path), 'utf8') }] : [];
  });
}

const ALL = handlers();
const KEYS = Object.keys(OPERATIONS) as OperationKey[];
const HEALTH_SUBJECTS = new Set<string>(Object.values(HEALTH_SUBJECT_BY_SERVICE));
/** Answered by every service's platform module (ServicePlatformModule), not a controller of its own. */
const isHealthCheck = (key: OperationKey) => HEALTH_SUBJECTS.has(OPERATIONS[key].subject);

describe('operations', () => {
  it('each has a subject <service>.<entity>.<action>.v<n> of its own, owned by a service', () => {
    const subjects = KEYS.map((key) => OPERATIONS[key].subject);
    expect(new Set(subjects).size).toBe(subjects.length);
    for (const subject of subjects) expect(subject).toMatch(/^[a-z]+\.[a-z0-9-]+\.[a-z0-9-]+\.v[1-9][0-9]*$/);
    for (const key of KEYS) expect(SERVICE_NAMES).toContain(ownerOf(OPERATIONS[key]));
  });

  it('the broker lets exactly the declared callers send each', () => {
    for (const identity of BUS_IDENTITIES) {
      const publish = new Set(busPermissions(identity).publish);
      for (const key of KEYS) {
        const { subject, callers } = OPERATIONS[key];
        expect(`${identity} ${subject}: ${publish.has(subject)}`).toBe(`${identity} ${subject}: ${callers.includes(identity)}`);
      }
    }
    for (const key of KEYS) expect(OPERATIONS[key].callers.length).toBeGreaterThan(0);
  });

  it('each but the health checks has exactly one handler, in the service that owns it', () => {
    const where = (key: OperationKey) => ALL.filter((handler) => handler.operation === OPERATIONS[key]).map((handler) => handler.file.split('/')[1]);
    const expected = Object.fromEntries(KEYS.map((key) => [key, isHealthCheck(key) ? [] : [ownerOf(OPERATIONS[key])]]));
    expect(Object.fromEntries(KEYS.map((key) => [key, where(key)]))).toEqual(expected);
    // No handler of an operation that is not declared.
    expect(ALL.filter((handler) => !KEYS.some((key) => OPERATIONS[key] === handler.operation))).toEqual([]);
  });

  it("each handler's payload is validated with its operation's request class", () => {
    expect(ALL.length).toBeGreaterThan(70);
    for (const handler of ALL) expect(`${handler.controller}.${handler.method}: ${(handler.paramTypes[0] as { name?: string })?.name}`).toBe(`${handler.controller}.${handler.method}: ${handler.operation.request.name}`);
  });

  /** Operations served for the previous release that break the rule: each needs one current successor, and nothing of this release may send it. */
  function previousReleaseViolations(operations: Record<string, { subject: string; servedForPreviousRelease?: true }>, code: { file: string; text: string }[]): string[] {
    const versionOf = (subject: string) => Number(/\.v(\d+)$/.exec(subject)![1]);
    const stemOf = (subject: string) => subject.replace(/\.v\d+$/, '');
    const keys = Object.keys(operations);
    return keys
      .filter((key) => operations[key].servedForPreviousRelease)
      .flatMap((key) => {
        const { subject } = operations[key];
        const successors = keys.filter((other) => !operations[other].servedForPreviousRelease && stemOf(operations[other].subject) === stemOf(subject) && versionOf(operations[other].subject) > versionOf(subject));
        const sentBy = code.filter(({ text }) => new RegExp(`SUBJECTS\\.${key}\\b`).test(text)).map(({ file }) => file);
        return [...(successors.length === 1 ? [] : [`${key}: ${successors.length} successors`]), ...(sentBy.length ? [`${key} sent by ${sentBy.join(', ')}`] : [])];
      });
  }

  it('one served for the previous release has a current successor, and no app or library of this release sends it', () => {
    expect(previousReleaseViolations(OPERATIONS, [...sources('apps'), ...sources('libs')])).toEqual([]);
    // The rule itself, on a release that still serves x.y.v1 beside x.y.v2 (none is served now: release-2026.11.28's were removed after it).
    const fixture = {
      X_Y: { subject: 'x.y.v2' },
      X_Y_V1: { subject: 'x.y.v1', servedForPreviousRelease: true as const },
      // No successor: only a higher version that is itself served for the previous release.
      Z_V1: { subject: 'z.w.v1', servedForPreviousRelease: true as const },
      Z_V2: { subject: 'z.w.v2', servedForPreviousRelease: true as const },
      // Two successors.
      Q_V1: { subject: 'q.r.v1', servedForPreviousRelease: true as const },
      Q_V2: { subject: 'q.r.v2' },
      Q_V3: { subject: 'q.r.v3' },
    };
    expect(previousReleaseViolations(fixture, [])).toEqual(['Z_V1: 0 successors', 'Z_V2: 0 successors', 'Q_V1: 2 successors']);
    // A sender is found by the whole key (SUBJECTS.X_Y_V10 is another).
    const sent = previousReleaseViolations(fixture, [{ file: 'apps/a.ts', text: 'send(SUBJECTS.X_Y_V1, {})' }, { file: 'apps/b.ts', text: 'send(SUBJECTS.X_Y_V10, {})' }]);
    expect(sent).toEqual(['X_Y_V1 sent by apps/a.ts', 'Z_V1: 0 successors', 'Z_V2: 0 successors', 'Q_V1: 2 successors']);
  });

  describe('refuse a payload with a field their request class does not declare', () => {
    const pipe = createValidationPipe();
    it.each(KEYS)('%s', async (key) => {
      const metadata: ArgumentMetadata = { type: 'body', metatype: OPERATIONS[key].request };
      const refusal = await pipe.transform({ smuggled: 'x' }, metadata).then(
        () => null,
        (error: unknown) => error,
      );
      expect(refusal).toBeInstanceOf(DomainError);
      expect((refusal as DomainError).code).toBe('VALIDATION_FAILED');
      expect(JSON.stringify((refusal as DomainError).errors)).toContain('smuggled');
    });
  });
});

