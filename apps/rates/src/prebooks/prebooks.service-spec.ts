import { Actor, RoomRequest, SUBJECTS, formatAmount, milliToDecimal, prebookAnswer, toMilli } from '@hotel/contracts';
import {
  OfferKey,
  Stay,
  Suppliers,
  VENDOR_CODES,
  conversionAt,
  encodeV2RateId,
  hotelById,
  hotelsForPlace,
  priceEpoch,
  priceEpochStart,
} from '@hotel/inventory';
import { DomainError } from '@hotel/platform';
import { TEST_FX_RATES, ecbDailyXml, queryTestDatabase } from '@hotel/testing';
import { FxRatesService } from '../fx/fx-rates.service';
import { startRatesHarness } from '../../test/rates-fixtures';
// eslint-disable-next-line @nx/enforce-module-boundaries -- the vendor simulator's own pricing: what the vendor answered, to compare with
import { priceOffer } from '../../../vendor-simulator/src/inventory/pricing';
import { PrebooksService } from './prebooks.service';

// Service tier: PrebooksService with the rates app's providers (its real repositories
// and suppliers) on a fresh PostgreSQL database with the rates migrations (as
// RatesAppModule lists them) and its entities; accounting, users and promo are fakes answering by subject.

const PARIS = 'gn:2988507';
const DAY_MS = 86_400_000;
const live = (clientId: number): Actor => ({ clientId, userId: null, role: 'api', sandbox: false });
const USD = { currency: 'USD', fxMarginPercent: '0' };

/**
 * A stay 40 days ahead and an offer a vendor (at the vendor simulator) makes for it, not a
 * member rate: what a V2 search would have answered.
 */
async function findOffer(suppliers: Suppliers): Promise<{ key: OfferKey; stay: Stay }> {
  const day = (offset: number) => new Date(Date.now() + offset * DAY_MS).toISOString().slice(0, 10);
  const rooms: RoomRequest[] = [{ adults: 2, children: 0, children_ages: [] }];
  const stay: Stay = { check_in: day(40), check_out: day(42), rooms };
  const hotels = (hotelsForPlace(PARIS) ?? []).slice(0, 20);
  const request = { includeMemberRates: false, context: { epoch: priceEpoch(), issuedAt: new Date() } };
  for (const code of VENDOR_CODES) {
    const offers = (await suppliers.of(code).availability(hotels, stay, request)).flat();
    const found = offers.find((offer) => !offer.key.memberRate);
    if (found) return { key: found.key, stay };
  }
  throw new Error('no offer in Paris for the stay');
}

