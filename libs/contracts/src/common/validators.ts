import { ValidateIf, ValidationOptions, registerDecorator } from 'class-validator';
import { parseDay } from '../search/stay';

const DECIMAL_STRING = /^\d{1,12}(\.\d{1,2})?$/;

/** Largest money amount the platform stores: numeric(14,2). */
export const MAX_MONEY_AMOUNT = 999_999_999_999.99;

/** A non-negative amount with at most two decimals, given as a decimal string. */
export function isDecimalAmountString(value: unknown): value is string {
  return typeof value === 'string' && DECIMAL_STRING.test(value);
}

/**
 * A non-negative amount with at most two decimals, given as a JSON number: exactly
 * the number its two-decimal form denotes, so 1.005, 0.1 + 0.2 and 1e-320 (which
 * would be stored as 0.00) are refused rather than rounded.
 */
export function isAmountNumber(value: unknown): value is number {
  return (
    typeof value === 'number' &&
    Number.isFinite(value) &&
    value >= 0 &&
    value <= MAX_MONEY_AMOUNT &&
    Number(value.toFixed(2)) === value
  );
}

/** Accepts an amount as a decimal string or a number, non-negative, two decimals at most. */
export function IsMoneyAmount(options?: ValidationOptions & { allowNumber?: boolean; allowString?: boolean }) {
  const allowNumber = options?.allowNumber ?? true;
  const allowString = options?.allowString ?? true;
  return (target: object, propertyName: string) =>
    registerDecorator({
      name: 'isMoneyAmount',
      target: target.constructor,
      propertyName,
      options: {
        message: `${propertyName} must be an amount of at least 0 with at most two decimals${
          allowString && !allowNumber ? ', given as a string' : ''
        }${allowNumber && !allowString ? ', given as a number' : ''}`,
        ...options,
      },
      validator: {
        validate: (value: unknown) =>
          (allowNumber && isAmountNumber(value)) || (allowString && isDecimalAmountString(value)),
      },
    });
}

/**
 * A field that may be left out, but that, when given, must be valid: unlike
 * IsOptional, null is validated (and refused) rather than let through, for fields
 * that cannot be set to nothing.
 */
export function IsOmittable(options?: ValidationOptions) {
  return ValidateIf((_object: unknown, value: unknown) => value !== undefined, options);
}

/** A string with at least one non-blank character. */
export function IsNonBlankString(options?: ValidationOptions) {
  return (target: object, propertyName: string) =>
    registerDecorator({
      name: 'isNonBlankString',
      target: target.constructor,
      propertyName,
      options: { message: `${propertyName} must be a non-empty string`, ...options },
      validator: { validate: (value: unknown) => typeof value === 'string' && value.trim().length > 0 },
    });
}

/** Normalises an amount given as number or string to the canonical decimal string. */
export function toDecimalString(value: number | string): string {
  return typeof value === 'number' ? value.toFixed(2) : value;
}

/** Largest id PostgreSQL's `integer` holds. */
export const MAX_INT_ID = 2_147_483_647;

/** A positive integer id given as a string, as path parameters arrive. */
export function IsIdString(options?: ValidationOptions) {
  return (target: object, propertyName: string) =>
    registerDecorator({
      name: 'isIdString',
      target: target.constructor,
      propertyName,
      options: { message: `${propertyName} must be a positive integer`, ...options },
      validator: {
        validate: (value: unknown) => typeof value === 'string' && /^[1-9]\d{0,9}$/.test(value) && Number(value) <= MAX_INT_ID,
      },
    });
}

/**
 * A day `YYYY-MM-DD` that exists in the calendar, in the years 1 to 9999 (PostgreSQL's
 * `date` has no year 0): 2026-02-30 and 2026-13-01 are refused.
 */
export function isCalendarDay(value: unknown): value is string {
  return typeof value === 'string' && !value.startsWith('0000') && parseDay(value) !== null;
}

/** A day filter of a list: `YYYY-MM-DD`, or a range `YYYY-MM-DD..YYYY-MM-DD`, of real days. */
export function IsDayOrRange(options?: ValidationOptions) {
  return (target: object, propertyName: string) =>
    registerDecorator({
      name: 'isDayOrRange',
      target: target.constructor,
      propertyName,
      options: { message: `${propertyName} must be a real date YYYY-MM-DD or a range YYYY-MM-DD..YYYY-MM-DD`, ...options },
      validator: {
        validate: (value: unknown) => {
          if (typeof value !== 'string') return false;
          const days = value.split('..');
          return days.length <= 2 && days.every(isCalendarDay);
        },
      },
    });
}

const LONE_SURROGATE = /[\uD800-\uDBFF](?![\uDC00-\uDFFF])|(?<![\uD800-\uDBFF])[\uDC00-\uDFFF]/;

/**
 * Why a string may not enter the platform, or null when it may: a NUL character
 * (PostgreSQL's text cannot hold it, C-based tools cut at it) or a lone UTF-16
 * surrogate (not a character; it cannot be encoded as UTF-8 and would be
 * replaced silently on the way to the database).
 */
export function unsafeStringReason(value: string): string | null {
  if (value.includes('\u0000')) return 'must not contain NUL characters';
  if (LONE_SURROGATE.test(value)) return 'must not contain unpaired UTF-16 surrogates';
  return null;
}
