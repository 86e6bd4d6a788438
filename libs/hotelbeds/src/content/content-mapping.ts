import { Hotel, PROPERTY_TYPES, Place, RoomType, roomIdOfCode, roomTypeOfId } from '@hotel/inventory';
import type { ContentHotel } from '../wire';

/**
 * How a hotel of the vendor's Content API becomes a hotel of the platform's catalog:
 * - name, description (the language imported, as English), address, postal code and
 *   coordinates as given;
 * - stars from the category code: `4EST` is 4, `H3_5` 3.5, any other the first digit in it;
 * - the property type from the accommodation type, `hotel` for one the platform has no word for;
 * - amenities from the facility codes below (one the hotel says it lacks is left out);
 * - images: the hotel's own (not a room's), in the vendor's visual order, under the vendor's image base;
 * - room types by room code (DBL.ST, as availability names them); a code the platform does not know is left out;
 * - what content does not say (check-in times, minimum age) takes the usual values, and there
 *   is no review score (0) until the platform has one.
 */

/** The facility codes (group and code) the platform reads as its amenities. */
export const AMENITY_FACILITY_CODES: Record<string, { facilityCode: number; facilityGroupCode: number }> = {
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

const AMENITY_OF_FACILITY = new Map(Object.entries(AMENITY_FACILITY_CODES).map(([amenity, code]) => [`${code.facilityGroupCode}:${code.facilityCode}`, amenity]));

const PROPERTY_TYPE_OF: Record<string, Hotel['type']> = {
  HOTEL: 'hotel',
  RESORT: 'resort',
  APARTMENT: 'apartment',
  APTHOTEL: 'aparthotel',
  HOSTEL: 'hostel',
  GUESTHOUSE: 'guesthouse',
  MOTEL: 'motel',
};

/** Where the vendor's image paths start (its documentation's photo server). */
export const HOTELBEDS_IMAGE_BASE_URL = 'https://photos.hotelbeds.com/giata/';

/** Stars of a category code: `4EST` 4, `H3_5` 3.5, `5LUX` 5; 0 when it names none. */
export function starsOfCategory(code: string | undefined): number {
  const half = /^H(\d)_5$/.exec(code ?? '');
  if (half) return Number(half[1]) + 0.5;
  const digit = /\d/.exec(code ?? '');
  return digit ? Math.min(5, Number(digit[0])) : 0;
}

/** The coordinates of a content hotel, or null when it has none a map could use. */
export function contentCoordinates(content: ContentHotel): { lat: number; long: number } | null {
  const lat = Number(content.coordinates?.latitude);
  const long = Number(content.coordinates?.longitude);
  if (!Number.isFinite(lat) || !Number.isFinite(long) || Math.abs(lat) > 90 || Math.abs(long) > 180 || (lat === 0 && long === 0)) return null;
  return { lat: Math.round(lat * 1e6) / 1e6, long: Math.round(long * 1e6) / 1e6 };
}

/** The name two vendors' hotels are compared by: case, accents, punctuation and the word "hotel" ignored. */
export function comparableHotelName(name: string): string {
  return name
    .normalize('NFD')
    .replace(/\p{M}/gu, '')
    .toLowerCase()
    .replace(/[^\p{L}\p{N}]+/gu, ' ')
    .split(' ')
    .filter((word) => word !== '' && word !== 'hotel')
    .join(' ');
}

/** The platform's hotel `id` in `city` from the vendor's content; null when it has no name or no coordinates. */
export function catalogHotelOf(content: ContentHotel, id: number, city: Place, imageBaseUrl = HOTELBEDS_IMAGE_BASE_URL): Hotel | null {
  const name = content.name?.content?.trim();
  const at = contentCoordinates(content);
  if (!name || !at) return null;
  const roomTypes: RoomType[] = [];
  for (const room of content.rooms ?? []) {
    const roomId = room.roomCode ? roomIdOfCode(room.roomCode) : undefined;
    const type = roomId === undefined ? undefined : roomTypeOfId(roomId);
    if (!type || roomTypes.some((known) => known.roomId === roomId)) continue;
    roomTypes.push({
      ...type,
      maxAdults: room.maxAdults ?? type.maxAdults,
      maxChildren: room.maxChildren ?? type.maxChildren,
      maxOccupancy: room.maxPax ?? type.maxOccupancy,
      images: imagesOf(content, imageBaseUrl, room.roomCode),
    });
  }
  roomTypes.sort((a, b) => a.roomId - b.roomId);
  const type = PROPERTY_TYPE_OF[content.accommodationTypeCode?.toUpperCase() ?? ''] ?? 'hotel';
  const amenities = [
    ...new Set(
      (content.facilities ?? [])
        .filter((facility) => facility.indYesOrNo !== false)
        .map((facility) => AMENITY_OF_FACILITY.get(`${facility.facilityGroupCode}:${facility.facilityCode}`))
        .filter((amenity): amenity is string => amenity !== undefined),
    ),
  ];
  const description = content.description?.content?.trim();
  return {
    id,
    city,
    name,
    stars: starsOfCategory(content.categoryCode),
    rating: 0,
    reviewCount: 0,
    type: (PROPERTY_TYPES as readonly string[]).includes(type) ? type : 'hotel',
    exclusive: false,
    chain: content.chainCode?.trim() || null,
    amenities,
    images: imagesOf(content, imageBaseUrl),
    lat: at.lat,
    long: at.long,
    street: content.address?.content?.trim() ?? '',
    postalCode: content.postalCode?.trim() ?? '',
    ...contactsOf(content),
    checkInBegin: '14:00',
    checkInEnd: '23:59',
    checkOutBefore: '12:00',
    minimumAge: 18,
    descriptions: { en: description || name },
    roomTypes,
    // Priced by the vendor, never by the platform's own price model.
    baseNightCents: 0,
  };
}

/** The number guests call (a booking line first, then the hotel's, then any) and the e-mail address, from the content. */
function contactsOf(content: ContentHotel): { phone: string | null; email: string | null } {
  const phones = (content.phones ?? []).filter((phone) => phone.phoneNumber?.trim());
  const rank = (type: string | undefined) => ['PHONEBOOKING', 'PHONEHOTEL'].indexOf(type ?? '') + 1 || 3;
  const phone = phones.sort((a, b) => rank(a.phoneType) - rank(b.phoneType))[0]?.phoneNumber?.trim() ?? null;
  const email = content.email?.trim() || null;
  return { phone, email };
}

/** The hotel's images (or one room's), in the vendor's visual order, as full URLs. */
function imagesOf(content: ContentHotel, base: string, roomCode?: string): string[] {
  return (content.images ?? [])
    .filter((image) => image.path && (roomCode === undefined ? !image.roomCode : image.roomCode === roomCode))
    .sort((a, b) => (a.visualOrder ?? a.order ?? 0) - (b.visualOrder ?? b.order ?? 0))
    .map((image) => (/^https?:\/\//.test(image.path!) ? image.path! : `${base}${image.path!.replace(/^\/+/, '')}`));
}
