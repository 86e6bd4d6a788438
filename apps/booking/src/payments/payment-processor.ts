import { DomainError } from '@hotel/platform';

export interface CardDetails {
  token: string;
  expiration: string;
}

/** The payment-processor port; the built-in sandbox implements it (decisions §5). */
export interface PaymentProcessor {
  /** Charges a card; idempotent by booking id. */
  charge(bookingId: number, card: CardDetails, amount: string): Promise<{ paymentId: string }>;
  refund(paymentId: string, amount: string): Promise<void>;
}

const DECLINES: Record<string, string> = {
  tok_declined: 'card declined',
  tok_insufficient_funds: 'card declined: insufficient funds',
};

/** Accepts tok_visa and tok_mastercard; declines tok_declined and tok_insufficient_funds with the reason. */
export class SandboxPaymentProcessor implements PaymentProcessor {
  async charge(bookingId: number, card: CardDetails, _amount: string): Promise<{ paymentId: string }> {
    if (DECLINES[card.token]) throw new DomainError('PAYMENT_DECLINED', DECLINES[card.token]);
    if (card.token !== 'tok_visa' && card.token !== 'tok_mastercard') throw new DomainError('PAYMENT_DECLINED', 'card declined: unknown payment_token');
    return { paymentId: `ch_sandbox_${bookingId}` };
  }

  async refund(_paymentId: string, _amount: string): Promise<void> {}
}

/** MM/YY that has not passed (a card is valid to the end of its month). */
export function expirationPassed(expiration: string, now = new Date()): boolean {
  const [month, year] = expiration.split('/').map(Number);
  const endOfMonth = Date.UTC(2000 + year, month, 1);
  return endOfMonth <= now.getTime();
}

export const PAYMENT_PROCESSOR = Symbol('PAYMENT_PROCESSOR');
