/** The services behind the gateway; each is a NATS queue group of this name and owns the subjects that start with it. */
export const SERVICE_NAMES = ['search', 'rates', 'booking', 'promo', 'users', 'accounting', 'webhooks'] as const;
export type ServiceName = (typeof SERVICE_NAMES)[number];

/**
 * Who is on the bus. Every app connects to NATS with an identity of its own; the
 * broker lets an identity send a request only on the subjects its operations list
 * it as a caller of (operations.ts), and only the service a subject belongs to
 * receives it. So the `actor` in a payload can only have been put there by the
 * gateway (which authenticated the caller) or, on service-to-service calls, by the
 * calling service itself.
 */
export const BUS_IDENTITIES = ['gateway', ...SERVICE_NAMES, 'admin'] as const;
export type BusIdentity = (typeof BUS_IDENTITIES)[number];
