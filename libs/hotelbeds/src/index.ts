// @hotel/hotelbeds: a client of Hotelbeds APItude (Hotel Booking API 1.0, Hotel Content API
// 1.0) for the adapter that puts Hotelbeds behind the platform's SupplierPort. Its wire
// types are the vendor's JSON and stay inside that adapter.
export { HotelbedsClient, MAX_CONTENT_HOTELS_PER_PAGE, MAX_HOTELS_PER_AVAILABILITY } from './client';
export type { BookingLookupDates, HotelbedsClientOptions, HotelbedsClock } from './client';
export { HotelbedsError } from './errors';
export type { HotelbedsErrorCode, HotelbedsErrorInit, HotelbedsErrorKind } from './errors';
export { OPERATIONS } from './operations';
export type { HotelbedsOperation } from './operations';
export type { BreakerHealth, BreakerSettings, BreakerState } from './breaker';
export { DEFAULT_RETRY_POLICY } from './retry';
export type { RetryPolicy } from './retry';
export { hotelbedsSignature } from './signature';
export type * from './wire';
export { HotelbedsSupplier, PLATFORM_HOTEL_CODES, bookingIdOfClientReference, clientReferenceOf } from './supplier/hotelbeds-supplier';
export type { HotelCodeBook } from './supplier/hotelbeds-supplier';
export type { HotelbedsSupplierOptions } from './supplier/hotelbeds-supplier';
export { VendorsEnv, WithSimulatedVendorCredentials, simulatedVendorCredentials } from './supplier/vendors.env';
export type { SimulatorDesk } from './supplier/vendors.env';
export { HOTELBEDS_VENDOR_CODE, remoteSuppliers } from './supplier/remote-suppliers';
export { AMENITY_FACILITY_CODES, HOTELBEDS_IMAGE_BASE_URL, catalogHotelOf, comparableHotelName, contentCoordinates, starsOfCategory } from './content/content-mapping';
export { decodeSandboxRateKey, encodeSandboxRateKey } from './sandbox/sandbox-rate-key';
export type { SandboxRateTerms } from './sandbox/sandbox-rate-key';
