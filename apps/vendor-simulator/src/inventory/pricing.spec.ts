import { FxRateSet, fitsCurrency, nightsBetween, toMilli } from '@hotel/contracts';
import { conversionAt, convertRate, gazetteer, hotelsForCity, priceEpoch } from '@hotel/inventory';
import { TEST_FX_RATES } from '@hotel/testing';
import { listOffers, priceOffer } from './pricing';
import { VENDORS, VendorCode, parseVendorLatencies } from './vendors';

const day = (offset: number) => new Date(Date.now() + offset * 86_400_000).toISOString().slice(0, 10);

/** The tests' reference rates (the ECB's of 26 May 2020, a few of them), plus IDR for a currency of large numbers. */
const ECB: FxRateSet = { date: '2020-05-26', rates: { ...TEST_FX_RATES, IDR: '16193.61' }, source: 'snapshot', importedAt: '2020-05-26T16:00:00Z' };
const pricing = (currency: string, fxMarginPercent = '0') => ({ currency, fxMarginPercent });

describe("the simulated vendors' pricing", () => {
  const hotels = hotelsForCity(gazetteer().cityById.get(2988507)!);
  const stay = { check_in: day(30), check_out: day(33), rooms: [{ adults: 2, children: 1, children_ages: [7] }, { adults: 1, children: 0, children_ages: [] }] };
  const offers = hotels.flatMap((hotel) =>
    Object.values(VENDORS).flatMap((vendor) => listOffers(hotel, vendor, stay, { soldOut: new Set(), includeMemberRates: true }).map((key) => ({ hotel, key }))),
  );

  it('offers rates from several vendors', () => {
    expect(new Set(offers.map((offer) => offer.key.vendor)).size).toBe(3);
  });

  it('adds up exactly: rooms and nights to the total, fees and due-at-hotel on top', () => {
    const context = { epoch: priceEpoch(), issuedAt: new Date() };
    for (const { hotel, key } of offers.slice(0, 40)) {
      const rate = priceOffer(hotel, key, stay, context);
      const cents = (value: number) => Math.round(value * 100);
      expect(rate.rooms).toHaveLength(2);
      expect(rate.price_per_night).toHaveLength(nightsBetween(stay.check_in, stay.check_out));
      expect(cents(rate.price_chargeable)).toBe(rate.price_per_room.reduce((total, value) => total + cents(value), 0));
      expect(cents(rate.price_chargeable)).toBe(rate.price_per_night.reduce((total, value) => total + cents(value), 0));
      expect(cents(rate.price_chargeable)).toBe(cents(rate.price_before_fees) + cents(rate.price_fees));
      expect(cents(rate.price_inclusive)).toBe(cents(rate.price_chargeable) + cents(rate.price_due_at_hotel));
      if (key.vendor === 'cobalt') expect(rate.price_due_at_hotel).toBeGreaterThan(0);
      expect(rate.cancellation_policy).toBe(key.refundable ? 'Refundable' : 'NonRefundable');
      expect(rate.cancellation_policy_data.length).toBeGreaterThan(0);
    }
  });

  it('is the same price for the same offer and price step', () => {
    const { hotel, key } = offers[0];
    const context = { epoch: 1000, issuedAt: new Date(0) };
    expect(priceOffer(hotel, key, stay, context)).toEqual(priceOffer(hotel, key, stay, context));
  });

  it('leaves out sold-out room types', () => {
    const { hotel, key } = offers[0];
    const soldOut = new Set([`${key.vendor}:${hotel.id}:${key.roomId}`]);
    const remaining = listOffers(hotel, VENDORS[key.vendor as VendorCode], stay, { soldOut, includeMemberRates: true });
    expect(remaining.some((offer) => offer.roomId === key.roomId)).toBe(false);
  });

  it('reads vendor latencies from configuration', () => {
    expect(parseVendorLatencies('atlas=5,cobalt=20')).toEqual({ atlas: 5, borealis: 1500, cobalt: 20 });
    expect(() => parseVendorLatencies('nobody=5')).toThrow(/VENDOR_LATENCY_MS/);
  });
});

