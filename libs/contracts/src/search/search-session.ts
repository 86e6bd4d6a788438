import { Type } from 'class-transformer';
import { IsDefined, IsInt, IsPositive, IsString, IsUUID, Matches, MaxLength, ValidateIf, ValidateNested } from 'class-validator';
import { Actor } from '../common/actor';
import { HotelDetails, HotelRate } from './hotel';
import { StayRequest } from './stay';

export const PLACE_ID_PATTERN = /^(gn:\d{1,10}|cc:[A-Z]{2})$/;
export const DESTINATION_ID_PATTERN = /^(city-\d{1,10}|country-[a-z]{2})$/;

/**
 * Body of `POST /search`: a new search (a place plus dates and rooms), or
 * `{session_id}` alone to poll one (the same as `GET /search/{session_id}`).
 */
export class SearchBody extends StayRequest {
  @ValidateIf((body: SearchBody) => body.session_id !== undefined)
  @IsUUID('all', { message: 'session_id must be a UUID' })
  session_id?: string;

  @ValidateIf((body: SearchBody) => body.session_id === undefined && (body.place_id !== undefined || body.destination_id === undefined))
  @IsString({ message: 'place_id or destination_id is required' })
  @Matches(PLACE_ID_PATTERN, { message: 'place_id must be a place_id from GET /places/search' })
  place_id?: string;

  @ValidateIf((body: SearchBody) => body.session_id === undefined && body.destination_id !== undefined)
  @IsString()
  @MaxLength(40)
  @Matches(DESTINATION_ID_PATTERN, { message: 'destination_id must be a destination_id from GET /places/search' })
  destination_id?: string;
}

class ActorScoped {
  @IsDefined()
  @ValidateNested()
  @Type(() => Actor)
  actor: Actor;
}

/** search.session.create.v1 */
export class CreateSearchSessionRequest extends ActorScoped {
  @IsDefined()
  @ValidateNested()
  @Type(() => SearchBody)
  search: SearchBody;
}

/** search.session.poll.v1 */
export class PollSearchSessionRequest extends ActorScoped {
  @IsUUID()
  session_id: string;
}

/** search.hotel-rates.get.v1: one hotel's details and rates within a session. */
export class HotelRatesRequest extends ActorScoped {
  @IsUUID()
  session_id: string;

  @IsInt()
  @IsPositive()
  hotel_id: number;
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
