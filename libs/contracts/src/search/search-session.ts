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
  MaxLength,
  ValidateIf,
  ValidateNested,
  ValidationArguments,
  registerDecorator,
} from 'class-validator';
import { ActorScoped } from '../common/actor';
import { PricedForActor } from '../users/credentials';
import { HotelDetails, HotelRate } from './hotel';
import { IsCheckInDay, IsCheckOutDay, RoomRequest, STAY_LIMITS } from './stay';

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


/** search.session.create.v2 (v2: the client's pricing; the session's prices are in its currency) */
export class CreateSearchSessionRequest extends PricedForActor {
  @IsDefined()
  @ValidateNested()
  @Type(() => SearchBody)
  search: SearchBody;
}

/** search.session.poll.v2 */
export class PollSearchSessionRequest extends ActorScoped {
  @IsUUID()
  sessionId: string;
}

/** search.hotel-rates.get.v2: one hotel's details and rates within a session. */
export class HotelRatesRequest extends ActorScoped {
  @IsUUID()
  sessionId: string;

  @IsInt()
  @IsPositive()
  hotelId: number;
}

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
