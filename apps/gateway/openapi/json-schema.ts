/** A JSON Schema (2020-12, as OpenAPI 3.1 takes it) or a part of one. */
export type JsonSchema = Record<string, unknown>;

/** Where the document keeps its named schemas. */
export const SCHEMA_REF = '#/components/schemas/';

export const ref = (name: string): JsonSchema => ({ $ref: `${SCHEMA_REF}${name}` });
