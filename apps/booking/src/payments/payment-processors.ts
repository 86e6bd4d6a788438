import { Logger, OnApplicationBootstrap, Provider } from '@nestjs/common';
import { getDataSourceToken } from '@nestjs/typeorm';
import { DataSource } from 'typeorm';
import { DomainError, SERVICE_ENV } from '@hotel/platform';
import { BookingEnv } from '../booking.env';
import { InstallationEntity } from './installation.entity';
import { PaymentProcessor, PaymentProcessorName, SandboxPaymentProcessor } from './payment-processor';
import { StripePaymentProcessor } from './stripe-payment-processor';

/**
 * Which card processor serves a booking. A sandbox key's booking always goes to
 * the built-in test processor. A live key's goes to the real processor when one is
 * configured (PAYMENT_PROCESSOR=stripe); without one, to the built-in processor
 * outside production, and in production nowhere: the booking fails with
 * PAYMENT_METHOD_UNAVAILABLE before anything is charged.
 *
 * The choice is made once, when the booking records its payment key, and recorded
 * with it: the refunds of a payment go to the processor that holds it.
 */
export class PaymentProcessors implements OnApplicationBootstrap {
  private readonly logger = new Logger('PaymentProcessors');

  constructor(
    private readonly sandbox: SandboxPaymentProcessor,
    private readonly stripe: StripePaymentProcessor | null,
    private readonly production: boolean,
  ) {}

  onApplicationBootstrap() {
    if (this.production && !this.stripe) {
      this.logger.warn(
        'live card payments are unavailable: NODE_ENV=production and no card processor is configured (PAYMENT_PROCESSOR=stripe with STRIPE_SECRET_KEY); live credit_card bookings answer PAYMENT_METHOD_UNAVAILABLE, sandbox keys still use the test processor',
      );
    }
  }

  /** The processor that takes a new card payment of this booking. */
  choose(booking: { sandbox: boolean }): PaymentProcessorName {
    if (booking.sandbox) return 'sandbox';
    if (this.stripe) return 'stripe';
    if (!this.production) return 'sandbox';
    throw new DomainError('PAYMENT_METHOD_UNAVAILABLE', 'card payments are not available: no card processor is configured for live bookings; pay by account');
  }

  /** The processor that holds a payment. Not a DomainError when it is gone: the saga retries until it is configured again. */
  get(name: PaymentProcessorName): PaymentProcessor {
    if (name === 'sandbox') return this.sandbox;
    if (this.stripe) return this.stripe;
    throw new Error(`a payment is held by ${name}, which is not configured (PAYMENT_PROCESSOR): configure it again to settle the payment`);
  }
}

/** PaymentProcessors from the booking service's environment (Stripe's keys are prefixed with this database's installation id). */
export const PAYMENT_PROCESSORS_PROVIDER: Provider = {
  provide: PaymentProcessors,
  inject: [SERVICE_ENV, SandboxPaymentProcessor, getDataSourceToken()],
  useFactory: async (env: BookingEnv, sandbox: SandboxPaymentProcessor, dataSource: DataSource) => {
    const stripe =
      env.PAYMENT_PROCESSOR === 'stripe'
        ? new StripePaymentProcessor({
            secretKey: env.STRIPE_SECRET_KEY!,
            baseUrl: env.STRIPE_API_BASE_URL,
            keyspace: (await dataSource.getRepository(InstallationEntity).findOneByOrFail({})).id,
            attemptTimeoutMs: env.STRIPE_TIMEOUT_MS,
            maxNetworkRetries: env.STRIPE_MAX_NETWORK_RETRIES,
            // A payment step ends before another replica may take the saga over (its lease runs out).
            operationDeadlineMs: Math.floor((env.SAGA_LEASE_S * 1000 * 2) / 3),
            maxSockets: env.STRIPE_MAX_SOCKETS,
          })
        : null;
    return new PaymentProcessors(sandbox, stripe, env.NODE_ENV === 'production');
  },
};
