/**
 * The casing of NATS payloads. Services speak domain data in camelCase (ids, amounts
 * as decimal strings), and the gateway renders the API's answers from it
 * (apps/gateway/src/booking/booking-api-shapes.ts). Where that move is not done yet, a
 * payload that is an API body travels in that API's casing, as the gateway passes it
 * through: the booking API's bodies (listed here, with every type they contain) in
 * snake_case, the backend API's (`/api`) in camelCase. Every other field on the bus is
 * camelCase: the internal-only contracts, and the fields the gateway or a service puts
 * around an API body (`actor`, `prebookId`, `testScenario`, ...); the gateway maps them
 * from and to the API's names explicitly. The API's types that no longer travel stay
 * here while a previous version of a subject still carries them (one release).
 * `casing.spec.ts` holds every contract to this list.
 */
export const BOOKING_API_BODIES = {
  SearchBody: 'body of POST /search, mapped by the gateway to a StaySearch (search.session.create.v2, served for the previous release, takes it)',
  V2RatesBody: 'body of POST /v2/rates, mapped by the gateway to a V2RatesQuery (search.v2-rates.search.v2, served for the previous release, takes it)',
  PlacesQuery: 'query of GET /places/search, mapped by the gateway',
  BookingListQuery: 'query of GET /book, mapped by the gateway to a BookingListFilter',
  BookCreateBody: 'body of POST /book/..., mapped by the gateway to a BookingOrder (booking.booking.create.v2, served for the previous release, takes it as `body`)',
  V2BookBody: 'body of POST /v2/book: mapped as a BookCreateBody is, its prebook_id to the prebook booked',
  V2PrebookBody: 'body of POST /v2/prebook, mapped by the gateway',
  PrebookQuery: 'query of GET /prebook/..., mapped by the gateway',
  PromoCodeBody: 'body of POST /book/promocode, mapped by the gateway',
  PlacesReply: 'response of GET /places/search, rendered by the gateway',
  SearchData: 'response of POST /search and GET /search/{session_id}, rendered by the gateway from SearchProgress (and the .v2 replies, one more release)',
  HotelRatesData: 'response of GET /hotel/{hotel_id}/{session_id}, rendered by the gateway from HotelRates (and the .v2 reply, one more release)',
  V2RatesResponse: 'response of POST /v2/rates: its head rendered by the gateway from a V2RatesHead, then the rates as raw JSON chunks the search service serialized',
  PrebookData: 'response of GET /prebook/... and POST /v2/prebook, rendered by the gateway from a Prebook (and the .v3 reply, one more release); kept as StoredPrebook.response',
  BookingView: 'the Booking resource of book and GET /book, rendered by bookingAnswer from a BookingSnapshot; travels as the stored list views, in the booking events beside the snapshot (one release) and in the booking.booking.create.v2 reply (one release)',
  PrecancelView: 'response of GET /book/precancel/{booking_id}, rendered by the gateway',
  CancelView: 'response of POST /book/cancel/{booking_id}, rendered by the gateway',
} as const satisfies Record<string, string>;

export type BookingApiBody = keyof typeof BOOKING_API_BODIES;
