/** The languages a booking's texts (hotel description, voucher) come in. */
export const BOOKING_LANGUAGES = ['en', 'fr', 'es', 'pt'] as const;
export type BookingLanguage = (typeof BOOKING_LANGUAGES)[number];
