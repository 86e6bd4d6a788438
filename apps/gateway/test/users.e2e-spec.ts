import { ClientKeys, TestSystem } from './system';

const NEW_USER = { firstName: 'Ada', lastName: 'Lovelace', email: 'ada@example.com', phone: '+44 20 7946 0000', clientAccountLimit: 2500.5 };

/** The backend API's users: create, read, update, soft delete, token, with the specification's validation. */
describe('backend API users', () => {
  let system: TestSystem;
  let acme: ClientKeys;
  let auth: { authorization: string };

  beforeAll(async () => {
    system = await TestSystem.start();
    acme = await system.createClient('Acme Travel');
    auth = { authorization: acme.backend_token };
  });
  afterAll(async () => {
    await system?.close();
  });

  it('makes one user however many posts race with an Idempotency-Key; the same user again answers it, another under the key is 409', async () => {
    const keyed = (user: Record<string, unknown>, key = 'user-grace-1') => system.request('POST', '/api/user', { headers: { ...auth, 'idempotency-key': key }, json: user });
    const grace = { ...NEW_USER, firstName: 'Grace', lastName: 'Hopper', email: 'grace@example.com' };
    const raced = await Promise.all(Array.from({ length: 8 }, () => keyed(grace)));
    expect(raced.map((answer) => answer.status)).toEqual(Array(8).fill(201));
    const ids = new Set(raced.map((answer) => answer.body.data.id));
    expect(ids.size).toBe(1);
    const again = await keyed(grace);
    expect({ status: again.status, id: again.body.data.id }).toEqual({ status: 201, id: [...ids][0] });
    const other = await keyed({ ...grace, firstName: 'Anita' });
    expect({ status: other.status, code: other.body.code }).toEqual({ status: 409, code: 'IDEMPOTENCY_CONFLICT' });
    const bad = await keyed(grace, 'has space');
    expect({ status: bad.status, code: bad.body.code }).toEqual({ status: 400, code: 'VALIDATION_FAILED' });
    // Without a key, each post is another user.
    const [first, second] = await Promise.all([1, 2].map(() => system.request('POST', '/api/user', { headers: auth, json: grace })));
    expect(first.body.data.id).not.toBe(second.body.data.id);
  });

  it('creates, reads, updates and soft-deletes a user', async () => {
    const created = await system.request('POST', '/api/user', { headers: auth, json: NEW_USER });
    expect(created.status).toBe(201);
    expect(created.body).toEqual({
      success: true,
      message: null,
      data: {
        id: expect.any(Number),
        firstName: 'Ada',
        lastName: 'Lovelace',
        email: 'ada@example.com',
        phone: '+44 20 7946 0000',
        clientAccountLimit: '2500.50',
        createdAt: expect.stringMatching(/^\d{4}-\d{2}-\d{2}T/),
        updatedAt: expect.stringMatching(/^\d{4}-\d{2}-\d{2}T/),
        deletedAt: null,
      },
    });
    const id = created.body.data.id;

    const read = await system.request('GET', `/api/user/${id}`, { headers: auth });
    expect(read.status).toBe(200);
    expect(read.body.data).toEqual(created.body.data);

    const updated = await system.request('PUT', `/api/user/${id}`, {
      headers: auth,
      json: { phone: '+1 555 0100', clientAccountLimit: '9999.99', email: 'ada@lovelace.org' },
    });
    expect(updated.status).toBe(200);
    expect(updated.body.data).toMatchObject({ phone: '+1 555 0100', clientAccountLimit: '9999.99', email: 'ada@lovelace.org', firstName: 'Ada' });
    expect(Date.parse(updated.body.data.updatedAt)).toBeGreaterThanOrEqual(Date.parse(created.body.data.updatedAt));

    const deleted = await system.request('DELETE', `/api/user/${id}`, { headers: auth });
    expect(deleted.status).toBe(200);
    expect(deleted.body.data.deletedAt).toEqual(expect.stringMatching(/^\d{4}-/));

    // Deleted users stay readable for the back office, but cannot change or get tokens.
    const afterDelete = await system.request('GET', `/api/user/${id}`, { headers: auth });
    expect(afterDelete.body.data.deletedAt).toBe(deleted.body.data.deletedAt);
    expect((await system.request('PUT', `/api/user/${id}`, { headers: auth, json: { phone: '1' } })).status).toBe(404);
    expect((await system.request('GET', `/api/user/${id}/token`, { headers: auth })).status).toBe(404);
    // Deleting again keeps the first deletion time.
    const again = await system.request('DELETE', `/api/user/${id}`, { headers: auth });
    expect(again.body.data.deletedAt).toBe(deleted.body.data.deletedAt);
  });

  it('issues a token with its expiry', async () => {
    const created = await system.request('POST', '/api/user', { headers: auth, json: NEW_USER });
    const issued = await system.request('GET', `/api/user/${created.body.data.id}/token`, { headers: auth });
    expect(issued.status).toBe(200);
    expect(issued.body.data).toEqual({ token: expect.stringMatching(/^hb_user_/), expiresAt: expect.any(String) });
    const ttl = Date.parse(issued.body.data.expiresAt) - Date.now();
    expect(ttl).toBeGreaterThan(23.9 * 3600 * 1000);
    expect(ttl).toBeLessThanOrEqual(24 * 3600 * 1000);
  });

  it('answers 404 for a user that does not exist', async () => {
    const response = await system.request('GET', '/api/user/999999', { headers: auth });
    expect(response.status).toBe(404);
    expect(response.body).toMatchObject({ success: false, data: null, code: 'NOT_FOUND' });
  });

  describe('validation', () => {
    const invalidCreates: [string, Record<string, unknown>, string][] = [
      ['empty firstName', { ...NEW_USER, firstName: '' }, 'firstName'],
      ['blank lastName', { ...NEW_USER, lastName: '   ' }, 'lastName'],
      ['invalid email', { ...NEW_USER, email: 'not-an-email' }, 'email'],
      ['empty phone', { ...NEW_USER, phone: '' }, 'phone'],
      ['negative clientAccountLimit', { ...NEW_USER, clientAccountLimit: -1 }, 'clientAccountLimit'],
      ['clientAccountLimit as text', { ...NEW_USER, clientAccountLimit: 'lots' }, 'clientAccountLimit'],
      ['clientAccountLimit with three decimals', { ...NEW_USER, clientAccountLimit: 1.005 }, 'clientAccountLimit'],
      ['missing email', { ...NEW_USER, email: undefined }, 'email'],
      ['missing clientAccountLimit', { ...NEW_USER, clientAccountLimit: undefined }, 'clientAccountLimit'],
      ['firstName as a number', { ...NEW_USER, firstName: 42 }, 'firstName'],
      ['an unknown field', { ...NEW_USER, role: 'admin' }, 'role'],
    ];

    it.each(invalidCreates)('POST rejects %s with 400 naming the field', async (_name, body, field) => {
      const response = await system.request('POST', '/api/user', { headers: auth, json: body });
      expect(response.status).toBe(400);
      expect(response.body).toMatchObject({ data: null, success: false, code: 'VALIDATION_FAILED' });
      expect(response.body.errors).toEqual(expect.arrayContaining([expect.objectContaining({ field })]));
    });

    it('POST rejects a body that is not an object', async () => {
      const response = await system.request('POST', '/api/user', { headers: auth, json: [NEW_USER] });
      expect(response.status).toBe(400);
      expect(response.body.code).toBe('VALIDATION_FAILED');
    });

    it('PUT validates the fields it is given and needs at least one', async () => {
      const id = (await system.request('POST', '/api/user', { headers: auth, json: NEW_USER })).body.data.id;
      for (const body of [{ email: 'nope' }, { firstName: '' }, { phone: '' }, { clientAccountLimit: '-5' }, { clientAccountLimit: 'abc' }, {}]) {
        const response = await system.request('PUT', `/api/user/${id}`, { headers: auth, json: body });
        expect(response.status).toBe(400);
        expect(response.body.code).toBe('VALIDATION_FAILED');
      }
      const unchanged = await system.request('GET', `/api/user/${id}`, { headers: auth });
      expect(unchanged.body.data).toMatchObject({ email: NEW_USER.email, clientAccountLimit: '2500.50' });
    });

    it.each(['abc', '0', '-1', '1.5', '99999999999'])('rejects the path id %s with 400', async (id) => {
      const response = await system.request('GET', `/api/user/${id}`, { headers: auth });
      expect(response.status).toBe(400);
      expect(response.body.errors).toEqual([{ field: 'id', message: 'id must be a positive integer' }]);
    });
  });
});
