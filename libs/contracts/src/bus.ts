import { KV_BUCKETS, SERVICE_NAMES, STREAMS, SUBJECTS, ServiceName } from './subjects';
import { FxRatesUpdatedEvent } from './rates/fx';
import { CredentialsRevokedEvent } from './users/credentials';

/**
 * Who is on the bus. Every app connects to NATS with an identity of its own; the
 * broker lets an identity send a request only on the subjects listed for it
 * below, and only the service a subject belongs to receives it. So the `actor`
 * in a payload can only have been put there by the gateway (which authenticated
 * the caller) or, on service-to-service calls, by the calling service itself.
 */
export const BUS_IDENTITIES = ['gateway', ...SERVICE_NAMES, 'admin'] as const;
export type BusIdentity = (typeof BUS_IDENTITIES)[number];

type SubjectKey = keyof typeof SUBJECTS;

const HEALTH_CHECKS = ['SEARCH_HEALTH_CHECK', 'RATES_HEALTH_CHECK', 'BOOKING_HEALTH_CHECK', 'PROMO_HEALTH_CHECK', 'USERS_HEALTH_CHECK', 'ACCOUNTING_HEALTH_CHECK', 'WEBHOOKS_HEALTH_CHECK'] as const;

/**
 * The identities allowed to send each request subject. A subject missing here
 * would be unreachable: the type makes the list complete. Changing a line changes
 * the broker's permissions at the next start.
 */
export const SUBJECT_CALLERS: Record<SubjectKey, readonly BusIdentity[]> = {
  ...(Object.fromEntries(HEALTH_CHECKS.map((key) => [key, ['gateway', 'admin']])) as Record<(typeof HEALTH_CHECKS)[number], BusIdentity[]>),

  USERS_CREDENTIAL_RESOLVE: ['gateway'],
  USERS_CLIENT_CREATE: ['admin'],
  USERS_CLIENT_LIST: ['admin'],
  USERS_CLIENT_SEARCH: ['gateway'],
  USERS_CLIENT_ROTATE_KEYS: ['admin'],
  USERS_CLIENT_REVOKE_KEYS: ['admin'],
  USERS_CLIENT_SET_RATE_LIMIT: ['admin'],
  USERS_CLIENT_DELETE: ['admin'],
  USERS_CLIENT_SET_FX_MARGIN: ['admin'],
  USERS_CLIENT_GET: ['accounting', 'booking', 'gateway'],
  USERS_USER_CREATE: ['gateway'],
  USERS_USER_GET: ['gateway', 'rates', 'booking'],
  USERS_USER_UPDATE: ['gateway'],
  USERS_USER_DELETE: ['gateway'],
  USERS_USER_TOKEN_ISSUE: ['gateway'],

  SEARCH_PLACE_FIND: ['gateway'],
  SEARCH_SESSION_CREATE: ['gateway'],
  SEARCH_SESSION_POLL: ['gateway'],
  SEARCH_HOTEL_RATES_GET: ['gateway'],
  SEARCH_V2_RATES_SEARCH: ['gateway'],
  SEARCH_RATE_RESOLVE: ['rates'],
  SEARCH_CATALOG_HOTELS_GET: ['rates'],
  SEARCH_CONTENT_IMPORT_RUN: ['admin'],

  RATES_INVENTORY_SOLD_OUT: ['search'],
  RATES_PREBOOK_CREATE: ['gateway'],
  RATES_PREBOOK_FIND: ['booking'],
  RATES_PREBOOK_ATTACH: ['booking'],
  RATES_SUPPLIER_BOOK: ['booking'],
  RATES_SUPPLIER_CANCEL: ['booking'],
  RATES_SUPPLIER_STATUS: ['booking'],
  RATES_FX_RATES_GET: ['search', 'admin'],
  RATES_FX_RATES_IMPORT: ['admin'],
  RATES_VENDOR_RECONCILIATION_RUN: ['admin'],
  RATES_VENDOR_RECONCILIATION_LIST: ['accounting'],

  BOOKING_BOOKING_CREATE: ['gateway'],
  BOOKING_BOOKING_LIST: ['gateway'],
  BOOKING_BOOKING_LIST_V3: ['gateway'],
  BOOKING_BOOKING_PRECANCEL: ['gateway'],
  BOOKING_BOOKING_FIND_RECORDED: ['gateway'],
  BOOKING_BOOKING_CANCEL: ['gateway'],
  BOOKING_BACKEND_BOOKING_LIST: ['gateway'],
  BOOKING_BACKEND_BOOKING_LIST_V3: ['gateway'],
  BOOKING_VOUCHER_RENDER: ['gateway'],
  BOOKING_VOUCHER_RENDER_V3: ['gateway'],

  ACCOUNTING_ENTRY_CREATE: ['gateway'],
  ACCOUNTING_ENTRY_LIST: ['gateway'],
  ACCOUNTING_ENTRY_GET: ['gateway'],
  ACCOUNTING_ENTRY_LIST_BY_BOOKING: ['gateway'],
  ACCOUNTING_BALANCE_GET: ['gateway'],
  ACCOUNTING_FUNDS_CHECK: ['rates'],
  ACCOUNTING_HOLD_PLACE: ['booking'],
  ACCOUNTING_HOLD_CAPTURE: ['booking'],
  ACCOUNTING_HOLD_RELEASE: ['booking'],
  ACCOUNTING_REFUND_CREATE: ['booking'],
  ACCOUNTING_CARD_PAYMENT_RECORD: ['booking'],

  PROMO_CODE_CREATE: ['admin'],
  PROMO_CODE_QUOTE: ['gateway', 'rates'],
  PROMO_CODE_REDEEM: ['booking'],

  WEBHOOKS_ENDPOINT_CREATE: ['gateway'],
  WEBHOOKS_ENDPOINT_LIST: ['gateway'],
  WEBHOOKS_ENDPOINT_GET: ['gateway'],
  WEBHOOKS_ENDPOINT_UPDATE: ['gateway'],
  WEBHOOKS_ENDPOINT_DELETE: ['gateway'],
  WEBHOOKS_ENDPOINT_ROTATE_SECRET: ['gateway'],
  WEBHOOKS_ENDPOINT_TEST: ['gateway'],
  WEBHOOKS_DELIVERY_LIST: ['gateway'],
  WEBHOOKS_DELIVERY_RETRY: ['gateway'],
  USERS_FINANCE_TOKEN_CREATE: ['admin'],
  USERS_FINANCE_TOKEN_REVOKE: ['admin'],
  ACCOUNTING_CREDIT_POLICY_SET: ['admin'],
  ACCOUNTING_CREDIT_REQUEST_LIST: ['gateway'],
  ACCOUNTING_CREDIT_REQUEST_CONFIRM: ['gateway'],
  ACCOUNTING_CREDIT_REQUEST_REJECT: ['gateway'],
  ACCOUNTING_STATEMENT_SUMMARY: ['gateway'],
  ACCOUNTING_EXPORT_PAGE: ['gateway'],
  ACCOUNTING_BALANCE_DAILY: ['gateway'],
  ACCOUNTING_RECONCILIATION_GET: ['gateway'],
  BOOKING_RECONCILIATION_LIST: ['accounting'],
};

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
  const publish: string[] = (Object.keys(SUBJECT_CALLERS) as SubjectKey[]).filter((key) => SUBJECT_CALLERS[key].includes(identity)).map((key) => SUBJECTS[key]);
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
