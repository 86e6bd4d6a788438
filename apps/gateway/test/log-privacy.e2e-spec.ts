import { CARD, CapturedLogs, GUEST, bearer, bookV1, captureLogs, prebookV1, staySequence, userToken } from '@hotel/testing';
import { ClientKeys, TestSystem } from './system';

const freshStay = staySequence(300);
const PERSON = { ...GUEST, email: 'grace.hopper@navy.example', phone: '+1 202 555 0147' };

/**
 * Logs carry request ids, subjects, codes and timings, never a secret or a
 * guest's details: every line of a run that books, cancels and fails requests
 * (at debug level, the most talkative) is scanned for them.
 */
describe('log privacy', () => {
  let system: TestSystem, acme: ClientKeys, auth: { authorization: string };
  let logs: CapturedLogs;
  const secrets: string[] = [];

  beforeAll(async () => {
    logs = captureLogs();
    ({ system, acme, auth } = await TestSystem.startWithClient({ LOG_LEVEL: 'debug' }));
    secrets.push(acme.api_key, acme.sandbox_api_key, acme.backend_token);
  });
  afterAll(async () => {
    await system?.close();
    logs?.stop();
  });

  it('the booking service logs each booking made and each change of its status, under the request id that did it', async () => {
    const byBooking = (id: number) => logs.lines.filter((line) => line.service === 'booking' && line.bookingId === id);
    const booked = await bookV1(system, auth, freshStay());
    const created = byBooking(booked.id).find((line) => line.msg === 'booking created')!;
    expect(created).toMatchObject({ level: 'info', clientId: acme.client_id, paymentMethod: 'account', sandbox: false });
    expect(logs.lines.find((line) => line.service === 'gateway' && line.msg === 'request' && line.requestId === created.requestId)).toMatchObject({ method: 'POST', status: 201 });
    expect(byBooking(booked.id).find((line) => line.msg === 'booking confirmed')).toMatchObject({ requestId: created.requestId, step: 'done' });
    const cancelId = `cancel-${booked.id}`;
    expect((await system.request('POST', `/book/cancel/${booked.id}`, { headers: { ...auth, 'x-request-id': cancelId } })).status).toBe(200);
    expect(byBooking(booked.id).filter((line) => line.requestId === cancelId).map((line) => line.msg)).toEqual(['booking cancellation started', 'booking cancelled']);
    // A declined card: the gateway's line says why, and so does the booking's.
    const card = await prebookV1(system, auth, freshStay(), { method: 'credit_card' });
    const declined = await system.request('POST', card.path, { headers: { ...auth, 'x-request-id': 'declined-card' }, json: { ...GUEST, ...CARD, payment_token: 'tok_declined' } });
    expect(declined.status).toBe(400);
    const lines = logs.lines.filter((line) => line.requestId === 'declined-card');
    expect(lines.find((line) => line.service === 'gateway' && line.msg === 'request')).toMatchObject({ status: 400, code: declined.body.code, message: declined.body.message });
    expect(lines.find((line) => line.service === 'booking' && line.msg === 'booking failed')).toMatchObject({ failureCode: declined.body.code });
  });

  it('no key, token, card token, e-mail or phone number appears in any log line', async () => {
    const backend = { authorization: acme.backend_token };
    const { token } = await userToken(system, acme.backend_token, { firstName: 'Grace', lastName: 'Hopper', email: PERSON.email, phone: PERSON.phone, clientAccountLimit: 100 });
    secrets.push(token);

    const booked = await bookV1(system, auth, freshStay(), { body: PERSON });
    await system.request('POST', `/book/cancel/${booked.id}`, { headers: auth });
    const card = await prebookV1(system, auth, freshStay(), { method: 'credit_card' });
    expect((await system.request('POST', card.path, { headers: auth, json: { ...PERSON, ...CARD, payment_token: 'tok_declined' } })).status).toBe(400);
    await system.request('POST', card.path, { headers: auth, json: { ...PERSON, ...CARD } });
    // Refused and malformed requests.
    await system.request('GET', '/me', { headers: bearer(`${acme.api_key}x`) });
    await system.request('GET', '/book', { headers: bearer(token) });
    await system.request('POST', '/api/user', { headers: backend, json: { email: PERSON.email, phone: 42 } });
    await system.request('GET', '/me', { headers: { authorization: acme.backend_token } });

    const text = logs.lines.map((line) => JSON.stringify(line)).join('\n');
    expect(logs.lines.length).toBeGreaterThan(50);
    for (const secret of secrets) expect(text).not.toContain(secret);
    for (const personal of [PERSON.email, PERSON.phone, 'tok_visa', 'tok_declined', CARD.payment_postal_code]) expect(text).not.toContain(personal);
  });
});
