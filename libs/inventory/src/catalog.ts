import { getCountryCallingCode, isSupportedCountry } from 'libphonenumber-js';
import { BedType, HotelDetails, HotelProfile, hotelAnswer } from '@hotel/contracts';
import { Place, citiesWithin, distanceMeters, findPlace, gazetteer } from './gazetteer';
import { SeededRandom, hash32 } from './hash';
import { foldText } from './text';

export const LANGUAGES = ['en', 'fr', 'es', 'pt'] as const;
export type Language = (typeof LANGUAGES)[number];

export const AMENITIES = [
  'wifi', 'parking', 'pool', 'gym', 'spa', 'restaurant', 'bar', 'room_service', 'airport_shuttle', 'pet_friendly',
  'air_conditioning', 'laundry', 'business_centre', 'kids_club', 'beach_access', '24h_front_desk', 'non_smoking_rooms',
  'elevator', 'breakfast', 'ev_charging',
] as const;
export const PROPERTY_TYPES = ['hotel', 'resort', 'boutique', 'apartment', 'hostel', 'guesthouse', 'aparthotel', 'motel'] as const;
export type RoomCategory = 'single' | 'double' | 'twin' | 'triple' | 'family' | 'suite';

export interface RoomType {
  roomId: number;
  name: string;
  category: RoomCategory;
  maxAdults: number;
  maxChildren: number;
  maxOccupancy: number;
  sizeSqm: number;
  beds: BedType[];
  amenities: string[];
  images: string[];
  /** Price relative to the hotel's standard double room. */
  priceFactor: number;
}

export interface Hotel {
  id: number;
  city: Place;
  name: string;
  stars: number;
  rating: number;
  reviewCount: number;
  type: (typeof PROPERTY_TYPES)[number];
  exclusive: boolean;
  chain: string | null;
  amenities: string[];
  images: string[];
  lat: number;
  long: number;
  street: string;
  postalCode: string;
  /** The hotel's telephone (international format), or null when its content gives none. */
  phone: string | null;
  /** Its reservations e-mail address, or null when its content gives none. */
  email: string | null;
  checkInBegin: string;
  checkInEnd: string;
  checkOutBefore: string;
  minimumAge: number;
  descriptions: Partial<Record<Language, string>>;
  roomTypes: RoomType[];
  /** Nightly price of the standard double room before season, weekday and occupancy, in cents. */
  baseNightCents: number;
}

type RoomTemplate = Omit<RoomType, 'images' | 'amenities'>;

/** A room type the catalog knows by id, with no amenities or images of its own (a vendor's content names only the type). */
export function roomTypeOfId(roomId: number): RoomType | undefined {
  const template = ROOM_TEMPLATES.find((candidate) => candidate.roomId === roomId);
  return template && { ...template, amenities: [], images: [] };
}

