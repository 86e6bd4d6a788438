import { IsInt, IsOptional, Max, Min, MaxLength } from 'class-validator';
import { QueryInteger } from '../common/page-query';
import { IsNonBlankString } from '../common/validators';

/** Query of `GET /places/search`, and the search.place.find.v1 request. */
export class PlacesQuery {
  @IsNonBlankString({ message: 'text_query must be a non-empty string' })
  @MaxLength(200)
  text_query: string;

  @IsOptional()
  @QueryInteger()
  @IsInt()
  @Min(1)
  @Max(50)
  limit?: number;
}

export interface PlaceResult {
  place_id: string;
  /** The same place in the service's own scheme; accepted wherever a place_id is. */
  destination_id: string;
  display_name: string;
  formatted_address: string;
  types: string[];
}

export interface PlacesReply {
  results: PlaceResult[];
}
