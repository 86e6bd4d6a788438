import { createHash } from 'node:crypto';
import { plainToInstance } from 'class-transformer';
import { validateSync } from 'class-validator';
import { BookCreateBody, BookingOrder, bookRequestFingerprint, bookingOrderOf, inBookApiWords, isOwnBookRefusal } from './book';

describe("a book request in the booking service's words", () => {
  const body: BookCreateBody = {
    rooms: [
      { lead_first_name: 'Ada', lead_last_name: 'Lovelace' },
      { lead_first_name: 'Charles', lead_last_name: 'Babbage' },
    ],
    email: 'ada@example.com',
    phone: '+44 20 0000 0000',
    payment_token: 'tok_visa',
    payment_first_name: 'Ada',
    payment_last_name: 'Lovelace',
    payment_postal_code: 'SW1A 1AA',
    payment_expiration: '12/30',
    promo_code: 'TENOFF',
    idempotency_key: 'key-1',
    loyalty_number: 'L-1',
    special_request: 'late arrival',
    client_reference: 'REF-1',
    lang: 'es',
  };

  it('maps every field of the body, lang as the language when language is not given', () => {
    const order = bookingOrderOf(body);
    expect(order).toEqual({
      leadGuests: [
        { firstName: 'Ada', lastName: 'Lovelace' },
        { firstName: 'Charles', lastName: 'Babbage' },
      ],
      email: 'ada@example.com',
      phone: '+44 20 0000 0000',
      card: { token: 'tok_visa', firstName: 'Ada', lastName: 'Lovelace', postalCode: 'SW1A 1AA', expiration: '12/30' },
      promoCode: 'TENOFF',
      idempotencyKey: 'key-1',
      loyaltyNumber: 'L-1',
      specialRequest: 'late arrival',
      clientReference: 'REF-1',
      language: 'es',
    });
    expect(validateSync(plainToInstance(BookingOrder, order))).toEqual([]);
    expect(bookingOrderOf({ ...body, language: 'fr' }).language).toBe('fr');
    // An account payment: no card fields, an empty card; nothing the partner left out appears.
    expect(bookingOrderOf({ rooms: body.rooms, email: body.email, phone: body.phone })).toEqual({ leadGuests: expect.any(Array), email: body.email, phone: body.phone, card: {} });
  });

  it("fingerprints the request as the booking service always did: every object's fields sorted, the selector under its first names", () => {
    const request = { actor: { clientId: 1 }, sessionId: 's', hotelId: 7, rateId: 'r', paymentMethod: 'account' as const, body: { email: 'a@b.c', rooms: [{ lead_last_name: 'L', lead_first_name: 'F' }], phone: '1' } };
    const canonical = '{"body":{"email":"a@b.c","phone":"1","rooms":[{"lead_first_name":"F","lead_last_name":"L"}]},"hotel_id":7,"payment_method":"account","rate_id":"r","session_id":"s"}';
    expect(bookRequestFingerprint(request as never)).toBe(createHash('sha256').update(canonical).digest('hex'));
    // The caller is not part of it; every body field is.
    expect(bookRequestFingerprint({ ...request, actor: { clientId: 2 } } as never)).toBe(bookRequestFingerprint(request as never));
    expect(bookRequestFingerprint({ ...request, body: { ...request.body, phone: '2' } } as never)).not.toBe(bookRequestFingerprint(request as never));
  });

  it("words the booking service's refusals as the API names the fields", () => {
    expect(inBookApiWords('card.token is required for credit_card payment')).toBe('payment_token is required for credit_card payment');
    expect(inBookApiWords('card.expiration is in the past')).toBe('payment_expiration is in the past');
    expect(inBookApiWords('promoCode must be the code applied at prebook (TENOFF)')).toBe('promo_code must be the code applied at prebook (TENOFF)');
    expect(inBookApiWords('leadGuests')).toBe('rooms');
    expect(inBookApiWords('duplicate clientReference')).toBe('duplicate client_reference');
    expect(inBookApiWords('idempotencyKey was used with a different request')).toBe('idempotency_key was used with a different request');
    // A refusal of the order's input names the body's fields, as the API's validation does.
    expect(inBookApiWords('order.leadGuests.0.firstName')).toBe('body.rooms.0.lead_first_name');
    expect(inBookApiWords('order.card.expiration')).toBe('body.payment_expiration');
    expect(inBookApiWords('order.specialRequest must be shorter than or equal to 1000 characters')).toBe('body.special_request must be shorter than or equal to 1000 characters');
    // Only whole names: other words stay.
    expect(inBookApiWords('card declined: insufficient funds; promoCodes, cardholder')).toBe('card declined: insufficient funds; promoCodes, cardholder');
    // Only the booking service's own refusals are reworded; a vendor's or a card processor's text passes as it came.
    expect(['VALIDATION_FAILED', 'IDEMPOTENCY_CONFLICT', 'CONFLICT', 'DUPLICATE_CLIENT_REFERENCE'].every((code) => isOwnBookRefusal(code as never))).toBe(true);
    expect(['SUPPLIER_ERROR', 'PAYMENT_DECLINED', 'SERVICE_UNAVAILABLE', 'RATE_NOT_AVAILABLE'].some((code) => isOwnBookRefusal(code as never))).toBe(false);
  });
});
