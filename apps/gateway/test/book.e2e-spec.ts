import { CARD, GUEST, TWO_ADULTS, bearer, bookV1, completedSearch, day, prebookV1, prebookV2, queryTestDatabase, staySequence } from '@hotel/testing';
import { renderPdf } from './pdf-pages';
import { ClientKeys, TestSystem, VENDOR_REFERENCE } from './system';

const STAY = { check_in: day(30), check_out: day(33), rooms: TWO_ADULTS };
/** Each booking its own dates, so tests never compete for one night's allotment. */
const freshStay = staySequence(40, 3);

/** Book (V1 and V2) through the booking saga. */
describe('book', () => {
  let system: TestSystem, acme: ClientKeys, auth: { authorization: string };
  beforeAll(async () => ({ system, acme, auth } = await TestSystem.startWithClient()));
  afterAll(() => system?.close());

  /** A prebooked rate; `hotelIndex` picks another hotel, so bookings do not compete for one allotment. */
  const prebooked = (method: 'account' | 'credit_card' = 'account', headers = auth, hotelIndex = 0) => prebookV1(system, headers, freshStay(), { method, hotelIndex });

  const balance = async (client = acme) => (await system.request('GET', '/api/accounting/balance', { headers: { authorization: client.backend_token } })).body.data;

  it('books an account rate: confirmed, references, debit entry equal to the price', async () => {
    const before = await balance();
    const { path, prebook, hotelId } = await prebooked();
    const response = await system.request('POST', path, { headers: auth, json: { ...GUEST, client_reference: 'ACME-1', language: 'fr' } });
    expect(response.status).toBe(201);
    const booking = response.body.data;
    expect(booking).toMatchObject({
      id: expect.any(Number),
      status: 'confirmed',
      booking_reference: [expect.stringMatching(VENDOR_REFERENCE), `HB-${booking.id}`],
      hotel_id: hotelId,
      nights: 3,
      first_name: 'Ada',
      last_name: 'Lovelace',
      email: GUEST.email,
      phone: GUEST.phone,
      price_chargeable: prebook.rate.price_chargeable,
      price_currency: 'USD',
      payment_method: 'account',
      is_sandbox: false,
      client_reference: 'ACME-1',
      rooms: [{ adults: [{ title: null, first_name: 'Ada', last_name: 'Lovelace' }], children: [] }],
      rate: { id: prebook.rate.id },
      hotel: { id: hotelId },
      cancellation_policy: prebook.rate.cancellation_policy,
    });
    // language=fr: the hotel's French description (or English where it has none).
    const { hotelById } = await import('@hotel/inventory');
    const catalogHotel = hotelById(hotelId)!;
    expect(booking.hotel.description).toBe(catalogHotel.descriptions.fr ?? catalogHotel.descriptions.en);
    const entries = await system.request('GET', `/api/accounting/booking/${booking.id}`, { headers: { authorization: acme.backend_token } });
    expect(entries.body.data).toEqual([expect.objectContaining({ debit: prebook.rate.price_chargeable, credit: 0, bookingId: booking.id })]);
    const after = await balance();
    expect(after.debits).toBeCloseTo(before.debits + prebook.rate.price_chargeable, 2);
    expect(after.holds).toBe(0);
  });

  it('books a card rate: debit and matching card credit, balance unchanged', async () => {
    const before = await balance();
    const { path, prebook } = await prebooked('credit_card');
    const response = await system.request('POST', path, { headers: auth, json: { ...GUEST, ...CARD } });
    expect(response.status).toBe(201);
    expect(response.body.data).toMatchObject({ status: 'confirmed', payment_method: 'credit_card' });
    const entries = (await system.request('GET', `/api/accounting/booking/${response.body.data.id}`, { headers: { authorization: acme.backend_token } })).body.data;
    expect(entries).toEqual([
      expect.objectContaining({ debit: prebook.rate.price_chargeable, credit: 0, ccPaymentId: expect.any(String) }),
      expect.objectContaining({ debit: 0, credit: prebook.rate.price_chargeable, ccPaymentId: expect.any(String) }),
    ]);
    expect((await balance()).available).toBeCloseTo(before.available, 2);
  });

  it('records a declined card as a failed booking and answers 400 with the reason', async () => {
    const { path } = await prebooked('credit_card');
    const response = await system.request('POST', path, { headers: auth, json: { ...GUEST, ...CARD, payment_token: 'tok_declined', client_reference: 'DECLINED-1' } });
    expect(response.status).toBe(400);
    expect(response.body).toMatchObject({ code: 'PAYMENT_DECLINED', message: 'card declined' });
    const [row] = await queryTestDatabase<{ status: string }>(system.database.url, `SELECT status FROM booking.bookings WHERE client_reference = 'DECLINED-1'`);
    expect(row.status).toBe('failed');
  });

  it('requires a prebook, the same room count and card fields for credit_card', async () => {
    const search = await completedSearch(system, auth, { place_id: 'gn:2988507', ...STAY });
    const hotelId = search.results[0].hotel.id;
    const rateId = search.results[0].hotel.lowest_rate.id;
    const noPrebook = await system.request('POST', `/book/${hotelId}/${search.sessionId}/${rateId}/account`, { headers: auth, json: GUEST });
    expect(noPrebook.status).toBe(400);
    expect(noPrebook.body).toMatchObject({ code: 'PREBOOK_REQUIRED', message: 'prebook required' });

    const { path } = await prebooked();
    const twoRooms = await system.request('POST', path, { headers: auth, json: { ...GUEST, rooms: [GUEST.rooms[0], GUEST.rooms[0]] } });
    expect(twoRooms.status).toBe(400);
    expect(twoRooms.body.errors[0].field).toBe('rooms');

    const card = await prebooked('credit_card');
    const noCard = await system.request('POST', card.path, { headers: auth, json: GUEST });
    expect(noCard.status).toBe(400);
    expect(noCard.body.errors.map((error: any) => error.field).sort()).toEqual([...Object.keys(CARD)].sort());
    const expired = await system.request('POST', card.path, { headers: auth, json: { ...GUEST, ...CARD, payment_expiration: '01/20' } });
    expect(expired.body.errors.map((error: any) => error.field)).toEqual(['payment_expiration']);
  });

  it('expires a prebook after 15 minutes', async () => {
    const { path, prebook } = await prebooked();
    await queryTestDatabase(system.database.url, `UPDATE rates.prebooks SET expires_at = now() - interval '1 second' WHERE id = $1`, [prebook.prebook_id]);
    const response = await system.request('POST', path, { headers: auth, json: GUEST });
    expect(response.status).toBe(400);
    expect(response.body.code).toBe('PREBOOK_REQUIRED');
  });

  it('rejects a reused client_reference (400) but lets another client use it', async () => {
    const first = await prebooked();
    expect((await system.request('POST', first.path, { headers: auth, json: { ...GUEST, client_reference: 'REF-42' } })).status).toBe(201);
    const second = await prebooked('account', auth, 1);
    const duplicate = await system.request('POST', second.path, { headers: auth, json: { ...GUEST, client_reference: 'REF-42' } });
    expect(duplicate.status).toBe(400);
    expect(duplicate.body).toMatchObject({ code: 'DUPLICATE_CLIENT_REFERENCE', message: 'duplicate client_reference' });
    const globex = await system.createClient('Globex', '100000');
    const other = await prebooked('account', bearer(globex.api_key));
    expect((await system.request('POST', other.path, { headers: bearer(globex.api_key), json: { ...GUEST, client_reference: 'REF-42' } })).status).toBe(201);
  });

  it('20 concurrent requests with one idempotency key make one booking; a different body is 409', async () => {
    const { path } = await prebooked();
    const body = { ...GUEST, idempotency_key: 'idem-race-1' };
    const responses = await Promise.all(Array.from({ length: 20 }, () => system.request('POST', path, { headers: auth, json: body })));
    const ids = new Set(responses.map((response) => response.body.data?.id));
    expect(ids.size).toBe(1);
    expect(responses.filter((response) => response.status === 201)).toHaveLength(1);
    expect(responses.filter((response) => response.status === 200)).toHaveLength(19);
    const [count] = await queryTestDatabase<{ n: number }>(system.database.url, `SELECT count(*)::int AS n FROM booking.bookings WHERE idempotency_key = 'idem-race-1'`);
    expect(count.n).toBe(1);
    const conflict = await system.request('POST', path, { headers: auth, json: { ...body, phone: '+1 555 0100' } });
    expect(conflict.status).toBe(409);
    expect(conflict.body.code).toBe('IDEMPOTENCY_CONFLICT');
  });

  it('concurrent bookings on one client never overdraw its funds', async () => {
    const tight = await system.createClient('Tight Travel', '2000');
    const headers = bearer(tight.api_key);
    const prebooks = [];
    for (let i = 0; i < 8; i++) prebooks.push(await prebooked('account', headers, i));
    const responses = await Promise.all(prebooks.map(({ path }) => system.request('POST', path, { headers, json: GUEST })));
    const confirmed = responses.filter((response) => response.status === 201);
    const refused = responses.filter((response) => response.status === 400);
    expect(confirmed.length + refused.length).toBe(8);
    for (const response of refused) expect(response.body.code).toBe('INSUFFICIENT_FUNDS');
    const after = await balance(tight);
    expect(after.available).toBeGreaterThanOrEqual(0);
    expect(after.holds).toBe(0);
    const spent = confirmed.reduce((sum, response) => sum + response.body.data.price_chargeable, 0);
    expect(after.debits).toBeCloseTo(spent, 2);
  });

  it('a sandbox key books with is_sandbox true and moves no money', async () => {
    const before = await balance();
    const { path } = await prebooked('account', bearer(acme.sandbox_api_key));
    const response = await system.request('POST', path, { headers: bearer(acme.sandbox_api_key), json: GUEST });
    expect(response.status).toBe(201);
    expect(response.body.data).toMatchObject({ status: 'confirmed', is_sandbox: true });
    const after = await balance();
    expect(after).toEqual(before);
  });

  it('books a V2 prebook through the same saga', async () => {
    const { rate, prebook } = await prebookV2(system, auth, freshStay());
    const response = await system.request('POST', '/v2/book', { headers: auth, json: { ...GUEST, prebook_id: prebook.prebook_id, lang: 'es' } });
    expect(response.status).toBe(201);
    expect(response.body.data).toMatchObject({ status: 'confirmed', rate: { id: rate.id } });
    expect((await system.request('POST', '/v2/book', { headers: auth, json: { ...GUEST, prebook_id: '7d1f4c8e-0000-4000-8000-000000000000' } })).body.code).toBe('PREBOOK_REQUIRED');
  });

  it('validates the body: contact fields, language', async () => {
    const { path } = await prebooked();
    for (const [body, field] of [
      [{ ...GUEST, email: 'nope' }, 'email'],
      [{ ...GUEST, phone: '' }, 'phone'],
      [{ ...GUEST, rooms: [{ lead_first_name: 'A' }] }, 'rooms.0.lead_last_name'],
      [{ ...GUEST, language: 'de' }, 'language'],
      [{ ...GUEST, rooms: [] }, 'rooms'],
    ] as const) {
      const response = await system.request('POST', path, { headers: auth, json: body });
      expect(response.status).toBe(400);
      expect(response.body.errors.map((error: any) => error.field)).toContain(field);
    }
  });
});

