import {
  CancelView,
  Cancellation,
  CancellationQuote,
  PlaceMatch,
  PlaceMatches,
  PlacesReply,
  PrecancelView,
  PlaceResult,
  SearchBody,
  SearchData,
  SearchProgress,
  StaySearch,
  decimalToNumber,
} from '@hotel/contracts';
import { DomainError } from '@hotel/platform';

/**
 * The booking API's answers that the gateway renders from the services' domain data
 * (camelCase, amounts as decimal strings): the one place their public shape is written,
 * so a change to it is a change here and in the OpenAPI document, never a new service
 * contract. The answers not listed here are still shaped by their service (the Booking,
 * hotel rates, V2 rates, prebooks); they move here one by one. The requests the gateway
 * maps to domain requests are here too.
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

/** `POST /search` (a new search), as the search service takes it. The body is valid (SearchBody): a place or a destination, dates and rooms. */
export function staySearchOf(body: SearchBody): StaySearch {
  return {
    placeId: (body.place_id ?? body.destination_id)!,
    checkIn: body.check_in!,
    checkOut: body.check_out!,
    rooms: body.rooms!.map((room) => ({ adults: room.adults, children: room.children, childAges: room.children_ages })),
  };
}

/** `POST /search` and `GET /search/{session_id}`: each hotel with its lowest rate, the amount a JSON number (exact). */
export function searchAnswer(progress: SearchProgress): SearchData {
  return {
    session_id: progress.sessionId,
    search_completed: progress.completed,
    results: progress.hotels.map((hotel) => ({
      hotel: {
        id: hotel.id,
        name: hotel.name,
        stars: hotel.stars,
        lowest_rate: { id: hotel.lowestRate.id, price_chargeable: decimalToNumber(hotel.lowestRate.amount), price_currency: hotel.lowestRate.currency },
      },
    })),
  };
}

/** The search service's unknown place (its field `placeId`), named as the API names it: by the field the partner sent. */
export function unknownPlaceInApiWords(error: unknown, body: { place_id?: string }): unknown {
  if (!(error instanceof DomainError && error.errors?.[0]?.field === 'placeId')) return error;
  const field = body.place_id !== undefined ? 'place_id' : 'destination_id';
  return DomainError.validation([{ field, message: `${field} names no known place; find one with GET /places/search` }]);
}
