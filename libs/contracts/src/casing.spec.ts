import { readFileSync, readdirSync } from 'node:fs';
import { join, relative } from 'node:path';
import { getMetadataStorage } from 'class-validator';
import ts from 'typescript';
import * as contracts from './index';
import { BOOKING_API_BODIES } from './api-bodies';

const CAMEL_CASE = /^[a-z][a-zA-Z0-9]*$/;

/** A type declared in the contracts' source: the property names it spells, and the contract types it mentions. */
interface Declaration {
  file: string;
  properties: Set<string>;
  references: Set<string>;
}

/** The contracts' source files (not their tests). */
function sourceFiles(dir: string): string[] {
  return readdirSync(dir, { withFileTypes: true }).flatMap((entry) => {
    const path = join(dir, entry.name);
    if (entry.isDirectory()) return sourceFiles(path);
    return entry.name.endsWith('.ts') && !/\.(spec|service-spec|e2e-spec)\.ts$/.test(entry.name) ? [path] : [];
  });
}

/** Every interface, class and type alias of these sources, read with the TypeScript compiler. */
function declarations(files: { file: string; text: string }[]): Map<string, Declaration> {
  const found = new Map<string, Declaration>();
  for (const { file, text } of files) {
    const source = ts.createSourceFile(file, text, ts.ScriptTarget.ES2022, true);
    for (const statement of source.statements) {
      if (!(ts.isInterfaceDeclaration(statement) || ts.isClassDeclaration(statement) || ts.isTypeAliasDeclaration(statement)) || !statement.name) continue;
      const declaration: Declaration = { file, properties: new Set(), references: new Set() };
      const visit = (node: ts.Node): void => {
        // Property names spelled in the declaration, nested object types included (computed keys are not names).
        if ((ts.isPropertySignature(node) || ts.isPropertyDeclaration(node)) && (ts.isIdentifier(node.name) || ts.isStringLiteral(node.name))) {
          declaration.properties.add(node.name.text);
        }
        if (ts.isTypeReferenceNode(node)) declaration.references.add(node.typeName.getText(source));
        if (ts.isExpressionWithTypeArguments(node)) declaration.references.add(node.expression.getText(source));
        // A class's decorators and initialisers are code, not its shape.
        if (ts.isDecorator(node) || (ts.isPropertyDeclaration(node) && node.initializer)) return;
        ts.forEachChild(node, visit);
      };
      ts.forEachChild(statement, visit);
      found.set(statement.name.text, declaration);
    }
  }
  return found;
}

/** The booking API's bodies and every contract type they contain or extend: they keep the API's casing. */
function apiBodyTypes(all: Map<string, Declaration>, bodies: readonly string[]): Set<string> {
  const reached = new Set<string>();
  const pending = [...bodies];
  while (pending.length > 0) {
    const name = pending.pop()!;
    if (reached.has(name) || !all.has(name)) continue;
    reached.add(name);
    pending.push(...all.get(name)!.references);
  }
  return reached;
}

/** `file: Type.property` for each property name that is not camelCase, outside the API bodies. */
function offenders(all: Map<string, Declaration>, apiBodies: Set<string>): string[] {
  return [...all]
    .filter(([name]) => !apiBodies.has(name))
    .flatMap(([name, { file, properties }]) => [...properties].filter((property) => !CAMEL_CASE.test(property)).map((property) => `${file}: ${name}.${property}`));
}

describe('casing of NATS payloads (see BOOKING_API_BODIES)', () => {
  const all = declarations(sourceFiles(__dirname).map((path) => ({ file: relative(__dirname, path), text: readFileSync(path, 'utf8') })));
  const apiBodies = apiBodyTypes(all, Object.keys(BOOKING_API_BODIES));

  it('lists only types the contracts declare', () => {
    expect(Object.keys(BOOKING_API_BODIES).filter((name) => !all.has(name))).toEqual([]);
  });

  it('finds the contracts and follows an API body into the types it contains', () => {
    expect(all.size).toBeGreaterThan(100);
    for (const name of ['HotelRate', 'HotelDetails', 'RoomRequest', 'StayRequest', 'BookRoomGuest', 'PrebookSearch']) expect(apiBodies).toContain(name);
    for (const name of ['CreateBookingRequest', 'SupplierBookRequest', 'StoredPrebook', 'Actor']) expect(apiBodies).not.toContain(name);
  });

  it('every other interface, class and type alias has camelCase property names', () => {
    expect(offenders(all, apiBodies)).toEqual([]);
  });
  it("every other validated class's decorated properties (inherited ones included) are camelCase", () => {
    const storage = getMetadataStorage();
    const classes = Object.values(contracts).filter((value): value is new () => object => typeof value === 'function' && /^class\b/.test(Function.prototype.toString.call(value)));
    const validated = classes.filter((target) => storage.getTargetValidationMetadatas(target, '', false, false).length > 0);
    expect(validated.length).toBeGreaterThan(40);
    const offenders = validated
      .filter((target) => !apiBodies.has(target.name))
      .flatMap((target) =>
        [...new Set(storage.getTargetValidationMetadatas(target, '', false, false).map((metadata) => metadata.propertyName))]
          .filter((property) => !CAMEL_CASE.test(property))
          .map((property) => `${target.name}.${property}`),
      );
    expect(offenders).toEqual([]);
  });

  it('catches a snake_case field around an API body or in an internal type, nested ones included', () => {
    const fixture = declarations([
      {
        file: 'fixture.ts',
        text: `
          export interface Body { check_in: string; room: Room }
          interface Room { room_id: number }
          export class Request { body: Body; test_scenario?: string }
          export type Reply = { booking: { booking_id: number } };`,
      },
    ]);
    expect(offenders(fixture, apiBodyTypes(fixture, ['Body']))).toEqual(['fixture.ts: Request.test_scenario', 'fixture.ts: Reply.booking_id']);
  });
});
