import { plainToInstance } from 'class-transformer';
import { validateSync } from 'class-validator';
import { createHash, createHmac, timingSafeEqual } from 'node:crypto';
import { Board, RoomRequest, StayRequest, VendorRateWire } from '@hotel/contracts';
import { OfferKey, Stay, VendorRate, offerKeyString } from './offers';

/**
 * A V1 rate id: a UUID derived from the session and the offer, so every poll and
 * every replica names the same offer with the same id, and ids are unique per session.
 */
export function v1RateId(sessionId: string, key: OfferKey): string {
  const bytes = createHash('sha256').update(`${sessionId}|${offerKeyString(key)}`).digest();
  bytes[6] = (bytes[6] & 0x0f) | 0x80; // version 8: custom
  bytes[8] = (bytes[8] & 0x3f) | 0x80; // RFC 4122 variant
  const hex = bytes.subarray(0, 16).toString('hex');
  return `${hex.slice(0, 8)}-${hex.slice(8, 12)}-${hex.slice(12, 16)}-${hex.slice(16, 20)}-${hex.slice(20, 32)}`;
}

export interface V2RatePayload {
  key: OfferKey;
  stay: Stay;
  epoch: number;
  issuedAt: Date;
  /** The reference date of the exchange rates the price was converted at (ids issued before currencies were priced have none). */
  fxDate?: string | null;
}

const rooms = (list: RoomRequest[]) => list.map((room) => [room.adults, room.children, ...room.children_ages].join('-')).join('_');

function parseRooms(text: string): RoomRequest[] {
  return text.split('_').map((part) => {
    const [adults, children, ...ages] = part.split('-').map(Number);
    return { adults, children, children_ages: ages };
  });
}

function sign(body: string, secret: string): string {
  return createHmac('sha256', secret).update(body).digest('base64url').slice(0, 22);
}

/**
 * A V2 rate id: the offer and the stay it was priced for, signed, so V2 prebook
 * needs no stored session and no replica has to remember it.
 */
export function encodeV2RateId(payload: V2RatePayload, secret: string): string {
  const { key, stay } = payload;
  const body = [
    'v2',
    key.vendor,
    key.hotelId,
    key.roomId,
    key.board,
    key.refundable ? 'R' : 'N',
    key.memberRate ? 'M' : '-',
    stay.check_in,
    stay.check_out,
    rooms(stay.rooms),
    payload.epoch,
    Math.floor(payload.issuedAt.getTime() / 1000),
    // A remote vendor's handle rides along (its rate keys may hold dots: encoded).
    ...(key.vendorRate ? [payload.fxDate ?? '', Buffer.from(JSON.stringify(key.vendorRate)).toString('base64url')] : payload.fxDate ? [payload.fxDate] : []),
  ].join('.');
  return `${Buffer.from(body).toString('base64url')}.${sign(body, secret)}`;
}

/** How far a rate id's issue time may be ahead of this clock (clock skew between replicas). */
const MAX_CLOCK_SKEW_MS = 60_000;

/**
 * The payload of a V2 rate id, or null when it is forged, malformed or older than
 * ttlSeconds. V2 issues ids at the start of a price step, so a caller promising
 * "valid N seconds after the answer" passes N + PRICE_EPOCH_SECONDS.
 *
 * The stay inside is checked again as a search request is (1–30 nights, check-in
 * from today to 500 days ahead, sane rooms), and the issue time must not be in the
 * future: even with a leaked signing secret no id buys a stay of 0 nights, or one
 * that never expires.
 */
export function decodeV2RateId(token: string, secret: string, ttlSeconds: number, now = Date.now()): V2RatePayload | null {
  const [encoded, signature, extra] = token.split('.');
  if (!encoded || !signature || extra !== undefined) return null;
  const body = Buffer.from(encoded, 'base64url').toString('utf8');
  const expected = Buffer.from(sign(body, secret));
  const given = Buffer.from(signature);
  if (expected.length !== given.length || !timingSafeEqual(expected, given)) return null;
  const parts = body.split('.');
  // Twelve parts, thirteen with the exchange rates' date, fourteen with a remote vendor's handle.
  if (parts.length < 12 || parts.length > 14 || parts[0] !== 'v2') return null;
  const [, vendor, hotelId, roomId, board, refundable, member, checkIn, checkOut, roomText, epoch, issuedAt, fxText, vendorRateText] = parts;
  const fxDate = fxText || undefined;
  if (fxDate !== undefined && !/^\d{4}-\d{2}-\d{2}$/.test(fxDate)) return null;
  // Which vendors exist is the rates service's to say (an unknown one is not available); here only the shape.
  if (!/^[a-z][a-z0-9_-]{0,31}$/.test(vendor)) return null;
  const vendorRate = vendorRateText === undefined ? undefined : readVendorRate(vendorRateText);
  if (vendorRate === null) return null;
  const issued = new Date(Number(issuedAt) * 1000);
  if (!Number.isFinite(issued.getTime()) || now - issued.getTime() > ttlSeconds * 1000 || issued.getTime() - now > MAX_CLOCK_SKEW_MS) return null;
  const stay = { check_in: checkIn, check_out: checkOut, rooms: parseRooms(roomText) };
  if (validateSync(plainToInstance(StayRequest, stay)).length > 0) return null;
  return {
    key: {
      vendor,
      hotelId: Number(hotelId),
      roomId: Number(roomId),
      board: board as Board,
      refundable: refundable === 'R',
      memberRate: member === 'M',
      ...(vendorRate && { vendorRate }),
    },
    stay,
    epoch: Number(epoch),
    issuedAt: issued,
    fxDate: fxDate ?? null,
  };
}

/** A remote vendor's handle from a rate id, checked as the supplier book request checks it; null when malformed. */
function readVendorRate(text: string): VendorRate | null {
  try {
    const value = plainToInstance(VendorRateWire, JSON.parse(Buffer.from(text, 'base64url').toString('utf8')));
    if (validateSync(value, { whitelist: true, forbidNonWhitelisted: true }).length > 0) return null;
    return { keys: value.keys, occupancies: value.occupancies.map(({ rooms, guests }) => ({ rooms, guests: { adults: guests.adults, children: guests.children, children_ages: guests.children_ages } })), recheck: value.recheck, net: value.net, currency: value.currency, ...(value.hotelCode !== undefined && { hotelCode: value.hotelCode }) };
  } catch {
    return null;
  }
}
