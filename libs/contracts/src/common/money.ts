/**
 * Exact money in code. Amounts travel as decimal strings or JSON numbers and are
 * computed on as integers of thousandths ("milli"), never as floats: every
 * currency the platform takes has at most three decimals (JPY none, USD two, KWD
 * three; see currencies.ts), so a thousandth is exact for all of them. A
 * currency's own rounding happens where an amount is made (a conversion, a
 * percentage), with roundToCurrency.
 */
const MILLI_PER_UNIT = 1000;

const DECIMAL = /^(-)?(\d+)(?:\.(\d{1,3}))?$/;
/** A non-negative amount of at most 15 digits (12 before the point, 3 after). */
const SHORT_DECIMAL = /^\d{1,12}(?:\.\d{1,3})?$/;

/** An amount ("12.5", "12.345", 12.5) as integer thousandths; more than three decimals, or beyond a safe integer, throws. */
export function toMilli(amount: string | number): number {
  if (typeof amount === 'number') {
    // The common case without text: exact when the thousandths divide back to the very number.
    const milli = Math.round(amount * MILLI_PER_UNIT);
    if (Number.isSafeInteger(milli) && milli / MILLI_PER_UNIT === amount) return milli === 0 ? 0 : milli;
  }
  // A number finer than a thousandth (1.0005) is refused, not rounded.
  if (typeof amount === 'number' && Number(amount.toFixed(3)) !== amount) throw new Error(`not an amount of at most three decimals: ${amount}`);
  const text = typeof amount === 'number' ? amount.toFixed(3) : amount.trim();
  const match = DECIMAL.exec(text);
  if (!match) throw new Error(`not an amount: ${amount}`);
  const milli = Number(match[2]) * MILLI_PER_UNIT + Number((match[3] ?? '').padEnd(3, '0'));
  if (!Number.isSafeInteger(milli)) throw new Error(`amount out of range: ${amount}`);
  return match[1] ? -milli : milli;
}

/** The same as a bigint, for sums that may outgrow a safe integer (a ledger's totals over any number of entries). */
export function toMilliBig(amount: string): bigint {
  const match = DECIMAL.exec(amount.trim());
  if (!match) throw new Error(`not an amount: ${amount}`);
  const milli = BigInt(match[2]) * 1000n + BigInt((match[3] ?? '').padEnd(3, '0'));
  return match[1] ? -milli : milli;
}

/**
 * Thousandths as a decimal string with `decimals` decimals (2 by default; a
 * currency's own with currencyDecimals): "1234.50", "1235" for JPY, "1.234" for
 * KWD. Exact, never rounded: an amount finer than `decimals` shows its third decimal.
 */
export function milliToDecimal(milli: number | bigint, decimals = 2): string {
  if (typeof milli === 'number' && Number.isSafeInteger(milli)) {
    // The same without bigints, for every amount that is a safe integer of thousandths.
    const absolute = Math.abs(milli);
    let fraction = String(absolute % MILLI_PER_UNIT).padStart(3, '0');
    while (fraction.length > decimals && fraction.endsWith('0')) fraction = fraction.slice(0, -1);
    const units = `${milli < 0 ? '-' : ''}${Math.floor(absolute / MILLI_PER_UNIT)}`;
    return fraction.length ? `${units}.${fraction}` : units;
  }
  const big = typeof milli === 'bigint' ? milli : BigInt(milli);
  const sign = big < 0n ? '-' : '';
  const absolute = big < 0n ? -big : big;
  const units = absolute / 1000n;
  let fraction = String(absolute % 1000n).padStart(3, '0');
  while (fraction.length > decimals && fraction.endsWith('0')) fraction = fraction.slice(0, -1);
  return fraction.length ? `${sign}${units}.${fraction}` : `${sign}${units}`;
}

/** Thousandths as a JSON number: exact for every amount the platform stores (at most 15 significant digits). */
export function milliToNumber(milli: number | bigint): number {
  return Number(milliToDecimal(milli, 0));
}

/** A decimal string (as PostgreSQL's numeric gives it) as a JSON number, with no limit on its size. */
export function decimalToNumber(amount: string): number {
  // Up to 15 digits, JavaScript reads the text to the same number as its shortest form: the common case, without bigints.
  if (SHORT_DECIMAL.test(amount)) return Number(amount);
  return milliToNumber(toMilliBig(amount));
}

/** An amount given as number or string, as the canonical decimal string with two decimals at least ("0.30", "12.345"). */
export function toDecimalString(value: number | string): string {
  return milliToDecimal(toMilli(value));
}
