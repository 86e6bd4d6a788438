import { ServiceName, VendorCircuits } from '@hotel/contracts';

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
  /** The client's account currency (ISO 4217): every price and amount the client sees is in it. */
  currency: string;
  /** Decimals of the currency's minor unit (JPY 0, USD 2, KWD 3): amounts the client sends may have no more. */
  currency_decimals: number;
  /** Percent added to the exchange rate when a vendor's price is converted into the currency. */
  fx_margin_percent: string;
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
export type ServiceStatus = { status: 'up'; database: 'up' | 'down'; vendors?: VendorCircuits } | { status: 'down'; reason: string };

/** `GET /health/ready`: every service answers over NATS and reaches its database. */
export interface ReadinessView {
  status: 'ready';
  nats: 'up';
  services: Record<ServiceName, ServiceStatus>;
}
