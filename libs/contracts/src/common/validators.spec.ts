import { isAmountNumber, isCalendarDay, isDecimalAmountString, unsafeStringReason } from './validators';

describe('money amount validation', () => {
  it.each([0, 1, 2500.5, 0.01, 0.001, 999999999.99])('accepts the number %p', (value) => expect(isAmountNumber(value)).toBe(true));
  it.each([-1, 1.0005, 0.1 + 0.2, 1e9, 1e-7, 1e-320, 5e-324, 1e300, Number.NaN, Number.POSITIVE_INFINITY, 1e13])('refuses the number %p', (value) =>
    expect(isAmountNumber(value)).toBe(false),
  );
  it.each(['0', '10', '2500.5', '2500.50'])('accepts the string %p', (value) => expect(isDecimalAmountString(value)).toBe(true));
  it.each(['-1', '1.0005', '1000000000', 'abc', '', ' 1', '1e3', '0x10'])('refuses the string %p', (value) =>
    expect(isDecimalAmountString(value)).toBe(false),
  );
});

describe('calendar days', () => {
  it.each(['2026-02-28', '2028-02-29', '0001-01-01', '9999-12-31'])('accepts %p', (value) => expect(isCalendarDay(value)).toBe(true));
  it.each(['2026-02-29', '2026-02-30', '2026-04-31', '2026-13-01', '2026-00-10', '0000-01-01', '2026-1-1', '20260101', ' 2026-01-01', 20260101])(
    'refuses %p',
    (value) => expect(isCalendarDay(value)).toBe(false),
  );
});

describe('strings that may not enter the platform', () => {
  it.each(['', 'Ada', 'São Paulo', '😀', 'a\ud83d\ude00b'])('accepts %p', (value) => expect(unsafeStringReason(value)).toBeNull());
  it.each([
    ['\u0000', /NUL/],
    ['abc\u0000', /NUL/],
    ['\ud800', /surrogate/],
    ['x\udfff', /surrogate/],
    ['\udc00\ud800', /surrogate/],
    ['\ud83d', /surrogate/],
  ])('refuses %p', (value, reason) => expect(unsafeStringReason(value)).toMatch(reason));
});