describe('vouchers', () => {
  let system: TestSystem, auth: { authorization: string };
  beforeAll(async () => ({ system, auth } = await TestSystem.startWithClient()));
  afterAll(() => system?.close());

  it('links a confirmed booking to a signed, expiring PDF voucher; tampered or expired links are 404', async () => {
    const booking = await bookV1(system, auth, STAY);
    const url = new URL(booking.voucher_url);
    expect(url.protocol).toBe('https:');
    expect(url.pathname).toBe(`/vouchers/${booking.id}`);
    const expires = Number(url.searchParams.get('expires'));
    expect(expires * 1000 - Date.now()).toBeGreaterThan(29 * 86_400_000);

    const pdf = await system.request('GET', `${url.pathname}${url.search}`);
    expect(pdf.status).toBe(200);
    expect(pdf.headers['content-type']).toBe('application/pdf');
    expect(pdf.text.startsWith('%PDF-')).toBe(true);

    const tampered = await system.request('GET', `${url.pathname}?expires=${expires + 1}&signature=${url.searchParams.get('signature')}`);
    expect(tampered.status).toBe(404);
    expect(tampered.body).toMatchObject({ success: false, code: 'NOT_FOUND' });
    const otherBooking = await system.request('GET', `/vouchers/${booking.id + 1}${url.search}`);
    expect(otherBooking.status).toBe(404);
    expect((await system.request('GET', `${url.pathname}`)).status).toBe(404);
  });

  it('renders a voucher once and serves it again with its ETag: If-None-Match gets 304 and no body; a cancelled booking’s is another', async () => {
    const booking = await bookV1(system, auth, STAY);
    const url = new URL(booking.voucher_url);
    const link = `${url.pathname}${url.search}`;
    const first = await system.request('GET', link);
    expect(first.status).toBe(200);
    const etag = first.headers.etag as string;
    expect(etag).toMatch(/^"[A-Za-z0-9_-]{27}"$/);
    expect(first.headers['cache-control']).toBe('private, max-age=3600');
    // The same bytes again (kept, not rendered anew: a rendering dates itself).
    const again = await system.request('GET', link);
    expect(again.headers.etag).toBe(etag);
    expect(again.text).toBe(first.text);
    expect(await queryTestDatabase(system.database.url, 'SELECT count(*)::int AS kept FROM booking.voucher_pdfs WHERE booking_id = $1', [booking.id])).toEqual([{ kept: 1 }]);

    const notModified = await system.request('GET', link, { headers: { 'if-none-match': `W/"x", ${etag}` } });
    expect(notModified.status).toBe(304);
    expect(notModified.text).toBe('');
    expect(notModified.headers.etag).toBe(etag);
    // Another version (or a malformed header): the whole PDF.
    expect((await system.request('GET', link, { headers: { 'if-none-match': '"other"' } })).status).toBe(200);
    expect((await system.request('GET', link, { headers: { 'if-none-match': 'garbage' } })).status).toBe(200);

    // Cancelled: the same link serves another version, a voucher that says so.
    expect((await system.request('POST', `/book/cancel/${booking.id}`, { headers: auth })).status).toBe(200);
    const cancelled = await system.request('GET', link, { headers: { 'if-none-match': etag } });
    expect(cancelled.status).toBe(200);
    expect(cancelled.headers.etag).not.toBe(etag);
  });

  it('prints what a guest needs, in the booking’s language, with the supplier’s reference as a QR code; a cancelled booking’s says it is cancelled', async () => {
    const booking = await bookV1(system, auth, freshStay(), { body: { language: 'fr' } });
    const url = new URL(booking.voucher_url);
    const link = `${url.pathname}${url.search}`;
    const pdf = await system.request('GET', link);
    expect(pdf.status).toBe(200);
    const voucher = await renderPdf(pdf.bytes, `voucher-${booking.id}-fr`);
    // Drawn, not blank: text and a code over a small part of the page.
    expect(voucher.pages).toBe(1);
    expect(voucher.inkShare).toBeGreaterThan(0.005);
    expect(voucher.inkShare).toBeLessThan(0.3);
    // The QR code, read back from the image, is the supplier's reference the hotel knows the booking by.
    expect(voucher.qr).toBe(booking.booking_reference[0]);
    const text = voucher.text.replace(/\u00a0/g, ' ');
    const frenchDay = (day: string) => new Intl.DateTimeFormat('fr', { dateStyle: 'full', timeZone: 'UTC' }).format(new Date(`${day}T00:00:00Z`));
    const hotel = booking.hotel;
    expect(hotel.phone).toMatch(/^\+33 /);
    expect(hotel.email).toMatch(/^reservations@.+\.example$/);
    for (const expected of [
      "Bon d'échange hôtel",
      'Réservé par: Acme Travel',
      `Référence de réservation: HB-${booking.id}`,
      `Référence fournisseur: ${booking.booking_reference[0]}`,
      hotel.name,
      hotel.phone,
      hotel.email,
      `Arrivée: ${frenchDay(booking.check_in)}`,
      `Départ: ${frenchDay(booking.check_out)}`,
      '2 adultes',
      "Conditions d'annulation",
      `${GUEST.rooms[0].lead_first_name} ${GUEST.rooms[0].lead_last_name}`,
    ]) {
      expect({ expected, found: text.includes(expected) }).toEqual({ expected, found: true });
    }
    // No raw ISO time and no "adult(s)": written for a reader.
    expect(text).not.toMatch(/\d{4}-\d{2}-\d{2}T|\(s\)/);

    const cancel = await system.request('POST', `/book/cancel/${booking.id}`, { headers: auth });
    expect(cancel.status).toBe(200);
    const after = await system.request('GET', link);
    expect(after.status).toBe(200);
    expect(after.headers['content-disposition']).toContain(`voucher-${booking.id}-cancelled.pdf`);
    const cancelledVoucher = await renderPdf(after.bytes, `voucher-${booking.id}-fr-cancelled`);
    const cancelledText = cancelledVoucher.text.replace(/\u00a0/g, ' ');
    expect(cancelledText).toContain('ANNULÉE');
    expect(cancelledText).toContain(`Référence d'annulation: ${cancel.body.data.cancellation_reference}`);
    expect(cancelledVoucher.qr).toBe(booking.booking_reference[0]);
    // The booking itself has no voucher link any more; the link given out says what happened.
    const [listed] = (await system.request('GET', `/book?id=${booking.id}`, { headers: auth })).body.data;
    expect(listed.voucher_url).toBeNull();
  });
});
