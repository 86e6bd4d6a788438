import { CancelView, Cancellation, CancellationQuote, PlaceMatch, PlaceMatches, PlacesReply, PrecancelView, PlaceResult, decimalToNumber } from '@hotel/contracts';

/**
 * The booking API's answers that the gateway renders from the services' domain data
 * (camelCase, amounts as decimal strings): the one place their public shape is written,
 * so a change to it is a change here and in the OpenAPI document, never a new service
 * contract. The answers not listed here are still shaped by their service (the Booking,
 * searches, rates, prebooks); they move here one by one.
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