const ROOM_TEMPLATES: RoomTemplate[] = [
  { roomId: 1, name: 'Single Room', category: 'single', maxAdults: 1, maxChildren: 0, maxOccupancy: 1, sizeSqm: 14, priceFactor: 0.8, beds: [{ name: 'Single', size: '90x200', quantity: 1 }] },
  { roomId: 2, name: 'Standard Double Room', category: 'double', maxAdults: 2, maxChildren: 1, maxOccupancy: 3, sizeSqm: 20, priceFactor: 1, beds: [{ name: 'Double', size: '140x200', quantity: 1 }] },
  { roomId: 3, name: 'Twin Room', category: 'twin', maxAdults: 2, maxChildren: 1, maxOccupancy: 3, sizeSqm: 22, priceFactor: 1, beds: [{ name: 'Single', size: '90x200', quantity: 2 }] },
  { roomId: 4, name: 'Superior King Room', category: 'double', maxAdults: 2, maxChildren: 2, maxOccupancy: 3, sizeSqm: 28, priceFactor: 1.25, beds: [{ name: 'King', size: '180x200', quantity: 1 }] },
  { roomId: 5, name: 'Triple Room', category: 'triple', maxAdults: 3, maxChildren: 1, maxOccupancy: 4, sizeSqm: 30, priceFactor: 1.35, beds: [{ name: 'Double', size: '140x200', quantity: 1 }, { name: 'Single', size: '90x200', quantity: 1 }] },
  { roomId: 6, name: 'Family Room', category: 'family', maxAdults: 4, maxChildren: 3, maxOccupancy: 5, sizeSqm: 38, priceFactor: 1.6, beds: [{ name: 'Queen', size: '160x200', quantity: 1 }, { name: 'Single', size: '90x200', quantity: 2 }] },
  { roomId: 7, name: 'Junior Suite', category: 'suite', maxAdults: 3, maxChildren: 2, maxOccupancy: 4, sizeSqm: 45, priceFactor: 2, beds: [{ name: 'King', size: '180x200', quantity: 1 }, { name: 'Sofa bed', size: '140x190', quantity: 1 }] },
  { roomId: 8, name: 'Two-Bedroom Suite', category: 'suite', maxAdults: 6, maxChildren: 4, maxOccupancy: 8, sizeSqm: 75, priceFactor: 3, beds: [{ name: 'King', size: '180x200', quantity: 2 }, { name: 'Sofa bed', size: '140x190', quantity: 1 }] },
];
const ROOM_AMENITIES = ['wifi', 'air_conditioning', 'tv', 'minibar', 'safe', 'desk', 'hairdryer', 'coffee_maker', 'bathtub', 'balcony', 'sea_view', 'iron'];
const CHAINS = ['Meridian', 'Aurora', 'Harbor', 'Solstice', 'Cedar'];
const NAME_STYLES = [
  (city: string, random: SeededRandom) => `Hotel ${random.pick(['Central', 'Royal', 'Plaza', 'Panorama', 'Europa', 'Continental', 'Park', 'Riverside'])} ${city}`,
  (city: string, random: SeededRandom) => `${city} ${random.pick(['Grand Hotel', 'Inn', 'Suites', 'Boutique Hotel', 'Lodge', 'Palace', 'Residences'])}`,
  (city: string, random: SeededRandom) => `The ${random.pick(['Linden', 'Harbour', 'Old Town', 'Garden', 'Skyline', 'Station', 'Market'])} ${city}`,
];
const STREETS = ['Main Street', 'Station Road', 'Market Square', 'Park Avenue', 'Harbour Road', 'Church Street', 'High Street', 'Central Boulevard'];

const DESCRIPTION_TEMPLATES: Record<Language, (h: { name: string; city: string; stars: number; type: string; amenities: string }) => string> = {
  en: (h) => `${h.name} is a ${h.stars}-star ${h.type} in ${h.city}, close to the main sights. Guests enjoy ${h.amenities}.`,
  fr: (h) => `${h.name} est un établissement ${h.stars} étoiles (${h.type}) à ${h.city}, proche des principaux sites. Les clients profitent de : ${h.amenities}.`,
  es: (h) => `${h.name} es un ${h.type} de ${h.stars} estrellas en ${h.city}, cerca de los principales lugares de interés. Los huéspedes disfrutan de ${h.amenities}.`,
  pt: (h) => `${h.name} é um ${h.type} de ${h.stars} estrelas em ${h.city}, perto das principais atrações. Os hóspedes desfrutam de ${h.amenities}.`,
};

/** Hotel ids are `geonameId * 100 + n`: stable, and the city is known from the id alone. */
const HOTELS_PER_CITY_MAX = 99;

/**
 * Hotels the platform learnt of from a vendor's content (none of the generated catalog's)
 * get ids from here up to the largest integer id: above every `geonameId * 100 + n`, so an
 * id alone says which of the two holds a hotel.
 */
export const IMPORTED_HOTEL_ID_BASE = 2_000_000_000;

export function isImportedHotelId(id: number): boolean {
  return id >= IMPORTED_HOTEL_ID_BASE;
}

export function hotelCountFor(population: number): number {
  return Math.min(HOTELS_PER_CITY_MAX, Math.max(1, Math.round(1.2 * 2 ** (Math.log10(Math.max(population, 1000)) - 2.5))));
}

function imageUrls(kind: string, id: number, count: number): string[] {
  return Array.from({ length: count }, (_, i) => `https://images.hotel-booking.example/${kind}/${id}/${i + 1}.jpg`);
}

/** How far from its centre a city's hotels are: further out in bigger cities (a place search of the city looks this far). */
export function citySpreadMeters(city: Place): number {
  return 800 + Math.min(6000, Math.sqrt(city.population) * 2);
}

