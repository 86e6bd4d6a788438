import {
  CancelView,
  Cancellation,
  CancellationQuote,
  PlaceMatch,
  PlaceMatches,
  PlacesReply,
  PrecancelView,
  PlaceResult,
  decimalToNumber,
} from '@hotel/contracts';
import { DomainError } from '@hotel/platform';

/**
 * The booking API's answers that the gateway renders from the services' domain data
 * (camelCase, amounts as decimal strings): the one place their public shape is written,
 * so a change to it is a change here and in the OpenAPI document, never a new service
 * contract. The answers not listed here are still shaped by their service (the Booking,
 * hotel rates, V2 rates, prebooks); they move here one by one. Those a service's previous
 * version still answers for one release (the searches, V2 rates' head, the book request) are
 * mapped and rendered beside their API types in the contracts, used by both until then.
 */

/** `GET /places/search`. */
export function placesAnswer(matches: PlaceMatches): PlacesReply {
  return { results: matches.places.map(placeResult) };
}

function placeResult(place: PlaceMatch): PlaceResult {
  return {
    place_id: place.placeId,
    destination_id: place.destinationId,
    display_name: place.name,
    formatted_address: place.formattedAddress,
    // Google Places' types, as the API has always answered.
    types: [place.kind === 'country' ? 'country' : 'locality', 'political'],
  };
}

/** `GET /book/precancel/{booking_id}`: the penalty as a JSON number (exact: at most 15 significant digits). */
export function precancelAnswer(quote: CancellationQuote): PrecancelView {
  return { price_cancellation_penalty: decimalToNumber(quote.penalty), price_currency: quote.currency };
}

/** `POST /book/cancel/{booking_id}`. */
export function cancelAnswer(cancellation: Cancellation): CancelView {
  return { cancelled: cancellation.cancelled, cancellation_reference: cancellation.reference };
}

/** The search service's unknown place (its field `placeId`), named as the API names it: by the field the partner sent. */
export function unknownPlaceInApiWords(error: unknown, body: { place_id?: string }): unknown {
  if (!(error instanceof DomainError && error.errors?.[0]?.field === 'placeId')) return error;
  const field = body.place_id !== undefined ? 'place_id' : 'destination_id';
  return DomainError.validation([{ field, message: `${field} names no known place; find one with GET /places/search` }]);
}
