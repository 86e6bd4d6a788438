import { Type } from 'class-transformer';
import {
  ArrayMaxSize,
  ArrayMinSize,
  IsArray,
  IsBoolean,
  IsDefined,
  IsIn,
  IsInt,
  IsNumber,
  IsOptional,
  IsPositive,
  IsString,
  Matches,
  Max,
  MaxLength,
  Min,
  ValidateNested,
  ValidationArguments,
  registerDecorator,
} from 'class-validator';
import { PricedForActor } from '../users/credentials';
import { MAX_PAGE } from '../common/page-query';
import { MAX_INT_ID, MAX_MONEY_AMOUNT } from '../common/validators';
import { decimalToNumber } from '../common/money';
import { Coordinates, HotelRate } from './hotel';
import { DESTINATION_ID_PATTERN, PLACE_ID_PATTERN, StayQuery } from './search-session';
import { StayRequest } from './stay';

export const V2_SORTS = ['price_asc', 'price_desc', 'stars_desc', 'rating_desc', 'distance_asc'] as const;
export const ROOM_TYPES = ['single', 'double', 'twin', 'triple', 'family', 'suite'] as const;
export const V2_LIMITS = { maxHotelIds: 2000, maxLimit: 2000, defaultLimit: 100, defaultRadius: 5000, maxRadius: 50_000 } as const;

const LOCATION_FIELDS = ['destination_id', 'place_id', 'coordinates', 'hotel_ids'] as const;

export class CoordinatesInput implements Coordinates {
  @IsNumber({ allowNaN: false, allowInfinity: false })
  @Min(-90)
  @Max(90)
  lat: number;

  @IsNumber({ allowNaN: false, allowInfinity: false })
  @Min(-180)
  @Max(180)
  long: number;
}

function PriceRange(name = 'price_range') {
  return (target: object, propertyName: string) =>
    registerDecorator({
      name: 'priceRange',
      target: target.constructor,
      propertyName,
      options: { message: `${name} must be [min, max] with 0 <= min <= max <= ${MAX_MONEY_AMOUNT}` },
      validator: {
        // Bounds of a filter, compared with averages: any decimals, but amounts the platform can hold.
        validate: (value: unknown) =>
          Array.isArray(value) &&
          value.length === 2 &&
          value.every((bound) => typeof bound === 'number' && Number.isFinite(bound) && bound >= 0 && bound <= MAX_MONEY_AMOUNT) &&
          value[0] <= value[1],
      },
    });
}

export class AvailabilityFilter {
  @IsOptional()
  @PriceRange()
  price_range?: [number, number];

  @IsOptional()
  @IsArray()
  @ArrayMaxSize(5)
  @IsInt({ each: true })
  @Min(1, { each: true })
  @Max(5, { each: true })
  star_rating?: number[];

  @IsOptional()
  @IsArray()
  @ArrayMaxSize(20)
  @IsString({ each: true })
  @MaxLength(100, { each: true })
  property_types?: string[];

  @IsOptional()
  @IsArray()
  @ArrayMaxSize(20)
  @IsString({ each: true })
  @MaxLength(100, { each: true })
  amenities?: string[];

  @IsOptional()
  @IsIn(ROOM_TYPES, { message: `room_type must be one of ${ROOM_TYPES.join(', ')}` })
  room_type?: (typeof ROOM_TYPES)[number];

  @IsOptional()
  @IsIn(V2_SORTS, { message: `sort_by must be one of ${V2_SORTS.join(', ')}` })
  sort_by?: (typeof V2_SORTS)[number];
}

function ExactlyOneLocation(fields: readonly string[] = LOCATION_FIELDS) {
  return (target: object, propertyName: string) =>
    registerDecorator({
      name: 'exactlyOneLocation',
      target: target.constructor,
      propertyName,
      options: { message: `give exactly one of ${fields.join(', ')}` },
      validator: {
        // One field given, and not null: a null location names nothing (a search of nowhere).
        validate: (_value: unknown, args: ValidationArguments) => {
          const given = fields.filter((field) => (args.object as Record<string, unknown>)[field] !== undefined);
          return given.length === 1 && (args.object as Record<string, unknown>)[given[0]] !== null;
        },
      },
    });
}