/**
 * The generated hotel number `index` of a city (the catalog holds 1 to hotelCountFor; the
 * vendor simulator also carries number 0, a hotel only a vendor knows).
 */
export function generatedHotel(city: Place, index: number): Hotel {
  const id = city.geonameId! * 100 + index;
  // One seeded stream per hotel; the order of draws below is part of the catalog's identity.
  const random = new SeededRandom(hash32(id, 'hotel'));
  const stars = random.between(2, 5) + (random.next() < 0.15 ? 0.5 : 0);
  const type = random.next() < 0.6 ? 'hotel' : random.pick(PROPERTY_TYPES);
  const amenities = random.pickSome(AMENITIES, random.between(4, 12) + Math.floor(stars));
  const chain = random.next() < 0.3 ? random.pick(CHAINS) : null;
  const style = random.pick(NAME_STYLES);
  const branch = random.pick(['Centre', 'Airport', 'Old Town', 'Riverside', 'North', 'South']);
  const name = chain ? `${chain} ${city.name}${index > 1 ? ` ${branch}` : ''}` : style(city.name, random);
  const spreadMeters = citySpreadMeters(city);
  const angle = random.next() * 2 * Math.PI;
  const distance = Math.sqrt(random.next()) * spreadMeters;
  const lat = city.lat + (distance * Math.cos(angle)) / 111_000;
  const long = city.long + (distance * Math.sin(angle)) / (111_000 * Math.max(0.05, Math.cos((city.lat * Math.PI) / 180)));
  const templates = [ROOM_TEMPLATES[1], ...random.pickSome(ROOM_TEMPLATES.filter((t) => t.roomId !== 2), random.between(2, 4))];
  const roomTypes = templates
    .sort((a, b) => a.roomId - b.roomId)
    .map((template) => ({
      ...template,
      amenities: random.pickSome(ROOM_AMENITIES, random.between(4, 9)),
      images: imageUrls(`hotels/${id}/rooms`, template.roomId, 3),
    }));
  const amenityText = amenities.slice(0, 4).join(', ').replace(/_/g, ' ');
  const descriptions: Partial<Record<Language, string>> = {};
  for (const language of LANGUAGES) {
    // Some hotels have no translation in a language: callers fall back to English.
    const translated = random.next() >= 0.12;
    if (language === 'en' || translated) {
      descriptions[language] = DESCRIPTION_TEMPLATES[language]({ name, city: city.name, stars, type, amenities: amenityText });
    }
  }
  const cityFactor = 0.75 + Math.log10(Math.max(city.population, 1000)) / 12;
  const baseNightCents = Math.round((35 + stars * stars * 14) * cityFactor * (0.8 + random.next() * 0.45) * 100);
  return {
    id,
    city,
    name,
    stars,
    rating: Math.round((2.8 + random.next() * 1.4 + (stars - 2) * 0.2) * 10) / 10,
    reviewCount: random.between(5, 4000),
    type,
    exclusive: random.next() < 0.05,
    chain,
    amenities,
    images: imageUrls('hotels', id, random.between(3, 8)),
    lat: Math.round(lat * 1e6) / 1e6,
    long: Math.round(long * 1e6) / 1e6,
    street: `${random.between(1, 240)} ${random.pick(STREETS)}`,
    postalCode: String(random.between(10000, 99999)),
    ...contactOf(id, name, city),
    checkInBegin: random.pick(['14:00', '15:00', '16:00']),
    checkInEnd: random.pick(['22:00', '23:59', '00:00']),
    checkOutBefore: random.pick(['10:00', '11:00', '12:00']),
    minimumAge: random.pick([18, 18, 18, 21]),
    descriptions,
    roomTypes,
    baseNightCents,
  };
}

/**
 * A generated hotel's telephone, with its country's calling code, and e-mail at a domain of
 * its name under `.example` (reserved: it reaches nobody). Drawn from a hash of its own, so
 * the catalog's other draws stay as they were.
 */
