// @hotel/hotelbeds: a client of Hotelbeds APItude (Hotel Booking API 1.0, Hotel Content API
// 1.0) for the adapter that puts Hotelbeds behind the platform's SupplierPort. Its wire
// types are the vendor's JSON and stay inside that adapter.
export type * from './wire';