/** Body of `POST /v2/rates`. */
export class V2RatesBody extends StayRequest {
  @ExactlyOneLocation()
  location?: never;

  @IsOptional()
  @Matches(DESTINATION_ID_PATTERN, { message: 'destination_id must be a destination_id from GET /places/search' })
  destination_id?: string;

  @IsOptional()
  @Matches(PLACE_ID_PATTERN, { message: 'place_id must be a place_id from GET /places/search' })
  place_id?: string;

  @IsOptional()
  @ValidateNested()
  @Type(() => CoordinatesInput)
  coordinates?: CoordinatesInput;

  /** Meters around `coordinates`. */
  @IsOptional()
  @IsInt()
  @Min(1)
  @Max(V2_LIMITS.maxRadius)
  radius?: number;

  @IsOptional()
  @IsArray()
  @ArrayMinSize(1)
  @ArrayMaxSize(V2_LIMITS.maxHotelIds)
  @IsInt({ each: true })
  @IsPositive({ each: true })
  @Max(MAX_INT_ID, { each: true })
  hotel_ids?: number[];

  @IsOptional()
  @Matches(/^[A-Z]{2}$/, { message: 'nationality must be an ISO 3166-1 alpha-2 code such as US' })
  nationality?: string;

  @IsOptional()
  @ValidateNested()
  @Type(() => AvailabilityFilter)
  filters?: AvailabilityFilter;

  @IsOptional()
  @IsBoolean()
  search_loyalty_rates?: boolean;

  @IsOptional()
  @IsInt()
  @Min(1)
  @Max(MAX_PAGE, { message: `page must be from 1 to ${MAX_PAGE}` })
  page?: number;

  @IsOptional()
  @IsInt()
  @Min(1)
  @Max(V2_LIMITS.maxLimit)
  limit?: number;
}

/** Which hotels and rates a V2 rates search keeps, in the search service's words. */
export class V2RatesFilter {
  @IsOptional()
  @PriceRange('priceRange')
  priceRange?: [number, number];

  @IsOptional()
  @IsArray()
  @ArrayMaxSize(5)
  @IsInt({ each: true })
  @Min(1, { each: true })
  @Max(5, { each: true })
  starRating?: number[];

  @IsOptional()
  @IsArray()
  @ArrayMaxSize(20)
  @IsString({ each: true })
  @MaxLength(100, { each: true })
  propertyTypes?: string[];

  @IsOptional()
  @IsArray()
  @ArrayMaxSize(20)
  @IsString({ each: true })
  @MaxLength(100, { each: true })
  amenities?: string[];

  @IsOptional()
  @IsIn(ROOM_TYPES)
  roomType?: (typeof ROOM_TYPES)[number];
}

const QUERY_LOCATIONS = ['placeId', 'coordinates', 'hotelIds'] as const;

/** search.v2-rates.search.v3: where (exactly one of a place, coordinates or hotel ids), the stay, and which rates, in the search service's words. */
export class V2RatesQuery extends StayQuery {
  @ExactlyOneLocation(QUERY_LOCATIONS)
  location?: never;

  /** A place id or the same place's destination id. */
  @IsOptional()
  @Matches(new RegExp(`${PLACE_ID_PATTERN.source}|${DESTINATION_ID_PATTERN.source}`), { message: 'placeId must be a place id or a destination id' })
  placeId?: string;

  @IsOptional()
  @ValidateNested()
  @Type(() => CoordinatesInput)
  coordinates?: CoordinatesInput;

