import { ValidateIf, ValidationOptions, registerDecorator } from 'class-validator';
import { parseDay } from '../search/stay';
import { ISO_4217_DECIMALS, isIsoCurrency } from './currencies';

/** An ISO 4217 currency the platform takes (see currencies.ts). */
export function IsIsoCurrency(options?: ValidationOptions) {
  return (target: object, propertyName: string) =>
    registerDecorator({
      name: 'isIsoCurrency',
      target: target.constructor,
      propertyName,
      options: { message: `${propertyName} must be an ISO 4217 currency code in capitals, such as USD, EUR or JPY`, ...options },
      validator: { validate: (value: unknown) => isIsoCurrency(value) },
    });
}

/** The highest FX margin a client can be given, in percent. */
export const MAX_FX_MARGIN_PERCENT = 20;

/** An FX margin in percent as a decimal string: 0 to MAX_FX_MARGIN_PERCENT, at most two decimals ("0", "1.5", "2.25"). */
export function IsFxMarginPercent(options?: ValidationOptions) {
  return (target: object, propertyName: string) =>
    registerDecorator({
      name: 'isFxMarginPercent',
      target: target.constructor,
      propertyName,
      options: { message: `${propertyName} must be a percentage from 0 to ${MAX_FX_MARGIN_PERCENT} with at most two decimals, as a string`, ...options },
      validator: { validate: (value: unknown) => typeof value === 'string' && /^\d{1,2}(\.\d{1,2})?$/.test(value) && Number(value) <= MAX_FX_MARGIN_PERCENT },
    });
}

/** Every ISO 4217 code the platform takes, for documentation. */
export const ISO_CURRENCY_CODES = Object.keys(ISO_4217_DECIMALS);

/**
 * The largest amount a request may carry in any money field (a ledger entry, a credit
 * limit, a user's limit, a promo amount): 999,999,999.99, in the currency's minor unit
 * (JPY 999,999,999). Larger ones answer 400 naming the field.
 */
export const MAX_MONEY_AMOUNT = 999_999_999.99;

/**
 * The largest amount the platform stores (numeric(15,3)): prices it computes, such as
 * a long stay of many rooms priced in rupiah, may exceed what a request may carry.
 * Sums (balances, totals) are unbounded numerics and never limited.
 */
export const MAX_STORED_AMOUNT = 999_999_999_999.999;

const DECIMAL_STRING = /^\d{1,12}(\.\d{1,3})?$/;

/** A non-negative amount with at most three decimals, up to `max`, given as a decimal string. */
export function isDecimalAmountString(value: unknown, max = MAX_MONEY_AMOUNT): value is string {
  return typeof value === 'string' && DECIMAL_STRING.test(value) && Number(value) <= max;
}

/**
 * A non-negative amount with at most three decimals, up to `max`, given as a JSON
 * number: exactly the number its three-decimal form denotes, so 1.0005, 0.1 + 0.2 and
 * 1e-320 (which would be stored as 0) are refused rather than rounded. Whether the
 * amount fits its currency (no decimals in JPY, two in USD) is the service's check,
 * which knows the currency.
 */
export function isAmountNumber(value: unknown, max = MAX_MONEY_AMOUNT): value is number {
  return typeof value === 'number' && Number.isFinite(value) && value >= 0 && value <= max && Number(value.toFixed(3)) === value;
}

/** Accepts an amount as a decimal string or a number, non-negative, three decimals at most, up to `max` (MAX_MONEY_AMOUNT unless given). */
export function IsMoneyAmount(options?: ValidationOptions & { allowNumber?: boolean; allowString?: boolean; max?: number }) {
  const allowNumber = options?.allowNumber ?? true;
  const allowString = options?.allowString ?? true;
  const max = options?.max ?? MAX_MONEY_AMOUNT;
  const { allowNumber: _n, allowString: _s, max: _m, ...validationOptions } = options ?? {};
  return (target: object, propertyName: string) =>
    registerDecorator({
      name: 'isMoneyAmount',
      target: target.constructor,
      propertyName,
      options: {
        message: `${propertyName} must be an amount from 0 to ${max.toLocaleString('en-US')} with at most the decimals of its currency${
          allowString && !allowNumber ? ', given as a string' : ''
        }${allowNumber && !allowString ? ', given as a number' : ''}`,
        ...validationOptions,
      },
      validator: {
        validate: (value: unknown) => (allowNumber && isAmountNumber(value, max)) || (allowString && isDecimalAmountString(value, max)),
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

/** A day `YYYY-MM-DD` that exists in the calendar (isCalendarDay). */
export function IsCalendarDay(options?: ValidationOptions) {
  return (target: object, propertyName: string) =>
    registerDecorator({
      name: 'isCalendarDay',
      target: target.constructor,
      propertyName,
      options: { message: `${propertyName} must be a real date YYYY-MM-DD`, ...options },
      validator: { validate: isCalendarDay },
    });
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

/** An idempotency key (a book's `idempotency_key`, the backend API's `Idempotency-Key` header): 1 to 128 printable ASCII characters. */
export const IDEMPOTENCY_KEY_PATTERN = /^[\x21-\x7e]{1,128}$/;
