import { Controller, OnModuleInit } from '@nestjs/common';
import { Payload } from '@nestjs/microservices';
import { OPERATIONS, PlacesQuery, PlacesReply } from '@hotel/contracts';
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
  find(@Payload() query: PlacesQuery): PlacesReply {
    return { results: placesIndex().search(query.text_query, query.limit ?? 10) };
  }
}
