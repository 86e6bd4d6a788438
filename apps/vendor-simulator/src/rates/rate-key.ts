import { createHmac, timingSafeEqual } from 'node:crypto';
import { BOARDS, type Board, parseDay } from '@hotel/contracts';
import { VENDOR_CODES, type VendorCode } from '../inventory/simulated-inventory';
import { roomCodeOf, roomIdOfCode } from '../inventory/vendor-codes';

/** Rooms of one occupancy: `rooms` rooms, each with `adults` adults and `children` children of these ages. */
export interface Occupancy {
  rooms: number;
  adults: number;
  children: number;
  childAges: number[];
}

/**
 * What a rate key stands for: everything needed to price and book the rate again
 * without the simulator remembering anything of the search that issued it.
 */
export interface RateTerms {
  vendor: VendorCode;
  hotelCode: number;
  roomId: number;
  board: Board;
  refundable: boolean;
  memberRate: boolean;
  /** YYYY-MM-DD. */
  checkIn: string;
  checkOut: string;
  occupancy: Occupancy;
  /** The price step the rate was priced in (see priceEpoch). */
  epoch: number;
  /** Issued by CheckRate: bookable at its price, whatever the rate's type. */
  checked: boolean;
}

/** Longer keys are refused before anything is parsed. */
const MAX_RATE_KEY_LENGTH = 400;

const compactDay = (day: string) => day.replaceAll('-', '');
const isoDay = (compact: string) => (/^\d{8}$/.test(compact) ? `${compact.slice(0, 4)}-${compact.slice(4, 6)}-${compact.slice(6)}` : '');

function sign(body: string, secret: string): string {
  return createHmac('sha256', secret).update(body).digest('base64url').slice(0, 22);
}

/**
 * A rate key in the vendor's manner (its keys are pipe-separated, with the stay first and
 * the occupancy as `rooms~adults~children`), signed with the vendor's secret so that no
 * client can alter it and one vendor refuses another's:
 *
 *   20270615|20270617|W|atlas|302915401|DBL.ST|NOR|BB|-|1~2~1|8|2021745|A@<signature>
 *
 * stay, W, vendor, hotel code, room code, rate class (NOR refundable, NRF not), board,
 * member rate (M or -), occupancy, children's ages (~-separated), price step, and A (from
 * availability) or C (from CheckRate). Clients treat it as opaque, as the vendor asks.
 */
export function encodeRateKey(terms: RateTerms, secret: string): string {
  const { occupancy } = terms;
  const body = [
    compactDay(terms.checkIn),
    compactDay(terms.checkOut),
    'W',
    terms.vendor,
    terms.hotelCode,
    roomCodeOf({ roomId: terms.roomId }),
    terms.refundable ? 'NOR' : 'NRF',
    terms.board,
    terms.memberRate ? 'M' : '-',
    `${occupancy.rooms}~${occupancy.adults}~${occupancy.children}`,
    occupancy.childAges.join('~'),
    terms.epoch,
    terms.checked ? 'C' : 'A',
  ].join('|');
  return `${body}@${sign(body, secret)}`;
}

/** The terms of a key this vendor issued; null for anything else (altered, another vendor's, malformed). */
export function decodeRateKey(key: string, vendor: VendorCode, secret: string): RateTerms | null {
  if (typeof key !== 'string' || key.length > MAX_RATE_KEY_LENGTH) return null;
  const at = key.lastIndexOf('@');
  if (at < 0) return null;
  const body = key.slice(0, at);
  const given = Buffer.from(key.slice(at + 1));
  const expected = Buffer.from(sign(body, secret));
  if (given.length !== expected.length || !timingSafeEqual(given, expected)) return null;
  const parts = body.split('|');
  if (parts.length !== 13) return null;
  const [checkIn, checkOut, , keyVendor, hotelCode, roomCode, rateClass, board, member, occupancyText, agesText, epoch, origin] = parts;
  const occupancy = /^(\d+)~(\d+)~(\d+)$/.exec(occupancyText);
  const roomId = roomIdOfCode(roomCode);
  const childAges = agesText === '' ? [] : agesText.split('~').map(Number);
  if (
    keyVendor !== vendor ||
    !(VENDOR_CODES as readonly string[]).includes(keyVendor) ||
    !parseDay(isoDay(checkIn)) ||
    !parseDay(isoDay(checkOut)) ||
    !/^\d+$/.test(hotelCode) ||
    roomId === undefined ||
    (rateClass !== 'NOR' && rateClass !== 'NRF') ||
    !(BOARDS as readonly string[]).includes(board) ||
    (member !== 'M' && member !== '-') ||
    !occupancy ||
    !/^\d+$/.test(epoch) ||
    (origin !== 'A' && origin !== 'C') ||
    childAges.some((age) => !Number.isInteger(age))
  ) {
    return null;
  }
  return {
    vendor,
    hotelCode: Number(hotelCode),
    roomId,
    board: board as Board,
    refundable: rateClass === 'NOR',
    memberRate: member === 'M',
    checkIn: isoDay(checkIn),
    checkOut: isoDay(checkOut),
    occupancy: { rooms: Number(occupancy[1]), adults: Number(occupancy[2]), children: Number(occupancy[3]), childAges },
    epoch: Number(epoch),
    checked: origin === 'C',
  };
}