  /** Meters around `coordinates` (V2_LIMITS.defaultRadius when not given). */
  @IsOptional()
  @IsInt()
  @Min(1)
  @Max(V2_LIMITS.maxRadius)
  radius?: number;

  @IsOptional()
  @IsArray()
  @ArrayMinSize(1)
  @ArrayMaxSize(V2_LIMITS.maxHotelIds)
  @IsInt({ each: true })
  @IsPositive({ each: true })
  @Max(MAX_INT_ID, { each: true })
  hotelIds?: number[];

  @IsOptional()
  @ValidateNested()
  @Type(() => V2RatesFilter)
  filter?: V2RatesFilter;

  @IsOptional()
  @IsIn(V2_SORTS)
  sortBy?: (typeof V2_SORTS)[number];

  /** Whether members' rates are in the answer. */
  @IsBoolean()
  memberRates: boolean;

  /** The page (1 when not given), of `limit` hotels (V2_LIMITS.defaultLimit, or as many as hotelIds, when not given). */
  @IsOptional()
  @IsInt()
  @Min(1)
  @Max(MAX_PAGE)
  page?: number;

  @IsOptional()
  @IsInt()
  @Min(1)
  @Max(V2_LIMITS.maxLimit)
  limit?: number;
}

/**
 * `POST /v2/rates`'s body (valid: a V2RatesBody) in the search service's words: the one
 * mapping, used by the gateway.
 */
export function v2RatesQueryOf(body: V2RatesBody): V2RatesQuery {
  const filters = body.filters;
  const filter: V2RatesFilter | undefined = filters && {
    ...(filters.price_range && { priceRange: filters.price_range }),
    ...(filters.star_rating && { starRating: filters.star_rating }),
    ...(filters.property_types && { propertyTypes: filters.property_types }),
    ...(filters.amenities && { amenities: filters.amenities }),
    ...(filters.room_type && { roomType: filters.room_type }),
  };
  const placeId = body.place_id ?? body.destination_id;
  return {
    ...(placeId !== undefined && { placeId }),
    ...(body.coordinates && { coordinates: body.coordinates }),
    ...(body.radius !== undefined && { radius: body.radius }),
    ...(body.hotel_ids && { hotelIds: body.hotel_ids }),
    checkIn: body.check_in,
    checkOut: body.check_out,
    rooms: body.rooms.map((room) => ({ adults: room.adults, children: room.children, childAges: room.children_ages })),
    ...(filter && { filter }),
    ...(filters?.sort_by && { sortBy: filters.sort_by }),
    memberRates: body.search_loyalty_rates !== false,
    ...(body.page !== undefined && { page: body.page }),
    ...(body.limit !== undefined && { limit: body.limit }),
  };
}

/**
 * The head of `POST /v2/rates`'s answer (everything but the rates): the request echoed with
 * the defaults it was answered with, and the metadata, amounts as JSON numbers (exact).
 * Rendered by the gateway.
 */
export function v2RatesHeadOf(body: V2RatesBody, head: V2RatesHead): Omit<V2RatesResponse, 'rates'> {
  const echo: Record<string, unknown> = {};
  // The fields the partner sent, in their order (a field left out stays out).
  for (const [field, value] of Object.entries(body)) if (value !== undefined) echo[field] = value;
  return {
    search_completed: head.completed,
    search: { ...echo, nationality: body.nationality ?? 'US', ...(head.radius !== undefined ? { radius: head.radius } : {}), page: head.page, limit: head.limit },
    metadata: {
      total_hotels: head.totalHotels,
      total_pages: head.totalPages,
      max_price_per_night_avg: decimalToNumber(head.maxPricePerNightAvg),
      max_price_inclusive: decimalToNumber(head.maxPriceInclusive),
      nights: head.nights,
      rooms: head.rooms,
      center_coordinates: head.center,
    },
  };
}

/** search.v2-rates.search.v3; the reply comes in chunks (see V2RatesQueryChunk). */
export class V2RatesRequestV3 extends PricedForActor {
  @IsDefined()
  @ValidateNested()
  @Type(() => V2RatesQuery)
  query: V2RatesQuery;
}

