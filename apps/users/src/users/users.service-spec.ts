import { Actor, EVENTS, credentialHash } from '@hotel/contracts';
import { ServiceHarness, startServiceHarness } from '@hotel/testing';
import { ClientsService } from '../clients/clients.service';
import { USERS_ENTITIES, USERS_MIGRATIONS, UsersAppModule } from '../users-app.module';
import { UsersEnv } from '../users.env';
import { UsersService } from './users.service';

// Service tier: the users service's credentials and users with its providers and
// migrations on a fresh PostgreSQL database: who a secret is, what revokes it, and the
// user a keyed create makes however many race.

const ADA = { firstName: 'Ada', lastName: 'Lovelace', email: 'ada@example.com', phone: '+44 20 7946 0000', clientAccountLimit: 500 };

describe('users and credentials (service tier: real PostgreSQL)', () => {
  let harness: ServiceHarness<UsersEnv>;
  let clients: ClientsService;
  let users: UsersService;

  const backendOf = (clientId: number): Actor => ({ clientId, userId: null, role: 'backend', sandbox: false });
  const resolve = (secret: string, userToken = false) => clients.resolveCredential(credentialHash(secret), userToken).catch((error: { code: string }) => error.code);

  beforeAll(async () => {
    harness = await startServiceHarness({
      name: 'users',
      envClass: UsersEnv,
      providers: (env: UsersEnv) => UsersAppModule.register(env).providers ?? [],
      entities: USERS_ENTITIES,
      migrations: USERS_MIGRATIONS,
    });
    clients = harness.get(ClientsService);
    users = harness.get(UsersService);
  });
  afterAll(async () => {
    await harness?.close();
  });

  it('knows each new secret by its hash (live, sandbox, backend), stores no secret, and refuses one it does not know', async () => {
    const made = await clients.createClient({ name: '  Acme Travel ', creditLimit: '1000.50', currency: 'EUR' });
    expect(await resolve(made.apiKey)).toMatchObject({ clientId: made.clientId, role: 'api', sandbox: false, userId: null });
    expect(await resolve(made.sandboxApiKey)).toMatchObject({ clientId: made.clientId, role: 'api', sandbox: true });
    expect(await resolve(made.backendToken)).toMatchObject({ clientId: made.clientId, role: 'backend', sandbox: false });
    expect(await resolve(`${made.apiKey}x`)).toBe('UNAUTHORIZED');
    const stored = JSON.stringify(await harness.dataSource.query(`SELECT * FROM users.credentials`));
    for (const secret of [made.apiKey, made.sandboxApiKey, made.backendToken]) expect(stored).not.toContain(secret);
    expect(await harness.dataSource.query(`SELECT name, credit_limit, currency FROM users.clients WHERE id = $1`, [made.clientId])).toEqual([{ name: 'Acme Travel', credit_limit: '1000.500', currency: 'EUR' }]);
  });

  it('rotating keys refuses the old ones at once and tells the gateways', async () => {
    const made = await clients.createClient({ name: 'Rotating Travel' });
    harness.client.events.length = 0;
    const rotated = await clients.rotateKeys({ clientId: made.clientId, kinds: ['live'] });
    expect(await resolve(made.apiKey)).toBe('UNAUTHORIZED');
    expect(await resolve(rotated.apiKey!)).toMatchObject({ clientId: made.clientId, role: 'api' });
    expect(await resolve(made.backendToken)).toMatchObject({ role: 'backend' });
    expect(harness.client.events).toEqual([{ subject: EVENTS.USERS_CREDENTIALS_REVOKED, event: { clientId: made.clientId } }]);
  });

  it('makes one user for 10 creates racing under one Idempotency-Key, answers each with it, and refuses another body under the key', async () => {
    const { clientId } = await clients.createClient({ name: 'Keyed Travel', creditLimit: '10000' });
    const answers = await Promise.all(Array.from({ length: 10 }, () => users.create(backendOf(clientId), ADA, 'user-key-1')));
    expect(new Set(answers.map((user) => user.id)).size).toBe(1);
    expect(answers[0]).toMatchObject({ firstName: 'Ada', clientAccountLimit: '500.00' });
    expect(Number((await harness.dataSource.query(`SELECT count(*) AS n FROM users.users WHERE client_id = $1`, [clientId]))[0].n)).toBe(1);
    await expect(users.create(backendOf(clientId), { ...ADA, firstName: 'Grace' }, 'user-key-1')).rejects.toMatchObject({ code: 'IDEMPOTENCY_CONFLICT' });
    // The same key is another client's own.
    const other = await clients.createClient({ name: 'Other Keyed Travel', creditLimit: '10000' });
    expect((await users.create(backendOf(other.clientId), ADA, 'user-key-1')).id).not.toBe(answers[0].id);
  });

  it("a user's token is that user; deleting the user refuses it; another client sees no such user", async () => {
    const made = await clients.createClient({ name: 'Token Travel', creditLimit: '10000' });
    const backendId = ((await clients.resolveCredential(credentialHash(made.backendToken), false)) as { credentialId: number }).credentialId;
    const user = await users.create(backendOf(made.clientId), ADA);
    const { token } = await users.issueToken(backendOf(made.clientId), user.id, backendId);
    expect(await resolve(token, true)).toMatchObject({ clientId: made.clientId, userId: user.id, role: 'user' });
    const stranger = await clients.createClient({ name: 'Stranger Travel' });
    await expect(users.get(backendOf(stranger.clientId), user.id)).rejects.toMatchObject({ code: 'NOT_FOUND' });
    await users.delete(backendOf(made.clientId), user.id);
    expect(await resolve(token, true)).toBe('UNAUTHORIZED');
    await expect(users.issueToken(backendOf(made.clientId), user.id, backendId)).rejects.toMatchObject({ code: 'NOT_FOUND' });
  });
});
