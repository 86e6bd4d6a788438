/**
 * Exact money in code: amounts travel as decimal strings or JSON numbers with at
 * most two decimals and are computed on as integer cents, never as floats.
 */
export function toCents(amount: string | number): number {
  const text = typeof amount === 'number' ? amount.toFixed(2) : amount.trim();
  const match = /^(-)?(\d+)(?:\.(\d{1,2}))?$/.exec(text);
  if (!match) throw new Error(`not an amount: ${amount}`);
  const cents = Number(match[2]) * 100 + Number((match[3] ?? '').padEnd(2, '0'));
  if (!Number.isSafeInteger(cents)) throw new Error(`amount out of range: ${amount}`);
  return match[1] ? -cents : cents;
}

/** Cents as a decimal string with two decimals ("1234.50"). */
export function centsToDecimal(cents: number): string {
  const sign = cents < 0 ? '-' : '';
  const absolute = Math.abs(cents);
  return `${sign}${Math.floor(absolute / 100)}.${String(absolute % 100).padStart(2, '0')}`;
}

/** Cents as a JSON number (exact for every amount the platform stores). */
export function centsToNumber(cents: number): number {
  return Number(centsToDecimal(cents));
}
