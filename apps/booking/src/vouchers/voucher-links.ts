import { createHmac } from 'node:crypto';
import { BookingEnv } from '../booking.env';

/** A booking's voucher link as of `now`: it works for VOUCHER_TTL_S. */
export function voucherUrl(env: BookingEnv, bookingId: number, now = Date.now()): string {
  const expires = Math.floor(now / 1000) + env.VOUCHER_TTL_S;
  return `${env.PUBLIC_BASE_URL}/vouchers/${bookingId}?expires=${expires}&signature=${voucherSignature(env, bookingId, expires)}`;
}

export function voucherSignature(env: BookingEnv, bookingId: number, expires: number): string {
  return createHmac('sha256', env.VOUCHER_SECRET).update(`voucher:${bookingId}:${expires}`).digest('base64url').slice(0, 32);
}
