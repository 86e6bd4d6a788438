import { currencyDecimals, scaleToCurrency } from './currencies';

/** A decimal as an integer of its digits and a power of ten: "117.92" is 11792 / 10^2. */
export interface Decimal {
  digits: bigint;
  scale: number;
}

export function parseDecimal(text: string): Decimal {
  const match = /^(\d+)(?:\.(\d+))?$/.exec(text);
  if (!match) throw new Error(`not a decimal: ${text}`);
  const fraction = match[2] ?? '';
  return { digits: BigInt(match[1] + fraction), scale: fraction.length };
}

export const TEN = 10n;
export const pow10 = (exponent: number) => TEN ** BigInt(exponent);

/**
 * How amounts in one currency become amounts in another: at `rate` (units of `to` per
 * unit of `from`, the client's FX margin included, rounded to ten significant digits),
 * each amount rounded half up to `to`'s minor unit. The rate recorded is the rate used,
 * so anyone can redo a conversion from the booking's record.
 */
export class FxConversion {
  readonly identity: boolean;
  private readonly rateDigits: bigint;
  private readonly rateDivisor: bigint;
  /** The same as numbers, for the common case where the product stays a safe integer. */
  private readonly rateDigitsNumber: number;
  /** 10^scale × thousandths per minor unit of `to`: the product's divisor into minor units. */
  private readonly divisorNumber: number;
  private readonly step: number;

  constructor(
    readonly from: string,
    readonly to: string,
    /** Units of `to` per unit of `from`, margin included, as a decimal string. */
    readonly rate: string,
    /** The ECB reference date of the rates used; null when none was needed (the same currency). */
    readonly date: string | null,
    readonly marginPercent: string,
  ) {
    const { digits, scale } = parseDecimal(rate);
    this.identity = from === to && digits === pow10(scale);
    this.rateDigits = digits;
    this.rateDivisor = pow10(scale);
    this.step = 10 ** (3 - currencyDecimals(to));
    this.rateDigitsNumber = Number(digits);
    this.divisorNumber = 10 ** scale * this.step;
  }

  /** An amount in `from` (thousandths) in `to` (thousandths, rounded to `to`'s minor unit, half away from zero). */
  convert(milli: number): number {
    if (this.identity) return milli;
    const product = Math.abs(milli) * this.rateDigitsNumber;
    if (!Number.isSafeInteger(product) || !Number.isSafeInteger(this.divisorNumber)) {
      return scaleToCurrency(milli, this.rateDigits, this.rateDivisor, this.to);
    }
    // Exact in integers below 2^53: the quotient in minor units, corrected for the
    // division's rounding, then half up.
    let minorUnits = Math.floor(product / this.divisorNumber);
    let remainder = product - minorUnits * this.divisorNumber;
    if (remainder < 0) {
      minorUnits--;
      remainder += this.divisorNumber;
    } else if (remainder >= this.divisorNumber) {
      minorUnits++;
      remainder -= this.divisorNumber;
    }
    if (remainder * 2 >= this.divisorNumber) minorUnits++;
    const result = minorUnits * this.step;
    return milli < 0 ? -result : result;
  }
}

