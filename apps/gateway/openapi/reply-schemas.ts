import { join } from 'node:path';
import { createGenerator } from 'ts-json-schema-generator';
import { JsonSchema, SCHEMA_REF } from './json-schema';

const ROOT = join(__dirname, '..', '..', '..');

/** `#/definitions/X` (the generator's) as the document's `#/components/schemas/X`. */
function rebase(schema: unknown): unknown {
  if (Array.isArray(schema)) return schema.map(rebase);
  if (schema === null || typeof schema !== 'object') return schema;
  return Object.fromEntries(
    Object.entries(schema).map(([key, value]) =>
      key === '$ref' && typeof value === 'string' ? [key, value.replace('#/definitions/', SCHEMA_REF)] : [key, rebase(value)],
    ),
  );
}

/**
 * The schemas of the named reply types (exported by reply-types.ts) and of every
 * named type they use, from the TypeScript sources: objects list their fields, no
 * other (`additionalProperties: false`), optional fields are not required, and
 * `T | null` is nullable, so a reply that drifts from its type fails the contract test.
 */
export function replySchemas(typeNames: readonly string[]): Record<string, JsonSchema> {
  const generator = createGenerator({
    path: join(__dirname, 'reply-types.ts'),
    tsconfig: join(ROOT, 'tsconfig.json'),
    skipTypeCheck: true,
    expose: 'export',
    jsDoc: 'extended',
    topRef: false,
    additionalProperties: false,
    sortProps: false,
  });
  const schemas: Record<string, JsonSchema> = {};
  for (const name of typeNames) {
    const { definitions, $schema: _dialect, ...schema } = generator.createSchema(name) as JsonSchema & { definitions?: Record<string, JsonSchema> };
    Object.assign(schemas, definitions, { [name]: schema });
  }
  return rebase(schemas) as Record<string, JsonSchema>;
}
