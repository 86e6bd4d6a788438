import { Controller, OnModuleInit } from '@nestjs/common';
import { Payload } from '@nestjs/microservices';
import { FindPlacesRequest, OPERATIONS, PlaceMatches } from '@hotel/contracts';
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
}
