import { FxRateSet, fitsCurrency, toMilli, toMilliBig } from '@hotel/contracts';
import { VendorsEnv, remoteSuppliers } from '@hotel/hotelbeds';
import { OfferKey, PricingContext, Stay, SupplierOffer, conversionAt, convertRate, decodeV2RateId, hotelById } from '@hotel/inventory';
import { RateIdEnv, loadEnv } from '@hotel/platform';
import { CARD, GUEST, TEST_FX_RATES, bearer, day, hotelRates, repeatWhileUnavailable, settledBooking, staySequence } from '@hotel/testing';
import { ClientKeys, TestSystem } from './system';

/** Today's rates for the test: the ECB's figures of 26 May 2020, plus KWD (three decimals), dated today (TestSystem.importFxRates). */
const TODAY = new Date().toISOString().slice(0, 10);
const SET: FxRateSet = { date: TODAY, rates: TEST_FX_RATES, source: 'test', importedAt: new Date().toISOString() };

const PARIS = 'gn:2988507';
const freshStay = staySequence(60, 2);
const milli = (amount: number | string) => toMilli(amount);

describe('prices and money in each client currency', () => {
  let system: TestSystem;
  const clients: Record<string, ClientKeys> = {};
  let secret: string;

  beforeAll(async () => {
    ({ system, acme: clients.USD } = await TestSystem.startWithClient());
    await system.importFxRates();
    for (const [currency, limit] of [
      ['EUR', '100000'],
      ['JPY', '15000000'],
      ['KWD', '30000'],
    ]) {
      const created = await system.admin('create-client', '--name', `${currency} Travel`, '--credit-limit', limit, '--currency', currency);
      expect(created.code).toBe(0);
      clients[currency] = created.json;
    }
    secret = loadEnv(RateIdEnv, system.env).RATE_ID_SECRET;
  });
  afterAll(() => system?.close());

  const auth = (currency: string) => bearer(clients[currency].api_key);
  const offerName = (key: OfferKey) => [key.vendor, key.hotelId, key.roomId, key.board, key.refundable, key.memberRate].join('|');
  /** Every offer the vendors (at the test's vendor simulator) make for the hotels, priced in their currencies, by offer. */
  async function vendorOffers(hotelIds: number[], stay: Stay, context: PricingContext): Promise<Map<string, SupplierOffer['rate']>> {
    const vendors = remoteSuppliers(loadEnv(VendorsEnv, system.env));
    try {
      const hotels = hotelIds.map((id) => hotelById(id)!);
      const offers = new Map<string, SupplierOffer['rate']>();
      for (const vendor of vendors) {
        for (const offer of (await vendor.availability(hotels, stay, { includeMemberRates: true, context })).flat()) offers.set(offerName(offer.key), offer.rate);
      }
      return offers;
    } finally {
      for (const vendor of vendors) vendor.close?.();
    }
  }
  const backend = (currency: string) => ({ authorization: clients[currency].backend_token });

  it('GET /me names the client currency and its minor unit', async () => {
    for (const [currency, decimals] of [
      ['USD', 2],
      ['EUR', 2],
      ['JPY', 0],
      ['KWD', 3],
    ] as const) {
      const me = await system.request('GET', '/me', { headers: auth(currency) });
      expect(me.body.data).toMatchObject({ currency, currency_decimals: decimals, fx_margin_percent: '0' });
    }
  });

  it('V2 rates: every price is the vendor price converted at the rates in force, in the client currency and its minor unit', async () => {
    const stay = freshStay();
    const asking = new Date().toISOString();
    const answers = await Promise.all(
      ['USD', 'EUR', 'JPY', 'KWD'].map(async (currency) => [currency, (await system.request('POST', '/v2/rates', { headers: auth(currency), json: { place_id: PARIS, ...stay, limit: 20 } })).body] as const),
    );
    const vendorCurrencies = new Set<string>();
    for (const [currency, answer] of answers) {
      expect(answer.rates.length).toBeGreaterThan(10);
      const payloads = answer.rates.map((rate: { id: string }) => decodeV2RateId(rate.id, secret, 3600)!);
      const asked = await vendorOffers(
        [...new Set<number>(payloads.map((payload: any) => payload.key.hotelId))],
        payloads[0].stay,
        { epoch: payloads[0].epoch, issuedAt: payloads[0].issuedAt },
      );
      for (const [index, rate] of answer.rates.entries()) {
        // The price the vendor itself answers for the offer, asked apart from the platform's search.
        const vendorRate = asked.get(offerName(payloads[index].key))!;
        expect(vendorRate).toBeDefined();
        vendorCurrencies.add(vendorRate.price_currency);
        const expected = convertRate(vendorRate, conversionAt(SET, vendorRate.price_currency, { currency, fxMarginPercent: '0' }));
        // A non-refundable rate's penalty runs from when the vendor answered: the search's answer, not this test's.
        if (rate.cancellation_policy === 'NonRefundable') {
          expect(rate.cancellation_policy_datetime >= asking && rate.cancellation_policy_datetime <= expected.cancellation_policy_datetime!).toBe(true);
          expected.cancellation_policy_datetime = rate.cancellation_policy_datetime;
          expected.cancellation_policy_data = expected.cancellation_policy_data.map((period) => ({ ...period, from_datetime: rate.cancellation_policy_datetime }));
        }
        expect({ id: rate.id, ...expected }).toEqual(rate);
        expect(rate.price_currency).toBe(currency);
        expect(fitsCurrency(milli(rate.price_chargeable), currency)).toBe(true);
      }
    }
    // The built-in vendors price in three currencies.
    expect(vendorCurrencies).toEqual(new Set(['EUR', 'GBP', 'USD']));
  });

  it('V1: search and hotel rates answer in the client currency; yen have no decimals', async () => {
    const stay = freshStay();
    const { rates } = await hotelRates(system, auth('JPY'), stay);
    expect(rates.length).toBeGreaterThan(0);
    for (const rate of rates) {
      expect(rate.price_currency).toBe('JPY');
      expect(Number.isInteger(rate.price_chargeable)).toBe(true);
      expect(rate.price_per_night.reduce((sum: number, value: number) => sum + value, 0)).toBe(rate.price_chargeable);
    }
    const search = await system.request('POST', '/search', { headers: auth('KWD'), json: { place_id: PARIS, ...stay } });
    for (const { hotel } of search.body.data.results) {
      expect(hotel.lowest_rate.price_currency).toBe('KWD');
      expect(fitsCurrency(milli(hotel.lowest_rate.price_chargeable), 'KWD')).toBe(true);
    }
  });

  it('books and cancels at once in JPY, EUR, KWD and USD: the prebook fixes the rate, every ledger exact in its currency', async () => {
    const currencies = ['JPY', 'EUR', 'KWD', 'USD'];
    const bookingsPerClient = 3;
    const made = await Promise.all(
      currencies.flatMap((currency) =>
        Array.from({ length: bookingsPerClient }, async (_, index) => {
          const stay = freshStay();
          const { sessionId, hotelId, rates } = await hotelRates(system, auth(currency), stay, index);
          const rate = rates[0];
          const method = index === 2 ? 'credit_card' : 'account';
          const prebook = await system.request('GET', `/prebook/${hotelId}/${sessionId}/${rate.id}/${method}`, { headers: auth(currency) });
          expect(prebook.status).toBe(200);
          // Twelve bookings at once on a loaded machine: one may outlive the call (503 with Retry-After), and is
          // repeated as a partner would, with its idempotency key: the repeat answers the one booking (200 when it
          // replays one already made), so the ledgers below still count each once.
          const booked = await repeatWhileUnavailable(() =>
            system.request('POST', `/book/${hotelId}/${sessionId}/${rate.id}/${method}`, {
              headers: auth(currency),
              json: { ...GUEST, idempotency_key: `fx-${currency}-${index}`, ...(method === 'credit_card' && CARD) },
            }),
          );
          expect([200, 201]).toContain(booked.status);
          const booking = booked.body.data;
          // Answered `pending` when its steps outlive the call (a loaded machine): it settles afterwards, before the cancellations below.
          if (booking.status === 'pending') booking.status = (await settledBooking(system, booking.id)).status;
          return { currency, prebook: prebook.body.data, booking };
        }),
      ),
    );
    for (const { currency, prebook, booking } of made) {
      expect(booking).toMatchObject({ status: 'confirmed', price_currency: currency, price_chargeable: prebook.rate.price_chargeable });
      expect(fitsCurrency(milli(booking.price_chargeable), currency)).toBe(true);
    }
    // Cancelled at once, all of them (a cancel answered 503 "recorded and under way" on a loaded machine is repeated, as the API says).
    const cancelled = await Promise.all(made.map(({ currency, booking }) => repeatWhileUnavailable(() => system.request('POST', `/book/cancel/${booking.id}`, { headers: auth(currency) }))));
    expect(cancelled.map((response) => response.status)).toEqual(made.map(() => 200));
    for (const { booking } of made) expect((await settledBooking(system, booking.id)).status).toBe('cancelled');

    for (const currency of currencies) {
      const mine = made.filter((entry) => entry.currency === currency);
      // The backend booking keeps the vendor price and currency, the rate and its date.
      const listed = (await system.request('GET', '/api/booking?limit=50', { headers: backend(currency) })).body.data;
      for (const { booking } of mine) {
        const backendBooking = listed.find((candidate: { id: number }) => candidate.id === booking.id);
        expect(backendBooking).toMatchObject({ currency, vendorCurrency: expect.stringMatching(/^(EUR|GBP|USD)$/), fxMarginPercent: '0' });
        const conversion = conversionAt(SET, backendBooking.vendorCurrency, { currency, fxMarginPercent: '0' });
        expect(backendBooking.fxRate).toBe(conversion.rate);
        expect(backendBooking.fxRateDate).toBe(conversion.date);
        expect(conversion.convert(milli(backendBooking.vendorPrice))).toBe(milli(booking.price_chargeable));
      }
      // The ledger: each account booking debited its price and credited back price − penalty, exactly, in the currency.
      const entries = (await system.request('GET', '/api/accounting?limit=100', { headers: backend(currency) })).body.data;
      let credits = 0n;
      let debits = 0n;
      for (const entry of entries) {
        expect(fitsCurrency(milli(entry.debit), currency) && fitsCurrency(milli(entry.credit), currency)).toBe(true);
        credits += toMilliBig(String(entry.credit));
        debits += toMilliBig(String(entry.debit));
      }
      for (const { booking } of mine) {
        const own = entries.filter((entry: { bookingId: number }) => entry.bookingId === booking.id);
        const debit = own.reduce((sum: number, entry: { debit: number }) => sum + milli(entry.debit), 0);
        expect(debit).toBe(milli(booking.price_chargeable));
      }
      const balance = (await system.request('GET', '/api/accounting/balance', { headers: backend(currency) })).body.data;
      expect(balance.currency).toBe(currency);
      expect(toMilliBig(String(balance.available))).toBe(toMilliBig(String(balance.creditLimit)) + credits - debits - toMilliBig(String(balance.holds)));
      expect(balance.holds).toBe(0);
    }
  });

  it('a percent promo code applies in any currency; an amount code only to bookings in its currency', async () => {
    expect((await system.admin('create-promo', '--code', 'ANY10', '--percent', '10')).code).toBe(0);
    expect((await system.admin('create-promo', '--code', 'USD25', '--amount', '25', '--currency', 'USD')).code).toBe(0);
    const stay = freshStay();
    const { sessionId, hotelId, rates } = await hotelRates(system, auth('JPY'), stay);
    const prebook = (code: string) => system.request('GET', `/prebook/${hotelId}/${sessionId}/${rates[0].id}/account?promo_code=${code}`, { headers: auth('JPY') });
    const percent = (await prebook('ANY10')).body.data;
    expect(percent.promo_code_response).toMatchObject({ success: true, discount_amount: Math.round(rates[0].price_chargeable * 0.1) });
    expect(percent.rate.price_chargeable).toBe(rates[0].price_chargeable - percent.promo_code_response.discount_amount);
    const amount = (await prebook('USD25')).body.data;
    expect(amount.promo_code_response).toMatchObject({ success: false, discount_amount: 0, message: expect.stringContaining('USD') });
    expect(amount.rate.price_chargeable).toBe(rates[0].price_chargeable);
    // A percentage with a minimum amount: the minimum is in the code's currency, so is the code.
    expect((await system.admin('create-promo', '--code', 'MIN10', '--percent', '10', '--min-amount', '100', '--currency', 'USD')).code).toBe(0);
    expect((await prebook('MIN10')).body.data.promo_code_response).toMatchObject({ success: false, message: 'promo code is for USD bookings' });
    // The promo validation route quotes in the caller's currency, and refuses an amount finer than it.
    const yen = await system.request('POST', '/book/promocode', { headers: auth('JPY'), json: { code: 'ANY10', booking_amount: 12345 } });
    expect(yen.body.data).toEqual({ price_discount_amount: 1235, price_currency: 'JPY' });
    const fractional = await system.request('POST', '/book/promocode', { headers: auth('JPY'), json: { code: 'ANY10', booking_amount: 12345.5 } });
    expect(fractional.status).toBe(400);
    expect(fractional.body).toMatchObject({ code: 'VALIDATION_FAILED', errors: [{ field: 'booking_amount', message: expect.stringContaining('JPY') }] });
  });

  it('an FX margin raises converted prices by it; prices in the client own currency keep theirs', async () => {
    const stay = freshStay();
    const rates = async () => (await system.request('POST', '/v2/rates', { headers: auth('EUR'), json: { place_id: PARIS, ...stay, limit: 20 } })).body.rates;
    const before = await rates();
    const set = await system.admin('set-fx-margin', '--client-id', String(clients.EUR.client_id), '--percent', '2.5');
    expect(set.json).toEqual({ client_id: clients.EUR.client_id, currency: 'EUR', fx_margin_percent: '2.5' });
    // The gateway forgets its cached credential on the change; its cache lives AUTH_CACHE_TTL_MS at most anyway.
    const after = await rates();
    expect((await system.request('GET', '/me', { headers: auth('EUR') })).body.data.fx_margin_percent).toBe('2.5');
    let converted = 0;
    const payloads = after.map((rate: { id: string }) => decodeV2RateId(rate.id, secret, 3600)!);
    const asked = await vendorOffers([...new Set<number>(payloads.map((payload: any) => payload.key.hotelId))], payloads[0].stay, {
      epoch: payloads[0].epoch,
      issuedAt: payloads[0].issuedAt,
    });
    for (const [index, rate] of after.entries()) {
      const vendorRate = asked.get(offerName(payloads[index].key))!;
      const previous = before.find((candidate: { id: string }) => candidate.id === rate.id);
      if (vendorRate.price_currency === 'EUR') {
        if (previous) expect(rate.price_chargeable).toBe(previous.price_chargeable);
        continue;
      }
      converted++;
      const expected = conversionAt(SET, vendorRate.price_currency, { currency: 'EUR', fxMarginPercent: '2.5' });
      expect(milli(rate.price_chargeable)).toBe(expected.convert(milli(vendorRate.price_chargeable)));
    }
    expect(converted).toBeGreaterThan(0);
  });

  it('a client currency needs a rate in force, and the ISO 4217 list knows it', async () => {
    const unknown = await system.admin('create-client', '--name', 'Nowhere', '--currency', 'XYZ');
    expect(unknown.code).toBe(2);
    const unpriced = await system.admin('create-client', '--name', 'Dinar', '--currency', 'BHD');
    expect(unpriced.code).toBe(2);
    expect(unpriced.stderr).toContain('BHD');
  });

  it('a promo amount is in its currency\'s minor unit; a KWD credit limit takes three decimals', async () => {
    const halfYen = await system.admin('create-promo', '--code', 'HALFYEN', '--amount', '500.50', '--currency', 'JPY');
    expect(halfYen.code).toBe(1);
    expect(halfYen.stderr).toContain('value must have no decimals in JPY');
    expect((await system.admin('create-promo', '--code', 'NOTISO', '--percent', '5', '--currency', 'XYZ')).code).toBe(2);
    const dinar = await system.admin('create-client', '--name', 'Dinar Two', '--credit-limit', '1000.125', '--currency', 'KWD');
    expect(dinar.code).toBe(0);
    expect((await system.request('GET', '/api/accounting/balance', { headers: { authorization: dinar.json.backend_token } })).body.data).toMatchObject({ currency: 'KWD', creditLimit: 1000.125 });
  });

  it('an amount finer than the client currency is refused with 400 naming the field', async () => {
    const user = await system.request('POST', '/api/user', {
      headers: backend('JPY'),
      json: { firstName: 'Ada', lastName: 'Lovelace', email: 'ada@example.com', phone: '+44 20 7946 0000', clientAccountLimit: 1000.5 },
    });
    expect(user.status).toBe(400);
    expect(user.body.errors).toEqual([{ field: 'clientAccountLimit', message: 'clientAccountLimit must have no decimals in JPY' }]);
    const kwd = await system.request('POST', '/api/user', {
      headers: backend('KWD'),
      json: { firstName: 'Ada', lastName: 'Lovelace', email: 'ada@example.com', phone: '+44 20 7946 0000', clientAccountLimit: 1000.125 },
    });
    expect(kwd.status).toBe(201);
    expect(kwd.body.data.clientAccountLimit).toBe('1000.125');
  });
});

