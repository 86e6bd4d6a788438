import { discountCents } from './promo-codes.service';

describe('discountCents', () => {
  it('takes a percentage, rounded half up to the cent', () => {
    expect(discountCents({ kind: 'percent', value: '10.00' }, 24555)).toBe(2456);
    expect(discountCents({ kind: 'percent', value: '12.50' }, 999)).toBe(125);
  });
  it('takes a fixed amount, never more than the booking', () => {
    expect(discountCents({ kind: 'amount', value: '25.00' }, 8000)).toBe(2500);
    expect(discountCents({ kind: 'amount', value: '25.00' }, 1000)).toBe(1000);
  });
  it('a 100% code makes the booking free, not negative', () => {
    expect(discountCents({ kind: 'percent', value: '100' }, 12345)).toBe(12345);
  });
});
