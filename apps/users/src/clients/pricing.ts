import { ClientPricing } from '@hotel/contracts';

/** A client's pricing columns, as a raw query reads them (the margin as numeric text, "1.50"). */
export interface PricingColumns {
  currency: string;
  fxMarginPercent: string;
}

/** How a client is priced, from its columns: the margin without trailing zeros ("1.5", "0"). */
export function pricingOf(row: PricingColumns): ClientPricing {
  const margin = String(row.fxMarginPercent);
  return { currency: row.currency, fxMarginPercent: margin.includes('.') ? margin.replace(/\.?0+$/, '') : margin };
}