/** The head of a V2 rates answer, in the search service's words: what it was answered with, and figures of the whole answer (amounts as decimal strings in the client's currency). */
export interface V2RatesHead {
  /** Every vendor answered in time. */
  completed: boolean;
  page: number;
  limit: number;
  /** For a coordinates search: the radius it used. */
  radius?: number;
  totalHotels: number;
  totalPages: number;
  maxPricePerNightAvg: string;
  maxPriceInclusive: string;
  nights: number;
  rooms: number;
  center: Coordinates;
}

/**
 * search.v2-rates.search.v3's messages. NATS carries at most 1 MB a message, and 2000 hotels'
 * rates are more: the search service answers with a head (everything but the rates), then the
 * rates in chunks of raw UTF-8 JSON bytes (the API's HotelRate objects joined by commas, no
 * brackets; see HEADERS.RAW_REPLY), which the gateway joins into the body without decoding
 * them. (As JSON strings inside JSON packets, the 15 MB of a 2000-hotel answer were escaped,
 * copied and parsed again on the way.)
 */
export type V2RatesQueryChunk = { head: V2RatesHead } | Uint8Array;

export interface SearchMetadata {
  total_hotels: number;
  total_pages: number;
  max_price_per_night_avg: number;
  max_price_inclusive: number;
  nights: number;
  rooms: number;
  center_coordinates: Coordinates;
}

export interface V2RatesResponse {
  search_completed: boolean;
  search: Record<string, unknown>;
  metadata: SearchMetadata;
  rates: HotelRate[];
}


const COMMA = new Uint8Array([0x2c]);

/** The parts with a comma between each two, for Buffer.concat: JSON values joined into a list's body. */
export function commaSeparated(parts: Uint8Array[]): Uint8Array[] {
  return parts.flatMap((part, i) => (i === 0 ? [part] : [COMMA, part]));
}

/**
 * The most bytes of a raw reply message (HEADERS.RAW_REPLY): well under NATS's 1 MB, and
 * small enough that the receiving client mostly finds a message whole in one socket read
 * (it assembles a larger one by growing a buffer and copying, which showed as garbage
 * collection in the gateway: 29% of its CPU with 800 KB messages).
 */
export const RAW_CHUNK_BYTES = 60 * 1024;

/**
 * Serialized JSON values (strings, or their UTF-8 bytes) joined by commas into chunks of
 * at most `maxBytes`, each one buffer the values are written into, made one at a time as
 * they are asked for; a value larger than that is a chunk of its own. (Joining strings
 * first, items.join, flattens every spliced string again: 4 to 15 times slower for a page
 * of bookings.)
 */
export function* commaJoinedChunks(values: readonly (string | Uint8Array)[], maxBytes = RAW_CHUNK_BYTES): Generator<Uint8Array> {
  const lengths = values.map((value) => (typeof value === 'string' ? Buffer.byteLength(value) : value.length));
  let first = 0;
  let size = 0;
  for (let i = 0; i <= values.length; i++) {
    const added = i < values.length ? (i > first ? 1 : 0) + lengths[i] : 0;
    if (i > first && (i === values.length || size + added > maxBytes)) {
      yield joined(values, first, i, size);
      first = i;
      size = i < values.length ? lengths[i] : 0;
    } else {
      size += added;
    }
  }
}

function joined(values: readonly (string | Uint8Array)[], from: number, to: number, size: number): Uint8Array {
  const chunk = Buffer.allocUnsafe(size);
  let at = 0;
  for (let i = from; i < to; i++) {
    if (i > from) chunk[at++] = 0x2c;
    const value = values[i];
    if (typeof value === 'string') {
      at += chunk.write(value, at);
    } else {
      chunk.set(value, at);
      at += value.length;
    }
  }
  return chunk;
}
