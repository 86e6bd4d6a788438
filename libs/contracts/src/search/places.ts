import { IsInt, IsOptional, Max, Min, MaxLength } from 'class-validator';
import { QueryInteger } from '../common/page-query';
import { IsNonBlankString } from '../common/validators';

/** Query of `GET /places/search`. */
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

// Rendered by the gateway from PlaceMatches.
/** The places whose name or address starts with the words of `text_query`, best first. */
export interface PlacesReply {
  results: PlaceResult[];
}

/** search.place.find.v2: the places whose name or address starts with the words of `text`, best first. */
export class FindPlacesRequest {
  @IsNonBlankString({ message: 'text must be a non-empty string' })
  @MaxLength(200)
  text: string;

  @IsOptional()
  @IsInt()
  @Min(1)
  @Max(50)
  limit?: number;
}

/** A place the search found. */
export interface PlaceMatch {
  /** The place's id (`gn:<GeoNames id>`, `cc:<country code>`). */
  placeId: string;
  /** The same place in the service's own scheme; accepted wherever a place id is. */
  destinationId: string;
  name: string;
  formattedAddress: string;
  kind: 'city' | 'country';
}

export interface PlaceMatches {
  places: PlaceMatch[];
}
