import { ValidationOptions, registerDecorator } from 'class-validator';

const DECIMAL_STRING = /^\d{1,12}(\.\d{1,2})?$/;

/** Largest money amount the platform stores: numeric(14,2). */
export const MAX_MONEY_AMOUNT = 999_999_999_999.99;

/** A non-negative amount with at most two decimals, given as a decimal string. */
export function isDecimalAmountString(value: unknown): value is string {
  return typeof value === 'string' && DECIMAL_STRING.test(value);
}

/** A non-negative amount with at most two decimals, given as a JSON number. */
export function isAmountNumber(value: unknown): value is number {
  return (
    typeof value === 'number' &&
    Number.isFinite(value) &&
    value >= 0 &&
    value <= MAX_MONEY_AMOUNT &&
    Math.abs(Math.round(value * 100) - value * 100) < 1e-6
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
