import { Type } from 'class-transformer';
import {
  ArrayMaxSize,
  ArrayMinSize,
  IsArray,
  IsDefined,
  IsInt,
  IsPositive,
  IsString,
  IsUUID,
  Matches,
  Max,
  MaxLength,
  Min,
  ValidateIf,
  ValidateNested,
  ValidationArguments,
  registerDecorator,
} from 'class-validator';
import { ActorScoped } from '../common/actor';
import { decimalToNumber } from '../common/money';
import { PricedForActor } from '../users/credentials';
import { HotelDetails, HotelRate } from './hotel';
import { ChildAgesMatchChildren, IsCheckInDay, IsCheckOutDay, RoomRequest, STAY_LIMITS } from './stay';

export const PLACE_ID_PATTERN = /^(gn:\d{1,10}|cc:[A-Z]{2})$/;
export const DESTINATION_ID_PATTERN = /^(city-\d{1,10}|country-[a-z]{2})$/;

const isNewSearch = (body: SearchBody) => body.session_id === undefined;

function AloneInPoll() {
  return (target: object, propertyName: string) =>
    registerDecorator({
      name: 'aloneInPoll',
      target: target.constructor,
      propertyName,
      options: { message: 'session_id polls an existing search: send it alone' },
      validator: {
        validate: (_value: unknown, args: ValidationArguments) =>
          Object.keys(args.object).every((field) => field === 'session_id' || (args.object as Record<string, unknown>)[field] === undefined),
      },
    });
}

/**
 * Body of `POST /search`: a new search (a place plus dates and rooms), or
 * `{session_id}` alone to poll one (the same as `GET /search/{session_id}`).
 */
export class SearchBody {
  @ValidateIf((body: SearchBody) => body.session_id !== undefined)
  @IsUUID('all', { message: 'session_id must be a UUID' })
  @AloneInPoll()
  session_id?: string;

  @ValidateIf((body: SearchBody) => isNewSearch(body) && (body.place_id !== undefined || body.destination_id === undefined))
  @IsString({ message: 'place_id or destination_id is required' })
  @Matches(PLACE_ID_PATTERN, { message: 'place_id must be a place_id from GET /places/search' })
  place_id?: string;

  @ValidateIf((body: SearchBody) => isNewSearch(body) && body.destination_id !== undefined)
  @IsString()
  @MaxLength(40)
  @Matches(DESTINATION_ID_PATTERN, { message: 'destination_id must be a destination_id from GET /places/search' })
  destination_id?: string;

  @ValidateIf(isNewSearch)
  @IsCheckInDay()
  check_in?: string;

  @ValidateIf(isNewSearch)
  @IsCheckOutDay()
  check_out?: string;

  @ValidateIf(isNewSearch)
  @IsDefined()
  @IsArray()
  @ArrayMinSize(1)
  @ArrayMaxSize(STAY_LIMITS.maxRooms)
  @ValidateNested({ each: true })
  @Type(() => RoomRequest)
  rooms?: RoomRequest[];
}


/** A room of a stay: its guests, and each child's age. */
export class StayRoom {
  @IsInt()
  @Min(1)
  @Max(STAY_LIMITS.maxAdults)
  adults: number;

  @IsInt()
  @Min(0)
  @Max(STAY_LIMITS.maxChildren)
  children: number;

  @IsArray()
  @IsInt({ each: true })
  @Min(0, { each: true })
  @Max(STAY_LIMITS.maxChildAge, { each: true })
  @ChildAgesMatchChildren('childAges')
  childAges: number[];
}

/** The dates and rooms of a stay, in the search service's words (V1 search and V2 rates). */
export class StayQuery {
  @IsCheckInDay()
  checkIn: string;

  @IsCheckOutDay(undefined, 'checkIn')
  checkOut: string;

  @IsDefined()
  @IsArray()
  @ArrayMinSize(1)
  @ArrayMaxSize(STAY_LIMITS.maxRooms)
  @ValidateNested({ each: true })
  @Type(() => StayRoom)
  rooms: StayRoom[];
}

/** Where and when a V1 search looks: a place (or the same place's destination id), the dates and the rooms. */
export class StaySearch extends StayQuery {
  @IsString()
  @Matches(new RegExp(`${PLACE_ID_PATTERN.source}|${DESTINATION_ID_PATTERN.source}`), { message: 'placeId must be a place id or a destination id' })
  placeId: string;
}

/** search.session.create.v3: a new V1 search, priced for the client (the session's prices are in its currency). */
export class CreateSearchSessionRequestV3 extends PricedForActor {
  @IsDefined()
  @ValidateNested()
  @Type(() => StaySearch)
  search: StaySearch;
}

/** search.session.poll.v3 */
export class PollSearchSessionRequest extends ActorScoped {
  @IsUUID()
  sessionId: string;
}

/** search.hotel-rates.get.v3: one hotel's details and rates within a session. */
export class HotelRatesRequest extends ActorScoped {
  @IsUUID()
  sessionId: string;

  @IsInt()
  @IsPositive()
  hotelId: number;
}

/** A hotel a V1 search found, with its lowest rate (the amount a decimal string in the session's currency). */
export interface SearchHotel {
  id: number;
  name: string;
  stars: number;
  lowestRate: { id: string; amount: string; currency: string };
}

/** search.session.create.v3 and poll.v3: a V1 search's hotels so far, cheapest first. */
export interface SearchProgress {
  sessionId: string;
  /** Every vendor answered, or the search's window has passed. */
  completed: boolean;
  hotels: SearchHotel[];
}

// Rendered by the gateway from SearchProgress.
export interface SearchResultHotel {
  hotel: {
    id: number;
    name: string;
    stars: number;
    lowest_rate: { id: string; price_chargeable: number; price_currency: string };
  };
}

export interface SearchData {
  session_id: string;
  search_completed: boolean;
  results: SearchResultHotel[];
}

export interface HotelRatesData {
  hotel: HotelDetails;
  rates: HotelRate[];
  search_completed: boolean;
}

/**
 * `POST /search` (a new search) as the search service takes it: the one mapping, used by the
 * gateway.
 * The body is valid (SearchBody): a place or a destination, dates and rooms.
 */
export function staySearchOf(body: SearchBody): StaySearch {
  return {
    placeId: (body.place_id ?? body.destination_id)!,
    checkIn: body.check_in!,
    checkOut: body.check_out!,
    rooms: body.rooms!.map((room) => ({ adults: room.adults, children: room.children, childAges: room.children_ages })),
  };
}

/** The answer of `POST /search` and `GET /search/{session_id}`: each hotel with its lowest rate, the amount a JSON number (exact). Rendered by the gateway. */
export function searchAnswer(progress: SearchProgress): SearchData {
  return {
    session_id: progress.sessionId,
    search_completed: progress.completed,
    results: progress.hotels.map((hotel) => ({
      hotel: {
        id: hotel.id,
        name: hotel.name,
        stars: hotel.stars,
        lowest_rate: { id: hotel.lowestRate.id, price_chargeable: decimalToNumber(hotel.lowestRate.amount), price_currency: hotel.lowestRate.currency },
      },
    })),
  };
}
