import { Type } from '@nestjs/common';
import { defaultMetadataStorage } from 'class-transformer/cjs/storage';
import { ValidationTypes, getMetadataStorage } from 'class-validator';
import { ValidationMetadata } from 'class-validator/types/metadata/ValidationMetadata';
import { targetConstructorToSchema } from 'class-validator-jsonschema';
import { MAX_INT_ID, MAX_MONEY_AMOUNT, STAY_LIMITS } from '@hotel/contracts';
import { JsonSchema, SCHEMA_REF } from './json-schema';

const DAY = '^\\d{4}-\\d{2}-\\d{2}$';

/** The validation message of a custom decorator, as the field's description (`$property` filled in). */
function describedBy(meta: ValidationMetadata): JsonSchema {
  return typeof meta.message === 'string' ? { description: meta.message.replace(/\$property/g, meta.propertyName) } : {};
}

/** An amount as a number, a decimal string, or either: the property's declared type says which (`string | number` is Object). */
function moneyAmount(meta: ValidationMetadata): JsonSchema {
  const rule = `from 0 to ${MAX_MONEY_AMOUNT.toLocaleString('en-US')}, with at most the decimals of the account currency (none in JPY, two in USD, three in KWD)`;
  const number: JsonSchema = { type: 'number', minimum: 0, maximum: MAX_MONEY_AMOUNT, description: `an amount ${rule}` };
  const string: JsonSchema = { type: 'string', pattern: '^\\d{1,9}(\\.\\d{1,3})?$', description: `a decimal amount ${rule}` };
  const declared = Reflect.getMetadata('design:type', (meta.target as Type).prototype, meta.propertyName) as unknown;
  if (declared === Number) return number;
  if (declared === String) return string;
  return { oneOf: [number, string], description: `an amount ${rule}, as a number or a decimal string` };
}

/**
 * JSON Schema for the project's own class-validator decorators (registered by
 * name), where the library can only see the property's declared type.
 */
const CUSTOM_CONVERTERS: Record<string, (meta: ValidationMetadata) => JsonSchema> = {
  isIdString: () => ({ type: 'integer', minimum: 1, maximum: MAX_INT_ID }),
  isMoneyAmount: moneyAmount,
  isNonBlankString: () => ({ type: 'string', minLength: 1, pattern: '\\S' }),
  isCheckInDay: (meta) => ({ type: 'string', format: 'date', pattern: DAY, ...describedBy(meta) }),
  isCheckOutDay: (meta) => ({ type: 'string', format: 'date', pattern: DAY, ...describedBy(meta) }),
  isDayOrRange: (meta) => ({ type: 'string', pattern: '^\\d{4}-\\d{2}-\\d{2}(\\.\\.\\d{4}-\\d{2}-\\d{2})?$', ...describedBy(meta) }),
  childAgesMatchChildren: (meta) => ({ type: 'array', maxItems: STAY_LIMITS.maxChildren, ...describedBy(meta) }),
  priceRange: (meta) => ({
    type: 'array',
    prefixItems: [
      { type: 'number', minimum: 0, maximum: MAX_MONEY_AMOUNT },
      { type: 'number', minimum: 0, maximum: MAX_MONEY_AMOUNT },
    ],
    items: false,
    minItems: 2,
    maxItems: 2,
    ...describedBy(meta),
  }),
  // Rules across fields: said by the class's refinement below.
  aloneInPoll: () => ({}),
  exactlyOneLocation: () => ({}),
};

const OPTIONS = {
  classTransformerMetadataStorage: defaultMetadataStorage,
  refPointerPrefix: SCHEMA_REF,
  additionalConverters: {
    ...Object.fromEntries(
      Object.entries(CUSTOM_CONVERTERS).map(([name, convert]) => [name, (meta: ValidationMetadata) => convert(meta) as never]),
    ),
    // Presence is said by `required`; the library's `not: {type: null}` adds nothing a reader needs.
    [ValidationTypes.IS_DEFINED]: {},
  },
};

const LOCATIONS = ['destination_id', 'place_id', 'coordinates', 'hotel_ids'];

/** What a class's decorators cannot say on one property: rules across its fields. */
const REFINEMENTS: Record<string, (schema: JsonSchema) => JsonSchema> = {
  SearchBody: (schema) => ({
    ...schema,
    description: 'A new search (a place, dates and rooms), or `{"session_id"}` alone to poll one (as `GET /search/{session_id}` does).',
    oneOf: [
      { title: 'poll', required: ['session_id'], maxProperties: 1 },
      {
        title: 'new search',
        required: ['check_in', 'check_out', 'rooms'],
        properties: { session_id: { not: {} } },
        anyOf: [{ required: ['place_id'] }, { required: ['destination_id'] }],
      },
    ],
  }),
  V2RatesBody: ({ properties, required, ...schema }) => {
    const { location: _phantom, ...fields } = properties as Record<string, JsonSchema>;
    return {
      ...schema,
      properties: fields,
      required: (required as string[]).filter((name) => name !== 'location'),
      description: `Exactly one location: ${LOCATIONS.join(', ')}.`,
      oneOf: LOCATIONS.map((name) => ({ required: [name] })),
    };
  },
};

function nestedClasses(target: Type): Type[] {
  const names = new Set(getMetadataStorage().getTargetValidationMetadatas(target, '', true, false).map((meta) => meta.propertyName));
  return [...names].flatMap((name) => {
    const nested = defaultMetadataStorage.findTypeMetadata(target, name)?.typeFunction() as Type | undefined;
    return nested ? [nested] : [];
  });
}

/** One bound where two decorators give two (`@IsPositive` with `@Min(0)`), and `minimum: 1` for a positive integer. */
function tidy(schema: JsonSchema): JsonSchema {
  const { minimum, exclusiveMinimum, ...rest } = schema;
  const items = rest.items && typeof rest.items === 'object' ? { items: tidy(rest.items as JsonSchema) } : {};
  if (typeof exclusiveMinimum !== 'number') return { ...schema, ...items };
  if (typeof minimum === 'number' && minimum > exclusiveMinimum) return { ...rest, minimum, ...items };
  if (rest.type === 'integer' && Number.isInteger(exclusiveMinimum)) return { ...rest, minimum: exclusiveMinimum + 1, ...items };
  return { ...rest, exclusiveMinimum, ...items };
}

/** A class's schema: every field its validators name, no other (the gateway forbids unknown fields). */
export function classSchema(target: Type): JsonSchema {
  const raw = targetConstructorToSchema(target, OPTIONS) as JsonSchema;
  const properties = Object.fromEntries(Object.entries(raw.properties as Record<string, JsonSchema>).map(([name, property]) => [name, tidy(property)]));
  const schema = { ...raw, properties, additionalProperties: false };
  return REFINEMENTS[target.name]?.(schema) ?? schema;
}

/** The schemas of body classes and of every class nested in them, by class name. */
export function bodySchemas(bodies: Type[]): Record<string, JsonSchema> {
  const schemas: Record<string, JsonSchema> = {};
  const seen = new Map<string, Type>();
  const pending = [...bodies];
  for (let target = pending.shift(); target; target = pending.shift()) {
    if (seen.get(target.name) === target) continue;
    if (seen.has(target.name)) throw new Error(`two request classes are named ${target.name}: rename one, the document names schemas by class`);
    seen.set(target.name, target);
    schemas[target.name] = classSchema(target);
    pending.push(...nestedClasses(target));
  }
  return schemas;
}
