import fc from 'fast-check';
import { decimalToNumber, milliToDecimal, milliToNumber, toDecimalString, toMilli, toMilliBig } from './money';
import { amountNumber, currencyDecimals, fitsCurrency, formatAmount, isIsoCurrency, roundToCurrency, scaleToCurrency } from './currencies';

describe('money in thousandths', () => {
  it.each([
    ['12', 12_000],
    ['12.5', 12_500],
    ['12.34', 12_340],
    ['12.345', 12_345],
    [0.1, 100],
    ['-3.2', -3_200],
  ])('reads %p', (amount, milli) => expect(toMilli(amount)).toBe(milli));
  it.each(['1.2345', 'abc', '', '1e3', 1.0005, 0.1 + 0.2])('refuses %p', (amount) => expect(() => toMilli(amount)).toThrow());
  it('writes decimals exactly, with at least the decimals asked for', () => {
    expect(milliToDecimal(1_234_500)).toBe('1234.50');
    expect(milliToDecimal(1_234_567)).toBe('1234.567');
    expect(milliToDecimal(1_234_000, 0)).toBe('1234');
    expect(milliToDecimal(-50)).toBe('-0.05');
    expect(milliToNumber(12_345)).toBe(12.345);
    expect(toDecimalString(0.3)).toBe('0.30');
    expect(toDecimalString('7')).toBe('7.00');
  });
  it('sums beyond a safe integer as bigints, never throwing', () => {
    const total = toMilliBig('999999999999.99') * 10_000n;
    expect(milliToDecimal(total)).toBe('9999999999999900.00');
    expect(decimalToNumber('123456789012345678.5')).toBeCloseTo(1.2345678901234568e17);
  });
});

describe('money without bigints (the common case) is the same as with them', () => {
  const milliAmounts = fc.oneof(fc.integer({ min: -1_000_000_000, max: 1_000_000_000 }), fc.maxSafeInteger().map((n) => n - (n % 7)), fc.constantFrom(0, -0, 5, -5, 999_999_999_999_999));
  it('writes every safe thousandths as the bigint path does', () => {
    fc.assert(
      fc.property(milliAmounts, fc.integer({ min: 0, max: 3 }), (milli, decimals) => {
        expect(milliToDecimal(milli, decimals)).toBe(milliToDecimal(BigInt(milli), decimals));
      }),
      { numRuns: 2000 },
    );
  });
  it('reads every amount of at most three decimals to its exact thousandths, and a decimal string to the same number', () => {
    fc.assert(
      fc.property(fc.integer({ min: -999_999_999_999, max: 999_999_999_999 }), (milli) => {
        const text = milliToDecimal(milli, 0);
        expect(toMilli(Number(text))).toBe(milli);
        expect(Object.is(decimalToNumber(text), milliToNumber(toMilliBig(text)))).toBe(true);
        expect(Object.is(decimalToNumber(milliToDecimal(milli, 3)), milliToNumber(toMilliBig(text)))).toBe(true);
      }),
      { numRuns: 2000 },
    );
    expect(Object.is(toMilli(-0), 0)).toBe(true);
    // Texts that are not in their shortest form read as their shortest form does.
    for (const text of ['012.50', '0.500', '000', '7.0', '999999999999.999']) expect(Object.is(decimalToNumber(text), milliToNumber(toMilliBig(text)))).toBe(true);
  });
});

describe('currencies', () => {
  it('knows ISO 4217 codes and their minor units', () => {
    expect(currencyDecimals('JPY')).toBe(0);
    expect(currencyDecimals('USD')).toBe(2);
    expect(currencyDecimals('KWD')).toBe(3);
    expect(isIsoCurrency('EUR')).toBe(true);
    expect(isIsoCurrency('XYZ')).toBe(false);
    expect(isIsoCurrency('usd')).toBe(false);
    expect(isIsoCurrency('HRK')).toBe(false);
  });
  it('rounds and formats in the minor unit', () => {
    expect(roundToCurrency(16_561_499, 'JPY')).toBe(16_561_000);
    expect(roundToCurrency(16_561_500, 'JPY')).toBe(16_562_000);
    expect(roundToCurrency(12_345, 'USD')).toBe(12_350);
    expect(roundToCurrency(12_345, 'KWD')).toBe(12_345);
    expect(formatAmount(16_561_000, 'JPY')).toBe('16561');
    expect(formatAmount(12_300, 'USD')).toBe('12.30');
    expect(formatAmount(12_300, 'KWD')).toBe('12.300');
    expect(fitsCurrency(12_300, 'JPY')).toBe(false);
    expect(fitsCurrency(12_000, 'JPY')).toBe(true);
    expect(amountNumber(12_340, 'USD')).toBe(12.34);
    expect(() => amountNumber(12_345, 'USD')).toThrow();
  });
  it('scales exactly, half away from zero', () => {
    expect(scaleToCurrency(10_005, 1n, 2n, 'USD')).toBe(5_000);
    expect(scaleToCurrency(10_010, 1n, 2n, 'USD')).toBe(5_010);
    expect(scaleToCurrency(999_999_999_999_999, 3n, 7n, 'KWD')).toBe(428_571_428_571_428);
  });
});
