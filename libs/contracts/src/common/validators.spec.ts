import { isAmountNumber, isDecimalAmountString, toDecimalString } from './validators';

describe('money amount validation', () => {
  it.each([0, 1, 2500.5, 0.01, 999999999999.99])('accepts the number %p', (value) => expect(isAmountNumber(value)).toBe(true));
  it.each([-1, 1.005, Number.NaN, Number.POSITIVE_INFINITY, 1e13])('refuses the number %p', (value) =>
    expect(isAmountNumber(value)).toBe(false),
  );
  it.each(['0', '10', '2500.5', '2500.50'])('accepts the string %p', (value) => expect(isDecimalAmountString(value)).toBe(true));
  it.each(['-1', '1.005', 'abc', '', ' 1', '1e3', '0x10'])('refuses the string %p', (value) =>
    expect(isDecimalAmountString(value)).toBe(false),
  );
  it('normalises numbers to two decimals without float noise', () => {
    expect(toDecimalString(0.1 + 0.2)).toBe('0.30');
    expect(toDecimalString(2500.5)).toBe('2500.50');
    expect(toDecimalString('7')).toBe('7');
  });
});
