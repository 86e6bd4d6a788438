import { SandboxPaymentProcessor, expirationPassed } from './payment-processor';

describe('sandbox payment processor', () => {
  const processor = new SandboxPaymentProcessor();

  it('accepts the test cards, idempotently by booking', async () => {
    expect(await processor.charge(7, { token: 'tok_visa', expiration: '12/30' }, '10.00')).toEqual({ paymentId: 'ch_sandbox_7' });
    expect(await processor.charge(7, { token: 'tok_mastercard', expiration: '12/30' }, '10.00')).toEqual({ paymentId: 'ch_sandbox_7' });
  });

  it.each([
    ['tok_declined', 'card declined'],
    ['tok_insufficient_funds', 'card declined: insufficient funds'],
    ['tok_unknown', 'card declined: unknown payment_token'],
  ])('declines %s with the reason', async (token, message) => {
    await expect(processor.charge(1, { token, expiration: '12/30' }, '10.00')).rejects.toMatchObject({ code: 'PAYMENT_DECLINED', message });
  });

  it('treats a card as valid to the end of its month', () => {
    const now = new Date('2027-03-15T12:00:00Z');
    expect(expirationPassed('03/27', now)).toBe(false);
    expect(expirationPassed('02/27', now)).toBe(true);
    expect(expirationPassed('12/26', now)).toBe(true);
    expect(expirationPassed('01/28', now)).toBe(false);
  });
});
