import { ServiceName } from '@hotel/contracts';

/**
 * Reply shapes the gateway itself builds (the services' replies are in
 * libs/contracts); the OpenAPI document is generated from these types.
 */

/** `GET /me`: which client and user a credential acts for, and whether it is a sandbox key. */
export interface IdentityView {
  client_id: number;
  /** Set for a user token. */
  user_id: number | null;
  is_sandbox: boolean;
}

/** `POST /book/promocode`: the PromoCodeResponse of the promo validation endpoint. */
export interface PromoDiscountView {
  price_discount_amount: number;
  price_currency: string;
}

/** `GET /health`: the gateway process answers. */
export interface LivenessView {
  status: 'ok';
}

/** One service in the readiness answer: whether it answers and reaches its database, never which host or process answered. */
export type ServiceStatus = { status: 'up'; database: 'up' | 'down' } | { status: 'down'; reason: string };

/** `GET /health/ready`: every service answers over NATS and reaches its database. */
export interface ReadinessView {
  status: 'ready';
  nats: 'up';
  services: Record<ServiceName, ServiceStatus>;
}
