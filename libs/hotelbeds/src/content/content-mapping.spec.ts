import { readFileSync } from 'node:fs';
import { join } from 'node:path';
import { findPlace } from '@hotel/inventory';
import { readContentHotelsRS } from '../answer-readers';
import type { ContentHotel } from '../wire';
import { catalogHotelOf, comparableHotelName, contentCoordinates, starsOfCategory } from './content-mapping';

const example = JSON.parse(readFileSync(join(__dirname, '../../test/fixtures/content-hotels.json'), 'utf8'));
const SALOU = findPlace('gn:3110718') ?? findPlace('cc:ES')!;

describe('a content hotel as a hotel of the catalog', () => {
  it("maps the documentation's hotel: name, description, category, address, contacts, coordinates, rooms and images", () => {
    const [content] = readContentHotelsRS(example.response.body, '').hotels!;
    const hotel = catalogHotelOf(content, 2_000_000_001, SALOU)!;
    expect(hotel).toMatchObject({
      id: 2_000_000_001,
      name: 'Villa Dorada',
      stars: 3,
      type: 'hotel',
      lat: 41.068,
      long: 1.14,
      street: 'Carrer de Ponent, 5',
      postalCode: '43840',
      phone: '+34977000000',
      email: 'reservas@example.com',
      descriptions: { en: 'This hotel is located in Salou.' },
      images: ['https://photos.hotelbeds.com/giata/00/000001/000001a_hb_a_001.jpg'],
      rating: 0,
      reviewCount: 0,
      baseNightCents: 0,
    });
    expect(hotel.city).toBe(SALOU);
    // The booking line before the hotel's own, and none at all when the content gives none.
    const phones = [
      { phoneNumber: '+34 977 111 111', phoneType: 'PHONEHOTEL' },
      { phoneNumber: ' ', phoneType: 'PHONEBOOKING' },
      { phoneNumber: '+34 977 222 222', phoneType: 'PHONEBOOKING' },
    ];
    expect(catalogHotelOf({ ...content, phones }, 2_000_000_001, SALOU)).toMatchObject({ phone: '+34 977 222 222' });
    expect(catalogHotelOf({ ...content, phones: undefined, email: undefined }, 2_000_000_001, SALOU)).toMatchObject({ phone: null, email: null });
    expect(hotel.roomTypes.map((room) => [room.roomId, room.maxAdults, room.maxChildren, room.maxOccupancy])).toEqual([[2, 2, 1, 3]]);
  });

  it('keeps rooms it knows, amenities the hotel has, its own images before rooms\', in visual order', () => {
    const content: ContentHotel = {
      code: 77,
      name: { content: 'Hotel Example' },
      coordinates: { latitude: '48.85', longitude: '2.35' },
      categoryCode: 'H4_5',
      accommodationTypeCode: 'APTHOTEL',
      rooms: [{ roomCode: 'DBL.ST' }, { roomCode: 'XYZ.UNKNOWN' }, { roomCode: 'SGL.ST', maxAdults: 1 }, { roomCode: 'DBL.ST' }],
      images: [
        { path: 'b.jpg', visualOrder: 2 },
        { path: 'a.jpg', visualOrder: 1 },
        { path: 'room.jpg', visualOrder: 1, roomCode: 'DBL.ST' },
      ],
      facilities: [
        { facilityGroupCode: 60, facilityCode: 261, indYesOrNo: true },
        { facilityGroupCode: 73, facilityCode: 363, indYesOrNo: false },
        { facilityGroupCode: 70, facilityCode: 320 },
        { facilityGroupCode: 99, facilityCode: 1 },
      ],
    };
    const hotel = catalogHotelOf(content, 2_000_000_002, findPlace('gn:2988507')!, 'https://img.example/')!;
    expect(hotel.stars).toBe(4.5);
    expect(hotel.type).toBe('aparthotel');
    expect(hotel.roomTypes.map((room) => room.roomId)).toEqual([1, 2]);
    expect(hotel.roomTypes.find((room) => room.roomId === 2)!.images).toEqual(['https://img.example/room.jpg']);
    expect(hotel.images).toEqual(['https://img.example/a.jpg', 'https://img.example/b.jpg']);
    expect(hotel.amenities).toEqual(['wifi', 'parking']);
    expect(hotel.descriptions.en).toBe('Hotel Example');
  });

  it('has no hotel without a name or usable coordinates', () => {
    const paris = findPlace('gn:2988507')!;
    expect(catalogHotelOf({ code: 1, coordinates: { latitude: '48.85', longitude: '2.35' } }, 2_000_000_003, paris)).toBeNull();
    expect(catalogHotelOf({ code: 1, name: { content: 'X' } }, 2_000_000_003, paris)).toBeNull();
    expect(contentCoordinates({ code: 1, coordinates: { latitude: '0', longitude: '0' } })).toBeNull();
    expect(contentCoordinates({ code: 1, coordinates: { latitude: '91', longitude: '2' } })).toBeNull();
    expect(contentCoordinates({ code: 1, coordinates: { latitude: '48.8566001', longitude: '2.3522' } })).toEqual({ lat: 48.8566, long: 2.3522 });
  });

  it.each([
    ['4EST', 4],
    ['H3_5', 3.5],
    ['5LUX', 5],
    ['2LL', 2],
    ['HS', 0],
    [undefined, 0],
  ])('category %s is %d stars', (code, stars) => {
    expect(starsOfCategory(code)).toBe(stars);
  });

  it('compares names without case, accents, punctuation or the word hotel', () => {
    expect(comparableHotelName("Hôtel de l'Europe")).toBe(comparableHotelName('HOTEL DE L EUROPE'));
    expect(comparableHotelName('The Linden  Paris')).toBe('the linden paris');
    expect(comparableHotelName('Hotel Central Paris')).not.toBe(comparableHotelName('Hotel Central Lyon'));
  });
});
