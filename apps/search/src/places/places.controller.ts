import { Controller, OnModuleInit } from '@nestjs/common';
import { Payload } from '@nestjs/microservices';
import { FindPlacesRequest, OPERATIONS, PlaceMatches, PlacesQuery, PlacesReply } from '@hotel/contracts';
import { PlacesIndex } from '@hotel/inventory';
import { Handles } from '@hotel/platform';

let sharedIndex: PlacesIndex | undefined;

/** The index is static data built from the gazetteer: built once per process, at start. */
function placesIndex(): PlacesIndex {
  sharedIndex ??= new PlacesIndex();
  return sharedIndex;
}

@Controller()
export class PlacesController implements OnModuleInit {
  onModuleInit() {
    placesIndex();
  }

  @Handles(OPERATIONS.SEARCH_PLACE_FIND)
  find(@Payload() request: FindPlacesRequest): PlaceMatches {
    return { places: placesIndex().search(request.text, request.limit ?? 10) };
  }

  /** v1, for the gateways of the previous release during a rolling upgrade (remove in the next): the API's query and reply. */
  @Handles(OPERATIONS.SEARCH_PLACE_FIND_V1)
  findV1(@Payload() query: PlacesQuery): PlacesReply {
    return {
      results: placesIndex()
        .search(query.text_query, query.limit ?? 10)
        .map((place) => ({
          place_id: place.placeId,
          destination_id: place.destinationId,
          display_name: place.name,
          formatted_address: place.formattedAddress,
          types: [place.kind === 'country' ? 'country' : 'locality', 'political'],
        })),
    };
  }
}
