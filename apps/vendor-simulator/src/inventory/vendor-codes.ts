import type { Board } from '@hotel/contracts';
import { hotelById, type Hotel, type Language, type VendorCode } from './simulated-inventory';

/**
 * The codes the simulated vendors give the catalog's things, in the vendor's vocabulary.
 *
 * Hotel codes: for now a vendor's hotel code is the platform's own hotel id, so the
 * platform's content import (which matches hotels by the vendor's codes) finds them at
 * once. A real vendor has codes of its own; `hotelCodeOfId` and `hotelIdOfCode` are the
 * one place to give the simulated vendors theirs (everything else goes through them).
 */
export function hotelCodeOfId(hotelId: number): number {
  return hotelId;
}

export function hotelIdOfCode(code: number): number {
  return code;
}

export function hotelCodeOf(hotel: Hotel): number {
  return hotelCodeOfId(hotel.id);
}

export function hotelByCode(code: number): Hotel | undefined {
  return Number.isSafeInteger(code) && code > 0 ? hotelById(hotelIdOfCode(code)) : undefined;
}

/** A city's destination code: its GeoNames id (the catalog's cities are GeoNames'). */
export function destinationCodeOf(hotel: Hotel): string {
  return String(hotel.city.geonameId);
}

/** Room codes as the vendor writes them: the catalog's (`TYPE.CHARACTERISTIC`, DBL.ST). */
export { roomCodeOf, roomCodeParts, roomIdOfCode } from './simulated-inventory';

export const BOARD_NAMES: Record<Board, string> = {
  RO: 'ROOM ONLY',
  BB: 'BED AND BREAKFAST',
  HB: 'HALF BOARD',
  FB: 'FULL BOARD',
  AI: 'ALL INCLUSIVE',
};

export const BOARD_CODES = Object.keys(BOARD_NAMES) as Board[];

/** Category codes: `4EST` for four stars, `H3_5` for three and a half. */
export function categoryOf(hotel: Hotel): { code: string; name: string; group: string } {
  const whole = Math.floor(hotel.stars);
  const half = hotel.stars !== whole;
  return {
    code: half ? `H${whole}_5` : `${whole}EST`,
    name: half ? `${whole}.5 STARS` : `${whole} STARS`,
    group: `GRUPO${whole}`,
  };
}

const ACCOMMODATION_TYPES: Record<Hotel['type'], string> = {
  hotel: 'HOTEL',
  resort: 'RESORT',
  boutique: 'HOTEL',
  apartment: 'APARTMENT',
  hostel: 'HOSTEL',
  guesthouse: 'GUESTHOUSE',
  aparthotel: 'APTHOTEL',
  motel: 'MOTEL',
};

export function accommodationTypeOf(hotel: Hotel): string {
  return ACCOMMODATION_TYPES[hotel.type];
}

/**
 * Facility codes for the catalog's amenities (the Content API's `facilities`: a code and
 * its group). The numbers are the simulator's own: the vendor publishes its list under
 * /types/facilities, which the simulator does not serve.
 */
export const FACILITY_CODES: Record<string, { facilityCode: number; facilityGroupCode: number }> = {
  wifi: { facilityCode: 261, facilityGroupCode: 60 },
  parking: { facilityCode: 320, facilityGroupCode: 70 },
  pool: { facilityCode: 363, facilityGroupCode: 73 },
  gym: { facilityCode: 470, facilityGroupCode: 74 },
  spa: { facilityCode: 460, facilityGroupCode: 74 },
  restaurant: { facilityCode: 200, facilityGroupCode: 71 },
  bar: { facilityCode: 130, facilityGroupCode: 71 },
  room_service: { facilityCode: 250, facilityGroupCode: 70 },
  airport_shuttle: { facilityCode: 562, facilityGroupCode: 70 },
  pet_friendly: { facilityCode: 535, facilityGroupCode: 70 },
  air_conditioning: { facilityCode: 180, facilityGroupCode: 60 },
  laundry: { facilityCode: 240, facilityGroupCode: 70 },
  business_centre: { facilityCode: 575, facilityGroupCode: 70 },
  kids_club: { facilityCode: 555, facilityGroupCode: 74 },
  beach_access: { facilityCode: 20, facilityGroupCode: 40 },
  '24h_front_desk': { facilityCode: 260, facilityGroupCode: 70 },
  non_smoking_rooms: { facilityCode: 10, facilityGroupCode: 60 },
  elevator: { facilityCode: 100, facilityGroupCode: 70 },
  breakfast: { facilityCode: 264, facilityGroupCode: 71 },
  ev_charging: { facilityCode: 603, facilityGroupCode: 70 },
};

/** The vendor's language codes (ENG, CAS…) of the catalog's languages. */
const LANGUAGE_CODES: Record<string, Language> = { ENG: 'en', CAS: 'es', FRA: 'fr', POR: 'pt' };

/** The catalog language of a vendor language code; English for one the catalog has no texts in. */
export function catalogLanguage(code: string | undefined): { language: Language; code: string } {
  const language = code ? LANGUAGE_CODES[code.toUpperCase()] : undefined;
  return language ? { language, code: code!.toUpperCase() } : { language: 'en', code: 'ENG' };
}

export function vendorLanguageCode(language: Language): string {
  return Object.entries(LANGUAGE_CODES).find(([, value]) => value === language)![0];
}

/** Each vendor's office (its booking references' prefix, `101-1000001`) and the VAT number it writes as supplier. */
export const VENDOR_OFFICES: Record<VendorCode, { office: string; vatNumber: string }> = {
  atlas: { office: '101', vatNumber: 'ESB00000101' },
  borealis: { office: '102', vatNumber: 'GB000000102' },
  cobalt: { office: '103', vatNumber: 'US000000103' },
};
