import { toMilli } from '@hotel/contracts';
import { fromStripeAmount, stripeStep, toStripeAmount } from './stripe-amounts';

describe("amounts in Stripe's minor units", () => {
  it.each([
    ['120.50', 'USD', 12050],
    ['0.5', 'EUR', 50],
    ['1235', 'JPY', 1235],
    ['1235', 'KRW', 1235],
    ['12.340', 'KWD', 12340],
    ['7.5', 'BHD', 7500],
    ['5000', 'ISK', 500000],
    ['1200', 'MGA', 1200],
  ])('%s %s is %i, and back', (amount, currency, units) => {
    expect(toStripeAmount(amount, currency)).toBe(units);
    expect(toMilli(fromStripeAmount(units, currency))).toBe(toMilli(amount));
  });

  it('refuses what Stripe cannot take exactly: a last thousandth in KWD, a fraction of a yen or of a króna', () => {
    expect(toStripeAmount('12.345', 'KWD')).toBeNull();
    expect(toStripeAmount('0.5', 'JPY')).toBeNull();
    expect(toStripeAmount('10.5', 'ISK')).toBeNull();
    expect(toStripeAmount('12.345', 'USD')).toBeNull();
  });

  it('rounds a refund up to what Stripe takes, never down', () => {
    expect(toStripeAmount('4.005', 'KWD', 'up')).toBe(4010);
    expect(toStripeAmount('4.010', 'KWD', 'up')).toBe(4010);
    expect(toStripeAmount('99.5', 'JPY', 'up')).toBe(100);
  });

  it('reads Stripe amounts back as exact decimals', () => {
    expect(fromStripeAmount(12050, 'USD')).toBe('120.50');
    expect(fromStripeAmount(1235, 'JPY')).toBe('1235.00');
    expect(fromStripeAmount(12345, 'OMR')).toBe('12.345');
    expect(fromStripeAmount(500000, 'ISK')).toBe('5000.00');
  });

  it('names the step a currency is charged in', () => {
    expect(stripeStep('USD')).toBe('0.01');
    expect(stripeStep('KWD')).toBe('0.01');
    expect(stripeStep('JPY')).toBe('1');
    expect(stripeStep('ISK')).toBe('1');
  });
});
