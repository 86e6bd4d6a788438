import { cancellationPenaltyMilli } from './cancellation';

const periods = [
  { from_datetime: '2027-03-01T12:00:00.000Z', price_cancellation_penalty: 120.5, price_currency: 'USD' },
  { from_datetime: '2027-03-09T12:00:00.000Z', price_cancellation_penalty: 480, price_currency: 'USD' },
];

describe('cancellationPenaltyMilli', () => {
  it('is free before the first period', () => {
    expect(cancellationPenaltyMilli(periods, 480000, new Date('2027-02-01T00:00:00Z'))).toBe(0);
  });
  it('takes the latest period that has started', () => {
    expect(cancellationPenaltyMilli(periods, 480000, new Date('2027-03-05T00:00:00Z'))).toBe(120500);
    expect(cancellationPenaltyMilli(periods, 480000, new Date('2027-03-09T12:00:00Z'))).toBe(480000);
  });
  it('never exceeds what was paid (a promo lowered the price)', () => {
    expect(cancellationPenaltyMilli(periods, 450000, new Date('2027-03-10T00:00:00Z'))).toBe(450000);
  });
  it('costs the whole price for a non-refundable rate', () => {
    const nonRefundable = [{ from_datetime: '2027-01-01T00:00:00.000Z', price_cancellation_penalty: 300, price_currency: 'USD' }];
    expect(cancellationPenaltyMilli(nonRefundable, 300000, new Date('2027-01-02T00:00:00Z'))).toBe(300000);
  });
});
