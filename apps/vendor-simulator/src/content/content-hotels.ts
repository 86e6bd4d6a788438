import type { ContentHotel } from '@hotel/hotelbeds';
import { description, gazetteer, hotelCountFor, vendorCarries, type Hotel, type Language, type Vendor } from '../inventory/simulated-inventory';
import {
  FACILITY_CODES,
  accommodationTypeOf,
  categoryOf,
  destinationCodeOf,
  hotelByCode,
  hotelCodeOf,
  hotelCodeOfId,
  hotelIdOfCode,
  carriesVendorOnlyHotels,
  isVendorOnlyHotel,
  roomCodeOf,
  roomCodeParts,
} from '../inventory/vendor-codes';

/** The catalog is generated, not edited: every hotel's content dates from this day. */
export const CATALOG_LAST_UPDATE = '2025-01-01';

/** Where the catalog's image URLs start; the Content API gives paths under it, as the vendor does under its own. */
const IMAGE_BASE = 'https://images.hotel-booking.example/';

/**
 * A hotel as the Content API writes it. Coordinates are JSON numbers (as the vendor's
 * hotels answer has them) and `facilities` is there too, which the platform's client
 * does not read yet.
 */
export type ContentHotelAnswer = Omit<ContentHotel, 'coordinates'> & {
  coordinates?: { longitude: number; latitude: number };
  facilities?: { facilityCode: number; facilityGroupCode: number; order: number; indYesOrNo: boolean }[];
};

export const CONTENT_FIELDS = [
  'name',
  'description',
  'countryCode',
  'destinationCode',
  'coordinates',
  'categoryCode',
  'categoryGroupCode',
  'chainCode',
  'accommodationTypeCode',
  'boardCodes',
  'address',
  'postalCode',
  'city',
  'email',
  'phones',
  'lastUpdate',
  'rooms',
  'images',
  'facilities',
] as const;
export type ContentField = (typeof CONTENT_FIELDS)[number];

const codesByVendor = new Map<string, number[]>();

/**
 * The codes of every hotel a vendor carries, in the catalog's order (its cities in
 * gazetteer order, then each city's hotels), computed once: hotel ids follow from the
 * cities alone, and whether the vendor carries one from its id.
 */
export function vendorHotelCodes(vendor: Vendor): number[] {
  const cacheKey = `${vendor.code}:${hotelCodeOfId(0)}:${carriesVendorOnlyHotels()}`;
  let codes = codesByVendor.get(cacheKey);
  if (!codes) {
    codes = [];
    for (const place of gazetteer().places) {
      if (place.kind !== 'city') continue;
      const count = hotelCountFor(place.population);
      for (let index = carriesVendorOnlyHotels() ? 0 : 1; index <= count; index++) {
        const id = place.geonameId! * 100 + index;
        if (isVendorOnlyHotel(id) || vendorCarries(vendor, id)) codes.push(hotelCodeOfId(id));
      }
    }
    codesByVendor.set(cacheKey, codes);
  }
  return codes;
}

/** A hotel of the catalog the vendor carries, by the vendor's code; undefined otherwise. */
export function carriedHotel(vendor: Vendor, code: number): Hotel | undefined {
  const hotel = hotelByCode(code);
  return hotel && (isVendorOnlyHotel(hotel.id) || vendorCarries(vendor, hotel.id)) ? hotel : undefined;
}

export interface ContentSelection {
  codes?: number[];
  countryCode?: string;
  destinationCode?: string;
  lastUpdateTime?: string;
}

/** The codes of the vendor's hotels a content query selects, in the vendor's order. */
export function selectHotelCodes(vendor: Vendor, selection: ContentSelection): number[] {
  if (selection.lastUpdateTime !== undefined && selection.lastUpdateTime > CATALOG_LAST_UPDATE) return [];
  let codes: number[];
  if (selection.codes) {
    codes = [...new Set(selection.codes)].filter((code) => carriedHotel(vendor, code) !== undefined).sort((a, b) => a - b);
  } else {
    codes = vendorHotelCodes(vendor);
  }
  if (selection.countryCode !== undefined || selection.destinationCode !== undefined) {
    const { cityById } = gazetteer();
    const country = selection.countryCode?.toUpperCase();
    codes = codes.filter((code) => {
      // A hotel id names its city: geonameId * 100 + n (see the catalog).
      const city = cityById.get(Math.floor(hotelIdOfCode(code) / 100));
      return city !== undefined && (country === undefined || city.countryCode === country) && (selection.destinationCode === undefined || String(city.geonameId) === selection.destinationCode);
    });
  }
  return codes;
}

/** A hotel's content in a language (`languageCode`: the vendor's code of it), with the fields asked for. */
export function contentHotel(hotel: Hotel, vendor: Vendor, language: { language: Language; code: string }, fields: ReadonlySet<ContentField>): ContentHotelAnswer {
  const category = categoryOf(hotel);
  const all: Required<Pick<ContentHotelAnswer, ContentField>> = {
    name: { content: hotel.name },
    description: { content: description(hotel, language.language), languageCode: hotel.descriptions[language.language] ? language.code : 'ENG' },
    countryCode: hotel.city.countryCode,
    destinationCode: destinationCodeOf(hotel),
    coordinates: { longitude: hotel.long, latitude: hotel.lat },
    categoryCode: category.code,
    categoryGroupCode: category.group,
    chainCode: hotel.chain ? hotel.chain.toUpperCase() : '',
    accommodationTypeCode: accommodationTypeOf(hotel),
    boardCodes: [...vendor.boards],
    address: { content: hotel.street },
    postalCode: hotel.postalCode,
    city: { content: hotel.city.name.toUpperCase() },
    email: hotel.email ?? '',
    phones: hotel.phone ? [{ phoneNumber: hotel.phone, phoneType: 'PHONEBOOKING' }] : [],
    lastUpdate: CATALOG_LAST_UPDATE,
    rooms: hotel.roomTypes.map((room) => {
      const parts = roomCodeParts(room);
      return {
        roomCode: roomCodeOf(room),
        roomType: parts.type,
        characteristicCode: parts.characteristic,
        minPax: 1,
        maxPax: room.maxOccupancy,
        maxAdults: room.maxAdults,
        maxChildren: room.maxChildren,
      };
    }),
    images: [
      ...hotel.images.map((url, index) => ({ imageTypeCode: 'GEN', path: imagePath(url), order: index + 1, visualOrder: index + 1 })),
      ...hotel.roomTypes.flatMap((room) =>
        room.images.map((url, index) => ({ imageTypeCode: 'HAB', path: imagePath(url), order: index + 1, visualOrder: index + 1, roomCode: roomCodeOf(room) })),
      ),
    ],
    facilities: hotel.amenities
      .filter((amenity) => FACILITY_CODES[amenity] !== undefined)
      .map((amenity, index) => ({ ...FACILITY_CODES[amenity], order: index + 1, indYesOrNo: true })),
  };
  const answer: ContentHotelAnswer = { code: hotelCodeOf(hotel) };
  for (const field of CONTENT_FIELDS) {
    if (!fields.has(field)) continue;
    // A hotel of no chain has no chainCode.
    if (field === 'chainCode' && !hotel.chain) continue;
    (answer as Record<string, unknown>)[field] = all[field];
  }
  return answer;
}

function imagePath(url: string): string {
  return url.startsWith(IMAGE_BASE) ? url.slice(IMAGE_BASE.length) : url;
}