describe('PrebooksService (service tier: real PostgreSQL, fake accounting, users and promo)', () => {
  let harness: Awaited<ReturnType<typeof startRatesHarness>>;
  let prebooks: PrebooksService;
  let offer: { key: OfferKey; stay: Stay };
  /** A fresh V2 rate id for the offer, as search issues it (at the start of the price step). */
  let rateId: () => string;

  const sufficient = (answer: boolean) => harness.client.on(SUBJECTS.ACCOUNTING_FUNDS_CHECK, () => ({ sufficient: answer, available: '500.00' }));
  const fundsChecks = () => harness.client.callsTo(SUBJECTS.ACCOUNTING_FUNDS_CHECK).map((call) => call.request);
  const storedFor = (clientId: number) =>
    harness.dataSource.query(`SELECT id, price_chargeable, promo_code FROM rates.prebooks WHERE client_id = $1`, [clientId]) as Promise<
      { id: string; price_chargeable: string; promo_code: string | null }[]
    >;

  beforeAll(async () => {
    harness = await startRatesHarness();
    prebooks = harness.get(PrebooksService);
    offer = await findOffer(harness.get(Suppliers));
    rateId = () => {
      const epoch = priceEpoch();
      return encodeV2RateId({ ...offer, epoch, issuedAt: new Date(priceEpochStart(epoch)) }, harness.env.RATE_ID_SECRET);
    };
  });

  beforeEach(() => harness.client.reset());

  afterAll(async () => {
    await harness?.close();
  });

  it('an account prebook checks the price against the funds through accounting and is stored for the booking', async () => {
    sufficient(true);
    const data = await prebooks.create({ actor: live(1), pricing: USD, rateId: rateId(), paymentMethod: 'account' });

    // In the rates service's words: amounts as decimal strings.
    const price = data.rate.prices.chargeable;
    expect(price).toMatch(/^\d+\.\d{2}$/);
    expect(toMilli(price)).toBeGreaterThan(0);
    expect(fundsChecks()).toEqual([{ clientId: 1, amount: price, currency: 'USD' }]);

    const stored = await prebooks.findForBooking({ actor: live(1), prebookId: data.id });
    // The offer is stored as the vendor confirmed it at prebook (CheckRate): its bookable rate key, the same price.
    const bookable = { ...offer.key, vendorRate: { ...offer.key.vendorRate, keys: [expect.any(String)], recheck: false } };
    expect(stored).toMatchObject({ prebookId: data.id, paymentMethod: 'account', priceChargeable: price, promoCode: null, offer: bookable });
    // The record the booking reads is the answer the API gives.
    expect(stored.response).toEqual(prebookAnswer(data));
    // Another client, or the same client's sandbox, cannot book on it.
    await expect(prebooks.findForBooking({ actor: live(2), prebookId: data.id })).rejects.toMatchObject({ code: 'PREBOOK_REQUIRED' });
    await expect(prebooks.findForBooking({ actor: { ...live(1), sandbox: true }, prebookId: data.id })).rejects.toMatchObject({
      code: 'PREBOOK_REQUIRED',
    });
  });

  it('insufficient funds refuse the prebook and store nothing', async () => {
    sufficient(false);
    await expect(prebooks.create({ actor: live(3), pricing: USD, rateId: rateId(), paymentMethod: 'account' })).rejects.toMatchObject({ code: 'INSUFFICIENT_FUNDS' });
    expect(fundsChecks()).toHaveLength(1);
    expect(await storedFor(3)).toEqual([]);
  });

  it('a promo code lowers the price the funds are checked for and the booking will charge; an invalid one changes nothing', async () => {
    sufficient(true);
    harness.client.on(SUBJECTS.PROMO_CODE_QUOTE, ({ code, currency }) => {
      if (code.trim().toUpperCase() !== 'SAVE10') throw new DomainError('PROMO_CODE_INVALID', 'promo code unknown');
      return { code: 'SAVE10', discount: '10.00', currency };
    });
    const full = await prebooks.create({ actor: live(4), pricing: USD, rateId: rateId(), paymentMethod: 'account', promoCode: 'NOPE' });
    const discounted = await prebooks.create({ actor: live(4), pricing: USD, rateId: rateId(), paymentMethod: 'account', promoCode: 'save10' });

    expect(full.promo).toMatchObject({ applied: false, discount: '0.00' });
    expect(discounted.promo).toEqual({ applied: true, message: 'promo code SAVE10 applied', discount: '10.00' });
    const fullMilli = toMilli(full.rate.prices.chargeable);
    expect(toMilli(discounted.rate.prices.chargeable)).toBe(fullMilli - 10000);
    expect(fundsChecks().map((check) => check.amount)).toEqual([milliToDecimal(fullMilli), milliToDecimal(fullMilli - 10000)]);
    const stored = await prebooks.findForBooking({ actor: live(4), prebookId: discounted.id });
    expect(stored).toMatchObject({ priceChargeable: milliToDecimal(fullMilli - 10000), promoCode: 'SAVE10', discount: '10.00' });
  });

  it("a user's prebook is checked against that user's own limit from users", async () => {
    sufficient(true);
    harness.client.on(SUBJECTS.USERS_USER_GET, ({ userId }) => ({
      id: userId,
      firstName: 'Ada',
      lastName: 'Lovelace',
      email: 'ada@example.com',
      phone: '+33100000000',
      clientAccountLimit: '750.00',
      createdAt: new Date().toISOString(),
      updatedAt: new Date().toISOString(),
      deletedAt: null,
    }));
    const actor: Actor = { clientId: 5, userId: 9, role: 'user', sandbox: false };
    await prebooks.create({ actor, pricing: USD, rateId: rateId(), paymentMethod: 'account' });

    expect(harness.client.subjects()).toEqual([SUBJECTS.USERS_USER_GET, SUBJECTS.ACCOUNTING_FUNDS_CHECK]);
    expect(fundsChecks()[0]).toMatchObject({ clientId: 5, userId: 9, userLimit: '750.00' });
  });

  it('with accounting down an account prebook fails as unavailable; sandbox and card prebooks do not ask it', async () => {
    harness.client.off(SUBJECTS.ACCOUNTING_FUNDS_CHECK);
    await expect(prebooks.create({ actor: live(6), pricing: USD, rateId: rateId(), paymentMethod: 'account' })).rejects.toMatchObject({ code: 'SERVICE_UNAVAILABLE' });
    expect(await storedFor(6)).toEqual([]);

    const sandbox = await prebooks.create({ actor: { ...live(6), sandbox: true }, pricing: USD, rateId: rateId(), paymentMethod: 'account' });
    const card = await prebooks.create({ actor: live(6), pricing: USD, rateId: rateId(), paymentMethod: 'credit_card' });
    expect(card.paymentSessionToken).toMatch(/^pst_/);
    expect(sandbox.paymentSessionToken).toBeNull();
    expect(fundsChecks()).toHaveLength(1); // the failed one only
    expect((await storedFor(6)).map((row) => row.id).sort()).toEqual([sandbox.id, card.id].sort());
  });

  it('a room type sold out on one night of the stay cannot be prebooked', async () => {
    sufficient(true);
    const night = new Date(Date.parse(offer.stay.check_in) + DAY_MS).toISOString().slice(0, 10);
    // The vendor's allotment is the vendor's own (the simulator numbers its hotels by the platform's ids).
    const vendorSql = (text: string, params: unknown[]) => queryTestDatabase(harness.vendors!.database.url, text, params);
    await vendorSql(`INSERT INTO vendor_simulator.allotments (vendor, hotel_code, room_id, night, capacity, rooms_sold) VALUES ($1, $2, $3, $4, 2, 2)`, [
      offer.key.vendor,
      offer.key.hotelId,
      offer.key.roomId,
      night,
    ]);
    try {
      await expect(prebooks.create({ actor: live(7), pricing: USD, rateId: rateId(), paymentMethod: 'account' })).rejects.toMatchObject({ code: 'RATE_NOT_AVAILABLE' });
      expect(await storedFor(7)).toEqual([]);
    } finally {
      await vendorSql(`DELETE FROM vendor_simulator.allotments WHERE hotel_code = $1`, [offer.key.hotelId]);
    }
  });

  it('an expired prebook no longer backs a booking', async () => {
    sufficient(true);
    const data = await prebooks.create({ actor: live(8), pricing: USD, rateId: rateId(), paymentMethod: 'account' });
    await harness.dataSource.query(`UPDATE rates.prebooks SET expires_at = now() - interval '1 second' WHERE id = $1`, [data.id]);
    await expect(prebooks.findForBooking({ actor: live(8), prebookId: data.id })).rejects.toMatchObject({
      code: 'PREBOOK_REQUIRED',
      message: expect.stringContaining('expired'),
    });
  });
  // Last: it takes in a newer set of exchange rates, in force for whatever runs after it.
  it('converts at the rates in force and fixes the conversion with the prebook; a price shown at older rates reports the change', async () => {
    sufficient(true);
    const fx = harness.get(FxRatesService);
    const [snapshot] = await fx.sets();
    const today = new Date().toISOString().slice(0, 10);
    const { set: fresh } = await fx.import(ecbDailyXml(today, { ...TEST_FX_RATES, JPY: '130.05' }), 'test');
    const yen = { currency: 'JPY', fxMarginPercent: '1.5' };
    // What a V2 answer priced at the snapshot's rates said.
    const epoch = priceEpoch();
    const shownAtSnapshot = encodeV2RateId({ ...offer, epoch, issuedAt: new Date(priceEpochStart(epoch)), fxDate: snapshot.date }, harness.env.RATE_ID_SECRET);
    const data = await prebooks.create({ actor: live(9), pricing: yen, rateId: shownAtSnapshot, paymentMethod: 'account' });

    const vendorRate = priceOffer(hotelById(offer.key.hotelId)!, offer.key, offer.stay, { epoch, issuedAt: new Date() });
    const now = conversionAt(fresh, vendorRate.price_currency, yen);
    const then = conversionAt(snapshot, vendorRate.price_currency, yen);
    expect(data.rate.currency).toBe('JPY');
    expect(toMilli(data.rate.prices.chargeable)).toBe(now.convert(toMilli(vendorRate.price_chargeable)));
    expect(data).toMatchObject({ priceChanged: true, previousPrice: formatAmount(then.convert(toMilli(vendorRate.price_chargeable)), 'JPY') });
    expect(data.rate.prices.chargeable).toMatch(/^\d+$/);
    // The funds are checked in the client's currency, and the booking will rely on the conversion as fixed now.
    expect(fundsChecks().at(-1)).toMatchObject({ clientId: 9, amount: milliToDecimal(toMilli(data.rate.prices.chargeable)) });
    const stored = await prebooks.findForBooking({ actor: live(9), prebookId: data.id });
    expect(stored.fx).toEqual({
      vendorCurrency: vendorRate.price_currency,
      vendorPrice: milliToDecimal(toMilli(vendorRate.price_chargeable)),
      fxRate: now.rate,
      fxRateDate: today,
      fxMarginPercent: '1.5',
    });
  });
});
