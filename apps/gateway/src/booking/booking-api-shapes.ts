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
 * The booking API's answers that only the gateway renders from the services' domain data
 * (camelCase, amounts as decimal strings), and a refusal in the API's words. The other
 * mappings and renderings (the searches, a hotel's rates, V2 rates' head, the prebook, the
 * book request and the Booking) sit beside their API types in the contracts, because
 * services use some of them too: the booking service renders its stored list views and the
 * rates service its prebook record with them, and the webhooks service renders partners'
 * payloads. Either way a public field is changed in one renderer and the OpenAPI document,
 * never in a service contract.
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
