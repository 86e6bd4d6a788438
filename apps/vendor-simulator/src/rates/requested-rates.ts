import { invalidData, productError } from '../http/vendor-errors';
import { VENDORS, type Hotel, type VendorCode } from '../inventory/simulated-inventory';
import { carriedHotel } from '../content/content-hotels';
import { checkStay } from '../protocol/request-parts';
import { decodeRateKey, type RateTerms } from './rate-key';
import { isOffered } from './vendor-rates';

/** The rates a CheckRate or booking request names: one hotel, one stay, each still offered. */
export interface RequestedRates {
  hotel: Hotel;
  checkIn: string;
  checkOut: string;
  terms: RateTerms[];
}

/**
 * Reads the rate keys of a request: every key this vendor's own, all of one hotel and
 * stay (a booking is one hotel's), the stay still sellable, each rate still offered.
 */
export function requestedRates(vendor: VendorCode, secret: string, rateKeys: string[], now: number): RequestedRates {
  const terms = rateKeys.map((key, index) => {
    const decoded = decodeRateKey(key, vendor, secret);
    if (!decoded) throw invalidData(`rooms[${index}].rateKey is not a rate key of this vendor`);
    return decoded;
  });
  const [first] = terms;
  if (terms.some((term) => term.hotelCode !== first.hotelCode || term.checkIn !== first.checkIn || term.checkOut !== first.checkOut)) {
    throw invalidData('all rate keys of a request must be of one hotel and one stay');
  }
  checkStay(first.checkIn, first.checkOut, now);
  const hotel = carriedHotel(VENDORS[vendor], first.hotelCode);
  if (!hotel || terms.some((term) => !isOffered(hotel, term))) throw productError('The rate is no longer available');
  return { hotel, checkIn: first.checkIn, checkOut: first.checkOut, terms };
}

/** Rooms asked of each room type, summed over the request's rates. */
export function roomsWanted(terms: readonly RateTerms[]): Map<number, number> {
  const wanted = new Map<number, number>();
  for (const term of terms) wanted.set(term.roomId, (wanted.get(term.roomId) ?? 0) + term.occupancy.rooms);
  return wanted;
}
