import { createHmac } from 'node:crypto';
import { BookingEnv } from '../booking.env';

/**
 * A booking's voucher link as of `now`: it works for at least VOUCHER_TTL_S. Its expiry
 * is rounded up to the next whole hour (or VOUCHER_TTL_S, if shorter), so every answer
 * within that hour gives the same link and a page of bookings keeps its bytes, and its
 * entity tag, while nothing on it changes.
 */
export function voucherUrl(env: BookingEnv, bookingId: number, now = Date.now()): string {
  const step = Math.max(1, Math.min(3600, env.VOUCHER_TTL_S));
  const expires = Math.ceil((Math.ceil(now / 1000) + env.VOUCHER_TTL_S) / step) * step;
  return `${env.PUBLIC_BASE_URL}/vouchers/${bookingId}?expires=${expires}&signature=${voucherSignature(env, bookingId, expires)}`;
}

export function voucherSignature(env: BookingEnv, bookingId: number, expires: number): string {
  return createHmac('sha256', env.VOUCHER_SECRET).update(`voucher:${bookingId}:${expires}`).digest('base64url').slice(0, 32);
}
