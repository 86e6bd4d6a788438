import { createHmac, timingSafeEqual } from 'node:crypto';

/**
 * The sandbox desk: the vendor simulator's counter for test traffic. A sandbox key's
 * prebook and booking go there, whichever vendor its rate came from, so no test booking
 * ever reaches a real vendor. The desk speaks the Hotelbeds protocol (CheckRate, bookings,
 * detail, list, cancellation, under `<simulator>/sandbox`), and books rate keys the client
 * writes itself: what the rate is (hotel, room, board, terms, stay, guests, price), signed
 * with the desk's secret so that nobody else can write one. This file is that key, shared
 * by the platform's adapter (which writes it) and the simulator (which reads it).
 */
export interface SandboxRateTerms {
  /** The vendor's code of the hotel (or the platform's id), and its name. */
  hotelCode: number;
  hotelName: string;
  /** Room code (DBL.ST) and name. */
  roomCode: string;
  roomName: string;
  boardCode: string;
  refundable: boolean;
  /** YYYY-MM-DD. */
  checkIn: string;
  checkOut: string;
  rooms: number;
  adults: number;
  children: number;
  childAges: number[];
  /** The price the desk answers and books at, a decimal in `currency`. */
  net: string;
  currency: string;
}

const PREFIX = 'SBX1';
/** Longer keys are refused before anything is decoded. */
const MAX_KEY_LENGTH = 1500;

function sign(body: string, secret: string): string {
  return createHmac('sha256', secret).update(body).digest('base64url').slice(0, 27);
}

export function encodeSandboxRateKey(terms: SandboxRateTerms, secret: string): string {
  const body = Buffer.from(JSON.stringify(terms)).toString('base64url');
  return `${PREFIX}.${body}.${sign(body, secret)}`;
}

/** The terms of a key this secret signed, or null for anything else. */
export function decodeSandboxRateKey(key: string, secret: string): SandboxRateTerms | null {
  if (key.length > MAX_KEY_LENGTH) return null;
  const [prefix, body, signature, ...rest] = key.split('.');
  if (prefix !== PREFIX || !body || !signature || rest.length > 0) return null;
  const expected = Buffer.from(sign(body, secret));
  const given = Buffer.from(signature);
  if (expected.length !== given.length || !timingSafeEqual(expected, given)) return null;
  try {
    const terms = JSON.parse(Buffer.from(body, 'base64url').toString('utf8')) as SandboxRateTerms;
    const day = /^\d{4}-\d{2}-\d{2}$/;
    const valid =
      Number.isSafeInteger(terms.hotelCode) &&
      typeof terms.hotelName === 'string' &&
      typeof terms.roomCode === 'string' &&
      typeof terms.roomName === 'string' &&
      typeof terms.boardCode === 'string' &&
      typeof terms.refundable === 'boolean' &&
      day.test(terms.checkIn) &&
      day.test(terms.checkOut) &&
      terms.checkOut > terms.checkIn &&
      [terms.rooms, terms.adults, terms.children].every((count) => Number.isInteger(count) && count >= 0) &&
      terms.rooms >= 1 &&
      Array.isArray(terms.childAges) &&
      terms.childAges.every((age) => Number.isInteger(age) && age >= 0 && age <= 17) &&
      /^\d{1,12}(\.\d{1,3})?$/.test(terms.net) &&
      /^[A-Z]{3}$/.test(terms.currency);
    return valid ? terms : null;
  } catch {
    return null;
  }
}
