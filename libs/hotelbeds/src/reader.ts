// Readers turn a parsed JSON value of unknown shape into a typed value, or throw a
// ShapeError naming the first path that does not fit. `record` requires a reader for every
// property of its type, so a wire type and its reader cannot drift apart unnoticed.

/** An answer that does not have the documented shape. */
export class ShapeError extends Error {
  override readonly name = 'ShapeError';
  constructor(
    readonly path: string,
    expected: string,
  ) {
    super(`${path || 'answer'}: expected ${expected}`);
  }
}

export type Reader<T> = (value: unknown, path: string) => T;

/** A reader that also accepts an absent (or null) value, as undefined. */
export type OptionalReader<T> = Reader<T | undefined> & { readonly optional: true };

export function optional<T>(reader: Reader<T>): OptionalReader<T> {
  const read = (value: unknown, path: string) => (value === undefined || value === null ? undefined : reader(value, path));
  return Object.assign(read, { optional: true as const });
}

// `{} extends Pick<T, K>`: K is optional in T.
// eslint-disable-next-line @typescript-eslint/no-empty-object-type
type Fields<T> = { [K in keyof T]-?: {} extends Pick<T, K> ? OptionalReader<NonNullable<T[K]>> : Reader<T[K]> };

/** An object with these properties; others are dropped, absent optional ones left out. */
export function record<T>(fields: Fields<T>): Reader<T> {
  return (value, path) => {
    if (typeof value !== 'object' || value === null || Array.isArray(value)) throw new ShapeError(path, 'an object');
    const source = value as Record<string, unknown>;
    const out: Record<string, unknown> = {};
    for (const key of Object.keys(fields) as (keyof T & string)[]) {
      const read = fields[key] as Reader<unknown>;
      const result = read(source[key], path ? `${path}.${key}` : key);
      if (result !== undefined) out[key] = result;
    }
    return out as T;
  };
}

export function list<T>(item: Reader<T>): Reader<T[]> {
  return (value, path) => {
    if (!Array.isArray(value)) throw new ShapeError(path, 'an array');
    return value.map((element, index) => item(element, `${path}[${index}]`));
  };
}

export const text: Reader<string> = (value, path) => {
  if (typeof value !== 'string') throw new ShapeError(path, 'a string');
  return value;
};

export const flag: Reader<boolean> = (value, path) => {
  if (typeof value !== 'boolean') throw new ShapeError(path, 'a boolean');
  return value;
};

/** A whole number, written as a JSON number or (as the vendor sometimes does) a numeric string. */
export const integer: Reader<number> = (value, path) => {
  const number = typeof value === 'string' && /^-?\d{1,15}$/.test(value) ? Number(value) : value;
  if (typeof number !== 'number' || !Number.isSafeInteger(number)) throw new ShapeError(path, 'an integer');
  return number;
};

const DECIMAL = /^-?\d{1,15}(\.\d{1,20})?$/;

/**
 * An amount or coordinate as a decimal string. A JSON number is taken by its shortest
 * round-trip spelling (899.23 reads "899.23"), which is the text the vendor wrote for any
 * amount a double can hold to the cent.
 */
export const decimal: Reader<string> = (value, path) => {
  const spelled = typeof value === 'number' && Number.isFinite(value) ? String(value) : value;
  if (typeof spelled !== 'string' || !DECIMAL.test(spelled)) throw new ShapeError(path, 'a decimal');
  return spelled;
};

export function oneOf<const T extends string>(values: readonly T[]): Reader<T> {
  return (value, path) => {
    if (typeof value !== 'string' || !(values as readonly string[]).includes(value)) throw new ShapeError(path, `one of ${values.join(', ')}`);
    return value as T;
  };
}

/** Diagnostic text of any scalar (or list of them) the vendor writes there. */
export const looseText: Reader<string> = (value, path) => {
  if (typeof value === 'string') return value;
  if (typeof value === 'number' || typeof value === 'boolean') return String(value);
  if (Array.isArray(value) && value.every((item) => typeof item === 'string' || typeof item === 'number')) return value.join(', ');
  throw new ShapeError(path, 'text');
};
