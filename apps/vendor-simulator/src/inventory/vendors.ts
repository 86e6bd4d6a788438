import { Board, PaymentType } from '@hotel/contracts';
import { VENDOR_CODES, VENDOR_NAMES, type VendorCode } from '@hotel/inventory';

export { VENDOR_CODES, type VendorCode };

/**
 * The simulator's three vendors. They differ the way real ones do:
 * answer latency, which hotels they carry, markup, boards, refund terms, fees
 * due at the hotel, commission, loyalty and elite rates, and how they are paid.
 */
export interface Vendor {
  code: VendorCode;
  name: string;
  /** Share of hotels this vendor carries. */
  coverage: number;
  /** Multiplier on the hotel's net price. */
  markup: number;
  commissionRate: number;
  boards: Board[];
  /** Free cancellation ends this many days before check-in. */
  freeCancellationDays: number;
  /** Share of offers that also come as a cheaper non-refundable rate. */
  nonRefundableShare: number;
  nonRefundableDiscount: number;
  /** Resort fee per room and night, paid at the hotel, in US cents (the vendor's price level applies). */
  resortFeeCents: number;
  loyaltyRates: boolean;
  eliteRates: boolean;
  paymentType: PaymentType;
  defaultLatencyMs: number;
  /** The ISO 4217 currency the vendor prices in; the platform converts its prices into each client's. */
  currency: string;
  /**
   * The vendor's own price level for the catalog's reference prices (which are in US
   * dollars): its prices in its currency are about this many units per US dollar.
   */
  unitsPerUsd: number;
}

export const VENDORS: Record<VendorCode, Vendor> = {
  atlas: {
    code: 'atlas',
    name: VENDOR_NAMES.atlas,
    coverage: 0.75,
    markup: 1,
    commissionRate: 0.08,
    boards: ['RO', 'BB'],
    freeCancellationDays: 2,
    nonRefundableShare: 0.7,
    nonRefundableDiscount: 0.9,
    resortFeeCents: 0,
    loyaltyRates: false,
    eliteRates: false,
    paymentType: 'account',
    defaultLatencyMs: 400,
    currency: 'EUR',
    unitsPerUsd: 0.91,
  },
  borealis: {
    code: 'borealis',
    name: VENDOR_NAMES.borealis,
    coverage: 0.5,
    markup: 1.05,
    commissionRate: 0.12,
    boards: ['BB', 'HB', 'FB'],
    freeCancellationDays: 7,
    nonRefundableShare: 0.4,
    nonRefundableDiscount: 0.88,
    resortFeeCents: 0,
    loyaltyRates: true,
    eliteRates: true,
    paymentType: 'account',
    defaultLatencyMs: 1500,
    currency: 'GBP',
    unitsPerUsd: 0.81,
  },
  cobalt: {
    code: 'cobalt',
    name: VENDOR_NAMES.cobalt,
    coverage: 0.4,
    markup: 0.97,
    commissionRate: 0.1,
    boards: ['RO', 'AI'],
    freeCancellationDays: 3,
    nonRefundableShare: 0.5,
    nonRefundableDiscount: 0.85,
    resortFeeCents: 1500,
    loyaltyRates: false,
    eliteRates: false,
    paymentType: 'credit_card',
    defaultLatencyMs: 4000,
    currency: 'USD',
    unitsPerUsd: 1,
  },
};

/**
 * Latencies from `VENDOR_LATENCY_MS`, e.g. `atlas=300,borealis=1500,cobalt=4000`
 * (tests make them fast); vendors not named keep their default.
 */
export function parseVendorLatencies(spec: string | undefined): Record<VendorCode, number> {
  const latencies = Object.fromEntries(VENDOR_CODES.map((code) => [code, VENDORS[code].defaultLatencyMs])) as Record<VendorCode, number>;
  if (!spec) return latencies;
  for (const part of spec.split(',')) {
    const match = /^\s*(\w+)\s*=\s*(\d+)\s*$/.exec(part);
    if (!match || !(VENDOR_CODES as readonly string[]).includes(match[1])) {
      throw new Error(`VENDOR_LATENCY_MS: "${part}" is not vendor=milliseconds (vendors: ${VENDOR_CODES.join(', ')})`);
    }
    latencies[match[1] as VendorCode] = Number(match[2]);
  }
  return latencies;
}
