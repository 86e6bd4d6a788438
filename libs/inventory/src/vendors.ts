/**
 * The vendors the platform trades with at the vendor simulator (VENDOR_SIMULATOR_URL), each
 * under its code with the name its messages use. How they price and what they carry is
 * theirs: the platform reads their answers over the wire.
 */
export const VENDOR_CODES = ['atlas', 'borealis', 'cobalt'] as const;
export type VendorCode = (typeof VENDOR_CODES)[number];

export const VENDOR_NAMES: Record<VendorCode, string> = {
  atlas: 'Atlas Beds',
  borealis: 'Borealis Travel',
  cobalt: 'Cobalt Stays',
};
