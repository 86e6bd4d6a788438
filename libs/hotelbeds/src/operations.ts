/**
 * Every call the client makes, declared once: its HTTP method, whether sending it twice is
 * harmless (then it is retried), and its default deadline. Retries, the breakers, health and
 * `outcomeUnknown` all derive from this table.
 *
 * Deadlines: the vendor documents its own timeouts as 60 s for availability, CheckRate and
 * booking confirmation and 120 s for booking list, detail and cancellation
 * (developer.hotelbeds.com, Booking API FAQ). A search is worth less the longer it takes, so
 * availability gives up far sooner; a booking or a cancellation waits for the vendor's whole
 * minute, because giving up early leaves its outcome unknown.
 */
export const OPERATIONS = {
  availability: { method: 'POST', safeToRepeat: true, defaultDeadlineMs: 10_000 },
  checkRate: { method: 'POST', safeToRepeat: true, defaultDeadlineMs: 15_000 },
  booking: { method: 'POST', safeToRepeat: false, defaultDeadlineMs: 60_000 },
  bookingDetail: { method: 'GET', safeToRepeat: true, defaultDeadlineMs: 20_000 },
  bookingList: { method: 'GET', safeToRepeat: true, defaultDeadlineMs: 20_000 },
  cancellationSimulation: { method: 'DELETE', safeToRepeat: true, defaultDeadlineMs: 20_000 },
  cancellation: { method: 'DELETE', safeToRepeat: false, defaultDeadlineMs: 60_000 },
  contentHotels: { method: 'GET', safeToRepeat: true, defaultDeadlineMs: 30_000 },
} as const satisfies Record<string, { method: 'GET' | 'POST' | 'DELETE'; safeToRepeat: boolean; defaultDeadlineMs: number }>;

export type HotelbedsOperation = keyof typeof OPERATIONS;

export const OPERATION_NAMES = Object.keys(OPERATIONS) as HotelbedsOperation[];
