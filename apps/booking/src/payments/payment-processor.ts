import { Injectable } from '@nestjs/common';
import { InjectDataSource } from '@nestjs/typeorm';
import { DataSource } from 'typeorm';
import { toMilli } from '@hotel/contracts';
import { DomainError, rowsOf } from '@hotel/platform';
import { SandboxCardChargeEntity, SandboxCardRefundEntity } from './sandbox-card.entity';

export interface CardDetails {
  token: string;
  expiration: string;
}

export interface CardCharge {
  paymentId: string;
  amount: string;
}

/** An amount to charge or refund: a decimal string in an ISO 4217 currency (the booking's, its client's account currency). */
export interface CardAmount {
  amount: string;
  currency: string;
}

/** The card processors a payment can be made with; a booking records the one that holds its payment. */
export type PaymentProcessorName = 'sandbox' | 'stripe';

/**
 * The payment-processor port; the built-in sandbox and Stripe implement it. Every
 * call that moves money takes an idempotency key, as real processors do: a
 * repeated call with the key (a retry after a timeout or a crash) has the first
 * call's effect and no other.
 */
export interface PaymentProcessor {
  /** Charges a card once per key; a repeat with the key returns the first charge. */
  charge(key: string, card: CardDetails, price: CardAmount): Promise<CardCharge>;
  /**
   * What happened to a charge key: the charge it made, or null, in which case
   * the key is closed and a late charge with it is refused (a charge call still
   * in flight can no longer take money for a booking that has failed). `price` is
   * the one the charge was (or would have been) made with: a processor may need
   * it to find the payment again.
   */
  closeKey(key: string, price: CardAmount): Promise<CardCharge | null>;
  /** Refunds (part of) a charge once per key. */
  refund(paymentId: string, refund: CardAmount, key: string): Promise<void>;
}

const DECLINES: Record<string, string> = {
  tok_declined: 'card declined',
  tok_insufficient_funds: 'card declined: insufficient funds',
};

/** The sandbox's answer to a card token: null to accept, else the decline reason. */
export function sandboxDecline(token: string): string | null {
  if (DECLINES[token]) return DECLINES[token];
  return token === 'tok_visa' || token === 'tok_mastercard' ? null : 'card declined: unknown payment_token';
}

/**
 * The sandbox processor: accepts tok_visa and tok_mastercard, declines
 * tok_declined and tok_insufficient_funds with the reason. Its charges and
 * refunds are kept in its own tables (booking.sandbox_card_*), standing in for
 * the processor's records: they survive a crash of the booking service, so
 * recovery can ask what a key did. Amounts are compared in thousandths; the
 * currency is the booking's and is not kept (a key only ever charges one booking).
 */
@Injectable()
export class SandboxPaymentProcessor implements PaymentProcessor {
  constructor(@InjectDataSource() private readonly dataSource: DataSource) {}

  private get charges() {
    return this.dataSource.getRepository(SandboxCardChargeEntity);
  }

  async charge(key: string, card: CardDetails, { amount }: CardAmount): Promise<CardCharge> {
    const decline = sandboxDecline(card.token);
    if (decline) throw new DomainError('PAYMENT_DECLINED', decline);
    // ON CONFLICT DO NOTHING without a target: the payment id is unique too (derived
    // from the key), and a concurrent insert of the same key can meet that index first.
    await this.charges.createQueryBuilder().insert().values({ paymentKey: key, paymentId: `ch_sandbox_${key}`, amount }).orIgnore().updateEntity(false).execute();
    const charge = await this.find(key);
    if (!charge) throw new DomainError('PAYMENT_DECLINED', 'card declined: the payment was cancelled');
    if (toMilli(charge.amount) !== toMilli(amount)) throw new DomainError('CONFLICT', `payment key ${key} was used for another amount`);
    return charge;
  }

  async closeKey(key: string, _price?: CardAmount): Promise<CardCharge | null> {
    await this.charges.createQueryBuilder().insert().values({ paymentKey: key }).orIgnore().updateEntity(false).execute();
    return this.find(key);
  }

  async refund(paymentId: string, { amount }: CardAmount, key: string): Promise<void> {
    // Never more back than was charged; the key makes a repeat harmless. Raw SQL: the
    // check and the insert are one statement (INSERT ... SELECT), which the builder cannot write.
    const rows = rowsOf(
      await this.dataSource.query(
        `INSERT INTO booking.sandbox_card_refunds (refund_key, payment_id, amount)
         SELECT $1, c.payment_id, $3 FROM booking.sandbox_card_charges c
          WHERE c.payment_id = $2
            AND c.amount >= $3 + (SELECT coalesce(sum(r.amount), 0) FROM booking.sandbox_card_refunds r WHERE r.payment_id = c.payment_id)
         ON CONFLICT (refund_key) DO NOTHING RETURNING refund_key`,
        [key, paymentId, amount],
      ),
    );
    if (rows.length) return;
    const existing = await this.dataSource.getRepository(SandboxCardRefundEntity).findOne({ select: { paymentId: true, amount: true }, where: { refundKey: key } });
    if (existing?.paymentId === paymentId && toMilli(existing.amount) === toMilli(amount)) return;
    throw new DomainError('CONFLICT', `refund ${key} of ${amount} for ${paymentId} is not possible`);
  }

  private async find(key: string): Promise<CardCharge | null> {
    const row = await this.charges.findOne({ select: { paymentId: true, amount: true }, where: { paymentKey: key } });
    return row?.paymentId ? { paymentId: row.paymentId, amount: row.amount! } : null;
  }
}

/** MM/YY that has not passed (a card is valid to the end of its month). */
export function expirationPassed(expiration: string, now = new Date()): boolean {
  const [month, year] = expiration.split('/').map(Number);
  const endOfMonth = Date.UTC(2000 + year, month, 1);
  return endOfMonth <= now.getTime();
}
