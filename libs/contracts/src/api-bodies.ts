/**
 * The casing of NATS payloads. Services speak domain data in camelCase (ids, amounts
 * as decimal strings), and the gateway renders the API's answers from it (with the
 * renderers beside each API type, and apps/gateway/src/booking/booking-api-shapes.ts).
 * The booking API's types, declared here for the gateway (listed here, with every type
 * they contain), keep its snake_case; the backend API's (`/api`) are camelCase. Of them,
 * only these still travel on the bus: the V2 rates' bodies (serialized by the search
 * service), the Bookings of the stored list views, the prebook record a booking reads
 * (StoredPrebook.response) and the V1 search's place and stay a prebook keeps
 * (ResolvedRate.search, a PrebookSearch). Every other field on the bus is camelCase.
 * `casing.spec.ts` holds every contract to this list.
 */
export const BOOKING_API_BODIES = {
  SearchBody: 'body of POST /search, mapped by the gateway to a StaySearch',
  V2RatesBody: 'body of POST /v2/rates, mapped by the gateway to a V2RatesQuery',
  PlacesQuery: 'query of GET /places/search, mapped by the gateway',
  BookingListQuery: 'query of GET /book, mapped by the gateway to a BookingListFilter',
  BookCreateBody: 'body of POST /book/..., mapped by the gateway to a BookingOrder',
  V2BookBody: 'body of POST /v2/book: mapped as a BookCreateBody is, its prebook_id to the prebook booked',
  V2PrebookBody: 'body of POST /v2/prebook, mapped by the gateway',
  PrebookQuery: 'query of GET /prebook/..., mapped by the gateway',
  PromoCodeBody: 'body of POST /book/promocode, mapped by the gateway',
  PlacesReply: 'response of GET /places/search, rendered by the gateway',
  SearchData: 'response of POST /search and GET /search/{session_id}, rendered by the gateway from SearchProgress',
  HotelRatesData: 'response of GET /hotel/{hotel_id}/{session_id}, rendered by the gateway from HotelRates',
  V2RatesResponse: 'response of POST /v2/rates: its head rendered by the gateway from a V2RatesHead, then the rates as raw JSON chunks the search service serialized',
  PrebookData: 'response of GET /prebook/... and POST /v2/prebook, rendered by the gateway from a Prebook; kept as StoredPrebook.response',
  BookingView: 'the Booking resource of book and GET /book, rendered by bookingAnswer from a BookingSnapshot; travels as the stored list views',
  PrecancelView: 'response of GET /book/precancel/{booking_id}, rendered by the gateway',
  CancelView: 'response of POST /book/cancel/{booking_id}, rendered by the gateway',
} as const satisfies Record<string, string>;

export type BookingApiBody = keyof typeof BOOKING_API_BODIES;