function contactOf(id: number, name: string, city: Place): { phone: string | null; email: string } {
  const digits = String(hash32(id, 'phone') % 1_000_000_000).padStart(9, '0');
  const phone = isSupportedCountry(city.countryCode) ? `+${getCountryCallingCode(city.countryCode)} ${digits.slice(0, 3)} ${digits.slice(3, 6)} ${digits.slice(6)}` : null;
  const domain = foldText(name).replace(/ /g, '-').slice(0, 50) || `hotel-${id}`;
  return { phone, email: `reservations@${domain}.example` };
}

const cityHotels = new Map<number, Hotel[]>();
/**
 * Cities whose hotels a process keeps, least recently used out first: about 22 KB a city
 * on average (a city of 99 hotels about 190 KB), so at most some 45–90 MB; a city
 * generated again costs at most about 0.7 ms.
 */
const CITY_CACHE_SIZE = 2_000;

/** A city's hotels (static data, generated on demand; the recently used cities are kept). */
export function hotelsForCity(city: Place): Hotel[] {
  const cached = cityHotels.get(city.geonameId!);
  if (cached) {
    cityHotels.delete(city.geonameId!);
    cityHotels.set(city.geonameId!, cached);
    return cached;
  }
  const hotels = Array.from({ length: hotelCountFor(city.population) }, (_, i) => generatedHotel(city, i + 1));
  if (cityHotels.size >= CITY_CACHE_SIZE) cityHotels.delete(cityHotels.keys().next().value!);
  cityHotels.set(city.geonameId!, hotels);
  return hotels;
}

export function hotelById(id: number): Hotel | undefined {
  const city = gazetteer().cityById.get(Math.floor(id / 100));
  const index = id % 100;
  if (!city || index < 1 || index > hotelCountFor(city.population)) return undefined;
  return hotelsForCity(city)[index - 1];
}

/** A city's hotels, or for a country the hotels of its biggest cities, at most `cap`. */
export function hotelsForPlace(placeId: string, cap = 500): Hotel[] | undefined {
  const place = findPlace(placeId);
  if (!place) return undefined;
  if (place.kind === 'city') return hotelsForCity(place).slice(0, cap);
  const hotels: Hotel[] = [];
  for (const city of gazetteer().citiesByCountry.get(place.countryCode) ?? []) {
    hotels.push(...hotelsForCity(city));
    if (hotels.length >= cap) break;
  }
  return hotels.slice(0, cap);
}

/** Hotels within `radiusMeters` of a point, nearest first. */
export function hotelsNear(lat: number, long: number, radiusMeters: number, cap = 5000): Hotel[] {
  const margin = 8000;
  const hotels = citiesWithin(lat, long, radiusMeters + margin)
    .flatMap((city) => hotelsForCity(city))
    .map((hotel) => ({ hotel, distance: distanceMeters(lat, long, hotel.lat, hotel.long) }))
    .filter(({ distance }) => distance <= radiusMeters)
    .sort((a, b) => a.distance - b.distance);
  return hotels.slice(0, cap).map(({ hotel }) => hotel);
}

export function description(hotel: Hotel, language: Language = 'en'): string {
  return hotel.descriptions[language] ?? hotel.descriptions.en!;
}

/** A hotel as the services describe it, in `language` (without rates). */
export function toHotelProfile(hotel: Hotel, language: Language = 'en'): HotelProfile {
  return {
    id: hotel.id,
    name: hotel.name,
    stars: hotel.stars,
    rating: hotel.rating,
    reviewCount: hotel.reviewCount,
    minimumAge: hotel.minimumAge,
    amenities: hotel.amenities,
    checkInFrom: hotel.checkInBegin,
    checkInUntil: hotel.checkInEnd,
    checkOutBefore: hotel.checkOutBefore,
    description: description(hotel, language),
    images: hotel.images,
    coordinates: { lat: hotel.lat, long: hotel.long },
    address: { street: hotel.street, city: hotel.city.name, country: hotel.city.countryName, postalCode: hotel.postalCode, region: hotel.city.region },
    // A hotel imported before contacts were: none.
    phone: hotel.phone ?? null,
    email: hotel.email ?? null,
    type: hotel.type,
    exclusive: hotel.exclusive,
  };
}

/** The booking API's HotelDetails, as prebooks and bookings still store it; the lowest rates are filled in by whoever priced the hotel. */
export function toHotelDetails(hotel: Hotel, language: Language = 'en'): HotelDetails {
  return hotelAnswer(toHotelProfile(hotel, language));
}
