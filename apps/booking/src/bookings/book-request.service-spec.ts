import { randomUUID } from 'node:crypto';
import { Actor, BookCreateBody, CreateBookingRequest, SUBJECTS, StoredPrebook, bookRequestFingerprint, bookingOrderOf, inBookApiWords } from '@hotel/contracts';
import { ServiceHarness, refusalOf } from '@hotel/testing';
import { answerSagaCallsNormally, newBookingTemplate, startBookingHarness } from '../../test/booking-fixtures';
import { BookingEnv } from '../booking.env';
import { Vouchers } from '../vouchers/vouchers';
import { BookingsController } from './bookings.controller';
import { BookingsRepository, NewBooking } from './bookings.repository';
import { BookingsService } from './bookings.service';

// Service tier: a book request as the bus brings it (real PostgreSQL, the other services
// faked). booking.booking.create.v4 takes a BookingOrder in the booking service's words and
// the request's fingerprint, and answers the booking in them.

describe('book requests (service tier)', () => {
  let harness: ServiceHarness<BookingEnv>;
  let controller: BookingsController;
  let template: NewBooking;
  const actor: Actor = { clientId: 1, userId: null, role: 'api', sandbox: false };
  /** Each request books a prebook of its own, as the fake rates service answers it. */
  const prebooks = new Map<string, StoredPrebook>();

  const prebookOf = (promoCode: string | null = null): string => {
    const prebookId = randomUUID();
    prebooks.set(prebookId, {
      prebookId,
      offer: template.offer as never,
      paymentMethod: 'account',
      response: {
        search: { check_in: template.checkIn, check_out: template.checkOut },
        rooms: [{ adults: 2, children: 0, children_ages: [] }],
        rate: template.rate,
        remarks: '',
      } as never,
      hotel: template.hotel,
      priceChargeable: template.priceChargeable,
      promoCode,
      discount: '0.00',
      fx: { vendorCurrency: template.priceCurrency, vendorPrice: template.priceChargeable, fxRate: '1', fxRateDate: null, fxMarginPercent: '0' },
      expiresAt: new Date(Date.now() + 3_600_000).toISOString(),
    });
    return prebookId;
  };
  const body = (fields: Partial<BookCreateBody> = {}): BookCreateBody => ({
    rooms: [{ lead_first_name: ' Ada ', lead_last_name: 'Lovelace' }],
    email: 'ada@example.com',
    phone: '+33 1 00 00 00 00',
    lang: 'fr',
    special_request: 'a quiet room',
    ...fields,
  });
  /** The request as the gateway sends it (v4), for an API request. */
  const v4Of = (request: CreateBookingRequest) => {
    const { body: apiBody, ...selector } = request;
    return { ...selector, order: bookingOrderOf(apiBody), fingerprint: bookRequestFingerprint(request) };
  };

  beforeAll(async () => {
    harness = await startBookingHarness();
    controller = new BookingsController(harness.get(BookingsService), harness.get(Vouchers));
    template = newBookingTemplate();
    answerSagaCallsNormally(harness.client);
    harness.client.on(SUBJECTS.RATES_PREBOOK_FIND, ({ prebookId }) => prebooks.get(prebookId!)!);
  });
  afterAll(() => harness?.close());

  it('books an order: its lead guest, contact, texts and keys as given, the fingerprint stored', async () => {
    const request = { actor, prebookId: prebookOf(), body: body({ idempotency_key: `k-${randomUUID()}`, client_reference: `REF-${randomUUID()}` }) };
    const { booking, replayed } = await controller.create(v4Of(request));
    expect(replayed).toBe(false);
    expect(booking).toMatchObject({ status: 'confirmed', clientReference: request.body.client_reference, lead: { firstName: 'Ada', email: 'ada@example.com' } });
    expect(booking.charged.amount).toMatch(/^\d+(\.\d+)?$/);
    const row = (await harness.get(BookingsRepository).findByIdempotencyKey({ clientId: 1, sandbox: false, userId: null }, request.body.idempotency_key!))!;
    expect(row).toMatchObject({ firstName: 'Ada', lastName: 'Lovelace', email: 'ada@example.com', language: 'fr', specialRequest: 'a quiet room', requestFingerprint: bookRequestFingerprint(request) });
  });

  it('answers a repeat of a key with the same booking, and another request under the key with 409', async () => {
    const request = { actor, prebookId: prebookOf(), body: body({ idempotency_key: `k-${randomUUID()}` }) };
    const first = await controller.create(v4Of(request));
    expect(first.replayed).toBe(false);
    const again = await controller.create(v4Of(request));
    expect(again).toEqual({ booking: first.booking, replayed: true });
    const other = { ...request, body: { ...request.body, phone: '+33 9 99 99 99 99' } };
    expect((await refusalOf(controller.create(v4Of(other))))?.message).toBe('idempotencyKey was used with a different request');
  });

  it("names a refusal's fields in the booking service's words (the gateway in the API's)", async () => {
    const request = { actor, prebookId: prebookOf(), body: body({ promo_code: 'TENOFF', rooms: [body().rooms[0], body().rooms[0]] }) };
    const v4 = await refusalOf(controller.create(v4Of(request)));
    expect(v4?.errors).toEqual([
      { field: 'leadGuests', message: 'leadGuests must name a lead guest for each of the 1 prebooked room(s)' },
      { field: 'promoCode', message: 'promo codes are applied at prebook: prebook again with promoCode to book with this discount' },
    ]);
    // The gateway names them in the API's words.
    expect(v4?.reworded(inBookApiWords).errors?.map((error) => error.field)).toEqual(['rooms', 'promo_code']);
  });
});
