import { NatsConnection, connect } from 'nats';
import { BOOKING_EVENT_SUBJECTS, KV_BUCKETS, WEBHOOKS_CONSUMER, BUS_IDENTITIES, BusIdentity, SERVICE_NAMES, STREAMS, SUBJECTS, busPermissions, inboxPrefixOf } from '@hotel/contracts';
import { natsConnectionOptions } from '@hotel/platform';
import { TestSystem } from './system';

const REQUEST_SUBJECTS: string[] = Object.values(SUBJECTS);

/** Connects as an identity and records every subject the broker refuses it. */
async function connectAs(system: TestSystem, identity: BusIdentity) {
  const connection = await connect({ ...natsConnectionOptions(system.nats.bus(identity)), waitOnFirstConnect: false, maxReconnectAttempts: 0, timeout: 60_000 });
  const refused = { publish: new Set<string>(), subscribe: new Set<string>() };
  void (async () => {
    for await (const status of connection.status()) {
      const context = status.permissionContext;
      if (context) (context.operation === 'publish' ? refused.publish : refused.subscribe).add(context.subject);
    }
  })();
  return { connection, refused };
}

/** Waits until the broker has answered everything sent so far (refusals arrive before the flush's answer). */
async function settled(connection: NatsConnection) {
  await connection.flush();
  await new Promise((resolve) => setTimeout(resolve, 50));
}

/**
 * The bus is a network like any other: no anonymous connection, and each app's
 * identity may send only what the table of callers allows and read only its own
 * subjects and replies, so a payload's actor cannot be forged from outside the gateway.
 */