describe('stale exchange rates in production', () => {
  let system: TestSystem;
  let acme: ClientKeys;

  beforeAll(async () => {
    // Search and rates as production runs them (stale rates refused); the snapshot the
    // platform ships is years old, and the rates service cannot reach the ECB here.
    system = await TestSystem.start({ RATE_ID_SECRET: 'a-shared-rate-id-secret-of-the-test', VENDOR_LATENCY_MS: 'atlas=0,borealis=0,cobalt=0' }, ['users', 'booking', 'promo', 'accounting', 'webhooks']);
    const production = { NODE_ENV: 'production', FX_RATES_URL: 'https://127.0.0.1:9/eurofxref-daily.xml' };
    await system.startReplica('rates', production);
    await system.startReplica('search', production);
    acme = await system.createClient('Acme Travel', '100000');
  });
  afterAll(() => system?.close());

  it('answers 503 FX_RATES_STALE for converted prices, and prices again once fresh rates are imported', async () => {
    const stay = freshStay();
    const stale = await system.request('POST', '/v2/rates', { headers: bearer(acme.api_key), json: { place_id: PARIS, ...stay } });
    expect(stale.status).toBe(503);
    expect(stale.body).toMatchObject({ code: 'FX_RATES_STALE', message: expect.stringMatching(/older than 4 days/) });
    expect(Number(stale.headers['retry-after'])).toBeGreaterThan(0);

    await system.importFxRates(TEST_FX_RATES, day(0));
    // The rates service announces the new set; search asks for it again.
    let fresh = await system.request('POST', '/v2/rates', { headers: bearer(acme.api_key), json: { place_id: PARIS, ...stay } });
    for (let attempt = 0; fresh.status !== 200 && attempt < 50; attempt++) {
      await new Promise((resolve) => setTimeout(resolve, 100));
      fresh = await system.request('POST', '/v2/rates', { headers: bearer(acme.api_key), json: { place_id: PARIS, ...stay } });
    }
    expect(fresh.status).toBe(200);
    expect(fresh.body.rates[0].price_currency).toBe('USD');
  });
});
