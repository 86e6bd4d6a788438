// The bus's names besides the request subjects (operations.ts): streams, key-value
// buckets, the booking events' subjects and the headers every message may carry.
// Nothing here depends on the operations, so a contract module may import it.

/**
 * JetStream streams of the platform: events kept on the broker's disk, read by
 * consumers at their own pace. A stream's subjects are `events.<context>.<type>.v<n>`
 * like the core events (bus.ts), and a changed payload gets a new `.v<n+1>` too.
 */
export const STREAMS = {
  /** Every status change of a booking (booking/events.ts), published by the booking service's outbox relay. */
  BOOKING_EVENTS: { name: 'BOOKING_EVENTS', subjects: 'events.booking.>' },
} as const;

/**
 * JetStream key-value buckets: state that several replicas of one app share. Each is
 * the stream `KV_<name>` and its keys the subjects `$KV.<name>.<key>` (bus.ts gives
 * the owner exactly those).
 */
export const KV_BUCKETS = {
  /** The gateway replicas' shared token buckets and in-flight counts (apps/gateway/src/auth/shared-limits.ts). */
  RATE_LIMITS: 'hotel_rate_limits',
} as const;

/** The subject of each booking event type on the BOOKING_EVENTS stream. */
export const BOOKING_EVENT_SUBJECTS = {
  'booking.created': 'events.booking.created.v1',
  'booking.confirmed': 'events.booking.confirmed.v1',
  'booking.failed': 'events.booking.failed.v1',
  'booking.cancelled': 'events.booking.cancelled.v1',
} as const;

/** NATS header names carried on every request. */
export const HEADERS = {
  REQUEST_ID: 'x-request-id',
  /**
   * How long the caller waits for the answer (ms): a service that cannot finish in
   * time answers with what it has (a booking still pending) instead of leaving the
   * caller to time out.
   */
  TIMEOUT_MS: 'hotel-timeout-ms',
  /**
   * On a reply whose body is raw bytes rather than a JSON packet: `more`, or
   * `last` on the final message of a multi-message reply.
   */
  RAW_REPLY: 'hotel-raw-reply',
  /** On a stream event: the client whose booking it is (so a consumer routes it without parsing the payload). */
  CLIENT_ID: 'hotel-client-id',
} as const;