describe('bus security', () => {
  let system: TestSystem;

  beforeAll(async () => {
    system = await TestSystem.start();
  });
  afterAll(async () => {
    await system?.close();
  });

  it('refuses a connection without credentials, or with an unknown key', async () => {
    await expect(connect({ servers: system.nats.url, maxReconnectAttempts: 0 })).rejects.toMatchObject({ code: 'AUTHORIZATION_VIOLATION' });
    const { newBusKeys } = await import('@hotel/platform');
    const stranger = newBusKeys().gateway.seed;
    await expect(connect({ ...natsConnectionOptions({ url: system.nats.url, identity: 'gateway', seed: stranger }), waitOnFirstConnect: false, maxReconnectAttempts: 0 })).rejects.toMatchObject({
      code: 'AUTHORIZATION_VIOLATION',
    });
  });

  it.each(BUS_IDENTITIES)('%s may send exactly the subjects the table gives it', async (identity) => {
    const { connection, refused } = await connectAs(system, identity);
    try {
      for (const subject of REQUEST_SUBJECTS) connection.publish(subject, new Uint8Array(0));
      await settled(connection);
      const allowed = new Set(busPermissions(identity).publish);
      expect([...refused.publish].sort()).toEqual(REQUEST_SUBJECTS.filter((subject) => !allowed.has(subject)).sort());
    } finally {
      await connection.close();
    }
  });

  it('only the admin identity creates clients and promo codes, only booking moves holds, only the gateway speaks for a caller', () => {
    const callers = (subject: string) => BUS_IDENTITIES.filter((identity) => busPermissions(identity).publish.includes(subject));
    expect(callers(SUBJECTS.USERS_CLIENT_CREATE)).toEqual(['admin']);
    expect(callers(SUBJECTS.PROMO_CODE_CREATE)).toEqual(['admin']);
    expect(callers(SUBJECTS.ACCOUNTING_HOLD_PLACE)).toEqual(['booking']);
    expect(callers(SUBJECTS.ACCOUNTING_HOLD_CAPTURE)).toEqual(['booking']);
    expect(callers(SUBJECTS.ACCOUNTING_ENTRY_CREATE)).toEqual(['gateway']);
    expect(callers(SUBJECTS.BOOKING_BOOKING_LIST)).toEqual(['gateway']);
    expect(callers(SUBJECTS.USERS_CREDENTIAL_RESOLVE)).toEqual(['gateway']);
  });

  it.each(SERVICE_NAMES)('%s reads only its own subjects and replies', async (service) => {
    const { connection, refused } = await connectAs(system, service);
    try {
      const others = ['>', 'users.>', 'accounting.>', `${inboxPrefixOf('gateway')}.>`, '_INBOX.>'].filter((subject) => !subject.startsWith(`${service}.`));
      for (const subject of others) connection.subscribe(subject);
      connection.subscribe(`${service}.>`);
      await settled(connection);
      expect([...refused.subscribe].sort()).toEqual(others.sort());
    } finally {
      await connection.close();
    }
  });

  it('a service that tries to act for a caller on a gateway subject is refused by the broker, and no service sees it', async () => {
    const search = await system.busClient('search');
    const forged = { clientId: 1, userId: null, role: 'api' as const, sandbox: false };
    await expect(search.send(SUBJECTS.BOOKING_BOOKING_LIST, { actor: forged, filter: {} })).rejects.toMatchObject({ code: 'INTERNAL_ERROR', message: 'search may not send booking.booking.list.v4' });
    // The gateway's identity may: the same call answers.
    const gateway = await system.busClient('gateway');
    const page = await gateway.sendForAll(SUBJECTS.BOOKING_BOOKING_LIST, { actor: forged, filter: {} });
    expect(page).toEqual([{ total: 0, etag: expect.any(String) }]);
  });

  it.each(BUS_IDENTITIES)(
    '%s may publish booking events and manage their stream only if it is booking, read the stream with any consumer only if it is admin, and with its own consumer only if it is webhooks',
    async (identity) => {
    const { connection, refused } = await connectAs(system, identity);
    const stream = STREAMS.BOOKING_EVENTS.name;
    const owned = [BOOKING_EVENT_SUBJECTS['booking.confirmed'], `$JS.API.STREAM.CREATE.${stream}`, `$JS.API.STREAM.DELETE.${stream}`];
    const read = [`$JS.API.STREAM.INFO.${stream}`, `$JS.API.CONSUMER.CREATE.${stream}.reader`, `$JS.API.CONSUMER.MSG.NEXT.${stream}.reader`];
    const ownConsumer = [`$JS.API.CONSUMER.CREATE.${stream}.${WEBHOOKS_CONSUMER}`, `$JS.API.CONSUMER.MSG.NEXT.${stream}.${WEBHOOKS_CONSUMER}`, `$JS.ACK.${stream}.${WEBHOOKS_CONSUMER}.1.1.1.1.1.1`];
    // Nobody may purge it, delete it, update it (an update may set a republish target: the
    // server would then publish on subjects the identity may not send on), or reach another
    // stream or the account's JetStream.
    const nobody = [
      `$JS.API.STREAM.PURGE.${stream}`,
      `$JS.API.STREAM.DELETE.${stream}`,
      `$JS.API.STREAM.UPDATE.${stream}`,
      '$JS.API.INFO',
      '$JS.API.STREAM.CREATE.OTHER',
      '$JS.API.STREAM.LIST',
    ];
    try {
      for (const subject of [...owned, ...read, ...ownConsumer, ...nobody]) connection.publish(subject, new Uint8Array(0));
      await settled(connection);
      const allowed = [
        ...(identity === 'booking' ? [...owned, read[0]] : []),
        ...(identity === 'admin' ? [...read, ...ownConsumer] : []),
        ...(identity === 'webhooks' ? [read[0], ...ownConsumer] : []),
      ].filter((subject) => !nobody.includes(subject));
      expect([...refused.publish].sort()).toEqual([...new Set([...owned, ...read, ...ownConsumer, ...nobody])].filter((subject) => !allowed.includes(subject)).sort());
    } finally {
      await connection.close();
    }
    },
  );

  it.each(BUS_IDENTITIES)('%s may read and write the rate limits bucket only if it is the gateway, and never purge, delete or change it', async (identity) => {
    const { connection, refused } = await connectAs(system, identity);
    const bucket = KV_BUCKETS.RATE_LIMITS;
    const gatewayOnly = [`$KV.${bucket}.rate.1`, `$JS.API.STREAM.INFO.KV_${bucket}`, `$JS.API.STREAM.CREATE.KV_${bucket}`, `$JS.API.DIRECT.GET.KV_${bucket}.$KV.${bucket}.rate.1`];
    const nobody = [`$JS.API.STREAM.UPDATE.KV_${bucket}`, `$JS.API.STREAM.PURGE.KV_${bucket}`, `$JS.API.STREAM.DELETE.KV_${bucket}`, `$JS.API.STREAM.MSG.DELETE.KV_${bucket}`, '$KV.other.key', '$JS.API.DIRECT.GET.KV_other.x'];
    try {
      for (const subject of [...gatewayOnly, ...nobody]) connection.publish(subject, new Uint8Array(0));
      await settled(connection);
      expect([...refused.publish].sort()).toEqual((identity === 'gateway' ? nobody : [...gatewayOnly, ...nobody]).sort());
    } finally {
      await connection.close();
    }
  });

  it('a message that is not a request packet is answered as invalid, and the service goes on', async () => {
    const { connection } = await connectAs(system, 'gateway');
    try {
      const reply = await connection.request(SUBJECTS.USERS_HEALTH_CHECK, new TextEncoder().encode('{not json'), { timeout: 2000 });
      expect(JSON.parse(new TextDecoder().decode(reply.data))).toMatchObject({ err: { code: 'VALIDATION_FAILED' } });
      expect(await (await system.busClient('gateway')).send(SUBJECTS.USERS_HEALTH_CHECK, {})).toMatchObject({ service: 'users', database: 'up' });
    } finally {
      await connection.close();
    }
  });
});
