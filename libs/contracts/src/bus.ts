import { KV_BUCKETS, STREAMS } from './channels';
import { BusIdentity, SERVICE_NAMES, ServiceName } from './identities';
import { OPERATIONS, OperationKey } from './operations';
import { FxRatesUpdatedEvent } from './rates/fx';
import { CredentialsRevokedEvent } from './users/credentials';

/** The identities allowed to send each request subject (OPERATIONS' `callers`); the broker's permissions follow at the next start. */
export const SUBJECT_CALLERS = Object.fromEntries(Object.entries(OPERATIONS).map(([key, operation]) => [key, operation.callers])) as Record<OperationKey, readonly BusIdentity[]>;

/**
 * Events (publish/subscribe, no reply): who publishes each and who listens.
 * They carry no secrets, only what changed.
 */
export const EVENTS = {
  /** A credential stopped working (revoked, rotated, its user deleted or changed): gateways drop it from their caches. */
  USERS_CREDENTIALS_REVOKED: 'events.users.credentials-revoked.v1',
  /** A new set of exchange rates was taken in: every converter (search and rates replicas) asks for the sets again. */
  RATES_FX_RATES_UPDATED: 'events.rates.fx-rates-updated.v1',
} as const;

/** The payload of each event. */
export interface EventMap {
  [EVENTS.USERS_CREDENTIALS_REVOKED]: CredentialsRevokedEvent;
  [EVENTS.RATES_FX_RATES_UPDATED]: FxRatesUpdatedEvent;
}
export type EventSubject = keyof EventMap;

export const EVENT_ROUTES: Record<keyof typeof EVENTS, { publishers: readonly BusIdentity[]; subscribers: readonly BusIdentity[] }> = {
  USERS_CREDENTIALS_REVOKED: { publishers: ['users'], subscribers: ['gateway'] },
  RATES_FX_RATES_UPDATED: { publishers: ['rates'], subscribers: ['search', 'rates'] },
};

/** The durable consumer the webhooks service reads BOOKING_EVENTS through (its replicas share it). */
export const WEBHOOKS_CONSUMER = 'webhooks';

/**
 * JetStream streams (subjects.ts STREAMS): the identity that owns each (creates it
 * at start when missing and publishes to it) and those that read it, each through
 * the consumers it is given: a name, or `*` for any (the admin identity, which reads
 * the streams for operators).
 */
export const STREAM_ROUTES: Record<keyof typeof STREAMS, { owner: BusIdentity; readers: readonly { identity: BusIdentity; consumer: string }[] }> = {
  BOOKING_EVENTS: {
    owner: 'booking',
    readers: [
      { identity: 'admin', consumer: '*' },
      { identity: 'webhooks', consumer: WEBHOOKS_CONSUMER },
    ],
  },
};

/** The JetStream API subjects (and stream subjects) an identity needs for the streams it owns or reads; the answers come back on its inbox. */
function streamPermissions(identity: BusIdentity): string[] {
  return (Object.keys(STREAMS) as (keyof typeof STREAMS)[]).flatMap((key) => {
    const { name, subjects } = STREAMS[key];
    const route = STREAM_ROUTES[key];
    // CREATE and INFO, never UPDATE: whoever may update a stream may set its republish
    // target and make the server publish on subjects the identity may not send on. A
    // CREATE of an existing stream with another configuration is refused by the server.
    const owned = route.owner === identity ? [subjects, ...['INFO', 'CREATE'].map((call) => `$JS.API.STREAM.${call}.${name}`)] : [];
    const read = route.readers
      .filter((reader) => reader.identity === identity)
      .flatMap(({ consumer }) => [
        `$JS.API.STREAM.INFO.${name}`,
        // Its consumers of this stream only: created (by name, with or without a filter), read, looked at, deleted, acknowledged.
        `$JS.API.CONSUMER.CREATE.${name}.${consumer}`,
        `$JS.API.CONSUMER.CREATE.${name}.${consumer}.>`,
        `$JS.API.CONSUMER.MSG.NEXT.${name}.${consumer}`,
        `$JS.API.CONSUMER.INFO.${name}.${consumer}`,
        `$JS.API.CONSUMER.DELETE.${name}.${consumer}`,
        `$JS.ACK.${name}.${consumer}.>`,
      ]);
    return [...new Set([...owned, ...read])];
  });
}

/** The identity that owns each key-value bucket (subjects.ts KV_BUCKETS): the only one that reads or writes it. */
export const KV_BUCKET_OWNERS: Record<keyof typeof KV_BUCKETS, BusIdentity> = {
  RATE_LIMITS: 'gateway',
};

/**
 * What an identity needs for the buckets it owns: create the bucket's stream when
 * missing and look at it, read a key (direct get of its last value, by subject) and
 * write one (a publish on the key's subject, acknowledged on the identity's inbox).
 * Never UPDATE, PURGE or DELETE, nor any other stream, nor the account's `$JS.API.INFO`.
 */
function bucketPermissions(identity: BusIdentity): string[] {
  return (Object.keys(KV_BUCKETS) as (keyof typeof KV_BUCKETS)[])
    .filter((key) => KV_BUCKET_OWNERS[key] === identity)
    .flatMap((key) => {
      const bucket = KV_BUCKETS[key];
      return [`$KV.${bucket}.>`, `$JS.API.STREAM.INFO.KV_${bucket}`, `$JS.API.STREAM.CREATE.KV_${bucket}`, `$JS.API.DIRECT.GET.KV_${bucket}.>`];
    });
}

/** The subject prefix of an identity's reply inboxes: nobody else can read its replies. */
export function inboxPrefixOf(identity: BusIdentity): string {
  return `_INBOX_${identity}`;
}

export interface BusPermissions {
  publish: string[];
  subscribe: string[];
  /** May answer the requests it receives (services), on whatever reply subject they name. */
  respond: boolean;
}

/** What the broker lets an identity do, derived from the tables above. */
export function busPermissions(identity: BusIdentity): BusPermissions {
  const publish: string[] = Object.values(OPERATIONS)
    .filter((operation) => operation.callers.includes(identity))
    .map((operation) => operation.subject);
  const subscribe = [`${inboxPrefixOf(identity)}.>`];
  for (const key of Object.keys(EVENTS) as (keyof typeof EVENTS)[]) {
    if (EVENT_ROUTES[key].publishers.includes(identity)) publish.push(EVENTS[key]);
    if (EVENT_ROUTES[key].subscribers.includes(identity)) subscribe.push(EVENTS[key]);
  }
  publish.push(...streamPermissions(identity), ...bucketPermissions(identity));
  const service = (SERVICE_NAMES as readonly string[]).includes(identity);
  if (service) subscribe.push(`${identity as ServiceName}.>`);
  return { publish, subscribe, respond: service };
}
