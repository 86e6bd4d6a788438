import type { Board } from '@hotel/contracts';
import { LRUCache } from 'lru-cache';
import { generatedHotel, gazetteer, hotelById, type Hotel, type Language, type VendorCode } from './simulated-inventory';

/**
 * The codes the simulated vendors give the catalog's things, in the vendor's vocabulary.
 *
 * Hotel codes: by default a vendor's hotel code is the platform's own hotel id (the platform
 * asks the simulated vendors by its ids: they share its generated catalog). As a stand-in
 * for a real vendor (SIMULATOR_HOTEL_CODE_OFFSET), the codes are the ids plus an offset, so
 * the platform knows them only from a content import; with SIMULATOR_VENDOR_ONLY_HOTELS,
 * every city also has a hotel the platform's catalog does not (number 0 of the city), which
 * every vendor carries. `hotelCodeOfId` and `hotelIdOfCode` are the one place codes are made.
 */
let codeOffset = 0;
let vendorOnlyHotels = false;
const vendorOnly = new LRUCache<number, Hotel>({ max: 10_000 });

export function configureHotelCodes(options: { offset: number; vendorOnlyHotels: boolean }): void {
  codeOffset = options.offset;
  vendorOnlyHotels = options.vendorOnlyHotels;
  vendorOnly.clear();
}

/** Whether the simulated vendors carry a hotel number 0 in every city. */
export function carriesVendorOnlyHotels(): boolean {
  return vendorOnlyHotels;
}

/** Whether a hotel id is one only the vendors know (a city's number 0). */
export function isVendorOnlyHotel(hotelId: number): boolean {
  return vendorOnlyHotels && hotelId % 100 === 0;
}

export function hotelCodeOfId(hotelId: number): number {
  return hotelId + codeOffset;
}

export function hotelIdOfCode(code: number): number {
  return code - codeOffset;
}

export function hotelCodeOf(hotel: Hotel): number {
  return hotelCodeOfId(hotel.id);
}

export function hotelByCode(code: number): Hotel | undefined {
  if (!Number.isSafeInteger(code) || code <= codeOffset) return undefined;
  const id = hotelIdOfCode(code);
  return isVendorOnlyHotel(id) ? vendorOnlyHotel(id) : hotelById(id);
}

/** A city's hotel number 0: generated as the catalog's are, under a name of its own. */
function vendorOnlyHotel(id: number): Hotel | undefined {
  let hotel = vendorOnly.get(id);
  if (!hotel) {
    const city = gazetteer().cityById.get(id / 100);
    if (!city) return undefined;
    const generated = generatedHotel(city, 0);
    hotel = { ...generated, name: `${generated.name} Annex` };
    vendorOnly.set(id, hotel);
  }
  return hotel;
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

/** Facility codes for the catalog's amenities: the ones the platform's content import reads back. */
export { AMENITY_FACILITY_CODES as FACILITY_CODES } from '@hotel/hotelbeds';

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
