import { milliToDecimal, toMilli } from '@hotel/contracts';

/**
 * Stripe's own minor units, where they are not ISO 4217's (Stripe's guide to
 * supported currencies): the zero-decimal currencies take whole units (MGA too,
 * which ISO 4217 gives two decimals); the three-decimal ones take thousandths but
 * only in multiples of ten, because Stripe's payment partners refuse a last digit
 * other than 0; ISK is charged in whole krónur but written with two decimals
 * (multiples of 100). Every other currency has two decimals at Stripe.
 */
const ZERO_DECIMAL = ['BIF', 'CLP', 'DJF', 'GNF', 'JPY', 'KMF', 'KRW', 'MGA', 'PYG', 'RWF', 'UGX', 'VND', 'VUV', 'XAF', 'XOF', 'XPF'];
const THREE_DECIMAL = ['BHD', 'JOD', 'KWD', 'OMR', 'TND'];

/** Thousandths per Stripe unit of the currency, and the step (in Stripe units) an amount must be a multiple of. */
function stripeUnit(currency: string): { milliPerUnit: number; step: number } {
  if (ZERO_DECIMAL.includes(currency)) return { milliPerUnit: 1000, step: 1 };
  if (THREE_DECIMAL.includes(currency)) return { milliPerUnit: 1, step: 10 };
  return { milliPerUnit: 10, step: currency === 'ISK' ? 100 : 1 };
}

/**
 * An amount ("12.34", ISO 4217 code) as Stripe's integer `amount`: 1234 USD cents,
 * ¥1235 as 1235, KWD 12.340 as 12340. Null when Stripe cannot take it exactly
 * (KWD 12.345, JPY 0.5): money is never rounded silently. `up`: the smallest
 * amount Stripe takes that is not less (a refund that gives back no less than owed).
 */
export function toStripeAmount(amount: string, currency: string, rounding: 'exact' | 'up' = 'exact'): number | null {
  const { milliPerUnit, step } = stripeUnit(currency);
  const milliPerStep = milliPerUnit * step;
  const milli = toMilli(amount);
  const steps = Math.ceil(milli / milliPerStep);
  if (rounding === 'exact' && steps * milliPerStep !== milli) return null;
  return steps * step;
}

/** Stripe's integer `amount` in the currency as a decimal string ("12.34", "1235.00", "12.34" for KWD 12340). */
export function fromStripeAmount(units: number, currency: string): string {
  return milliToDecimal(units * stripeUnit(currency).milliPerUnit);
}

/** The smallest amount Stripe takes in the currency, as a decimal string: what a refused amount must be a multiple of. */
export function stripeStep(currency: string): string {
  const { milliPerUnit, step } = stripeUnit(currency);
  return milliToDecimal(milliPerUnit * step, 0);
}
