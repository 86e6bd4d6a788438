import { ValueTransformer } from 'typeorm';
import { milliToDecimal, toMilliBig } from '@hotel/contracts';

/**
 * How a money column reads back: PostgreSQL writes a numeric with its column's scale
 * ("328.600" in numeric(15,3)); entities see the canonical decimal string with two
 * decimals at least ("328.60", "12.345"), exactly, whatever the column's scale and size.
 */
export const AMOUNT_COLUMN: ValueTransformer = {
  from: (value: string | null) => (value === null || value === undefined ? value : milliToDecimal(toMilliBig(value))),
  to: (value: unknown) => value,
};

/** A numeric that is not money (an exchange rate, a percentage): read back without trailing zeros ("1.097500" is "1.0975", "0.00" is "0"). */
export const DECIMAL_COLUMN: ValueTransformer = {
  from: (value: string | null) => (value === null || value === undefined ? value : value.includes('.') ? value.replace(/\.?0+$/, '') : value),
  to: (value: unknown) => value,
};
