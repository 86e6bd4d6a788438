import { discountMilli } from './promo-codes.service';

describe('discountMilli', () => {
  it('takes a percentage, rounded half up to the cent', () => {
    expect(discountMilli({ kind: 'percent', value: '10.00' }, 245550, 'USD')).toBe(24560);
    expect(discountMilli({ kind: 'percent', value: '12.50' }, 9990, 'USD')).toBe(1250);
  });
  it('rounds to the minor unit of the booking currency: none in JPY, three decimals in KWD', () => {
    expect(discountMilli({ kind: 'percent', value: '10' }, 16_561_000, 'JPY')).toBe(1_656_000);
    expect(discountMilli({ kind: 'percent', value: '12.5' }, 50_123, 'KWD')).toBe(6_265);
    expect(discountMilli({ kind: 'percent', value: '12.5' }, 999_999_999_999_000, 'USD')).toBe(124_999_999_999_880);
  });
  it('takes a fixed amount, never more than the booking', () => {
    expect(discountMilli({ kind: 'amount', value: '25.00' }, 80000, 'USD')).toBe(25000);
    expect(discountMilli({ kind: 'amount', value: '25.00' }, 10000, 'USD')).toBe(10000);
  });
  it('a 100% code makes the booking free, not negative', () => {
    expect(discountMilli({ kind: 'percent', value: '100' }, 123450, 'USD')).toBe(123450);
  });
});
