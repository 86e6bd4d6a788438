import { expirationPassed, sandboxDecline } from './payment-processor';

describe('sandbox payment processor rules', () => {
  it('accepts the test cards', () => {
    expect(sandboxDecline('tok_visa')).toBeNull();
    expect(sandboxDecline('tok_mastercard')).toBeNull();
  });

  it.each([
    ['tok_declined', 'card declined'],
    ['tok_insufficient_funds', 'card declined: insufficient funds'],
    ['tok_unknown', 'card declined: unknown payment_token'],
  ])('declines %s with the reason', (token, message) => {
    expect(sandboxDecline(token)).toBe(message);
  });

  it('treats a card as valid to the end of its month', () => {
    const now = new Date('2027-03-15T12:00:00Z');
    expect(expirationPassed('03/27', now)).toBe(false);
    expect(expirationPassed('02/27', now)).toBe(true);
    expect(expirationPassed('12/26', now)).toBe(true);
    expect(expirationPassed('01/28', now)).toBe(false);
  });
});
