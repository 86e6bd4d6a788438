import { DomainError } from '@hotel/platform';
import { SandboxPaymentProcessor } from './payment-processor';
import { PaymentProcessors } from './payment-processors';
import { StripePaymentProcessor } from './stripe-payment-processor';

describe('which card processor serves a booking', () => {
  const sandbox = {} as SandboxPaymentProcessor;
  const stripe = {} as StripePaymentProcessor;
  const sandboxBooking = { sandbox: true };
  const liveBooking = { sandbox: false };

  it('serves sandbox keys with the built-in processor, always', () => {
    for (const processors of [new PaymentProcessors(sandbox, stripe, true), new PaymentProcessors(sandbox, null, true), new PaymentProcessors(sandbox, null, false)]) {
      expect(processors.choose(sandboxBooking)).toBe('sandbox');
    }
  });

  it('serves live keys with Stripe when configured, else with the built-in processor outside production only', () => {
    expect(new PaymentProcessors(sandbox, stripe, true).choose(liveBooking)).toBe('stripe');
    expect(new PaymentProcessors(sandbox, stripe, false).choose(liveBooking)).toBe('stripe');
    expect(new PaymentProcessors(sandbox, null, false).choose(liveBooking)).toBe('sandbox');
    expect(() => new PaymentProcessors(sandbox, null, true).choose(liveBooking)).toThrow(expect.objectContaining({ code: 'PAYMENT_METHOD_UNAVAILABLE' }));
  });

  it('settles a payment with the processor that holds it; one no longer configured is an error to retry, not a business failure', () => {
    const processors = new PaymentProcessors(sandbox, null, false);
    expect(processors.get('sandbox')).toBe(sandbox);
    expect(() => processors.get('stripe')).toThrow(/held by stripe, which is not configured/);
    expect(() => processors.get('stripe')).not.toThrow(DomainError);
    expect(new PaymentProcessors(sandbox, stripe, true).get('stripe')).toBe(stripe);
  });
});