describe("a simulated vendor's rate in the client currency", () => {
  const hotels = hotelsForCity(gazetteer().cityById.get(2988507)!).slice(0, 30);
  const stay = { check_in: day(30), check_out: day(34), rooms: [{ adults: 2, children: 1, children_ages: [7] }, { adults: 1, children: 0, children_ages: [] }] };
  const context = { epoch: priceEpoch(), issuedAt: new Date() };
  const rates = hotels.flatMap((hotel) =>
    Object.values(VENDORS).flatMap((vendor) => listOffers(hotel, vendor, stay, { soldOut: new Set(), includeMemberRates: true }).map((key) => priceOffer(hotel, key, stay, context))),
  );

  it('comes from vendors pricing in their own currencies', () => {
    expect(new Set(rates.map((rate) => rate.price_currency))).toEqual(new Set(['EUR', 'GBP', 'USD']));
  });

  it.each(['JPY', 'USD', 'KWD', 'EUR', 'IDR'])('adds up exactly in %s, at the rate recorded', (currency) => {
    const milli = (value: number) => toMilli(value);
    const sum = (values: number[]) => values.reduce((total, value) => total + milli(value), 0);
    for (const vendorRate of rates) {
      const conversion = conversionAt(ECB, vendorRate.price_currency, pricing(currency, '1.25'));
      const rate = convertRate(vendorRate, conversion);
      expect(rate.price_currency).toBe(currency);
      expect(milli(rate.price_chargeable)).toBe(conversion.convert(milli(vendorRate.price_chargeable)));
      expect(sum(rate.price_per_night)).toBe(milli(rate.price_chargeable));
      expect(sum(rate.price_per_room)).toBe(milli(rate.price_chargeable));
      expect(sum(rate.price_per_night_per_room.flat())).toBe(milli(rate.price_chargeable));
      expect(sum(rate.rooms.map((room) => room.price_chargeable))).toBe(milli(rate.price_chargeable));
      expect(milli(rate.price_before_fees) + milli(rate.price_fees)).toBe(milli(rate.price_chargeable));
      expect(milli(rate.price_inclusive)).toBe(milli(rate.price_chargeable) + milli(rate.price_due_at_hotel));
      for (const period of rate.cancellation_policy_data) expect(period.price_cancellation_penalty).toBeLessThanOrEqual(rate.price_chargeable);
      if (vendorRate.cancellation_policy === 'NonRefundable') expect(rate.cancellation_policy_data[0].price_cancellation_penalty).toBe(rate.price_chargeable);
      const amounts = [
        rate.price_chargeable,
        rate.price_fees,
        rate.price_retail,
        rate.price_commission,
        rate.price_per_night_avg,
        ...rate.price_per_night,
        ...rate.rooms.flatMap((room) => [room.price_fees, room.price_due_at_hotel, room.deposit_per_accomodation_per_night, room.price_per_night_avg, ...room.fees.map((fee) => fee.price)]),
        ...rate.cancellation_policy_data.map((period) => period.price_cancellation_penalty),
      ];
      for (const amount of amounts) expect(fitsCurrency(milli(amount), currency)).toBe(true);
      // Every *currency field names the client's currency.
      const currencies = new Set<string>();
      JSON.stringify(rate, (key, value) => (key.endsWith('currency') && currencies.add(value), value));
      expect([...currencies]).toEqual([currency]);
    }
  });

  it('is the vendor rate itself in the vendor currency, margin or not', () => {
    const vendorRate = rates[0];
    expect(convertRate(vendorRate, conversionAt(ECB, vendorRate.price_currency, pricing(vendorRate.price_currency, '2')))).toBe(vendorRate);
  });
});
