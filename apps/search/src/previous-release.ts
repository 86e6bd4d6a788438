import { DomainError } from '@hotel/platform';

/**
 * For the .v2 handlers that still take the booking API's bodies (the previous release's
 * gateways; remove with them): an unknown place named as the API names it, by the field the
 * partner sent (place_id or destination_id), as the gateway does for .v3.
 */
export function unknownPlaceInApiWords(error: unknown, field: 'place_id' | 'destination_id'): unknown {
  if (error instanceof DomainError && error.errors?.[0]?.field === 'placeId') {
    return DomainError.validation([{ field, message: `${field} names no known place; find one with GET /places/search` }]);
  }
  return error;
}
