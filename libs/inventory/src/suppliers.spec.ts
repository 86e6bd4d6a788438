import { Module } from '@nestjs/common';
import { NestFactory } from '@nestjs/core';
import { hotelsForCity } from './catalog';
import { gazetteer } from './gazetteer';
import { listOffers, priceEpoch, priceOffer } from './pricing';
import { SimulatedSupplier } from './simulated-supplier';
import { SupplierPort } from './supplier-port';
import { Suppliers, supplierProviders } from './suppliers';
import { VENDORS, VENDOR_CODES } from './vendors';

const day = (offset: number) => new Date(Date.now() + offset * 86_400_000).toISOString().slice(0, 10);

describe('supplier port', () => {
  const hotels = hotelsForCity(gazetteer().cityById.get(2988507)!);
  const stay = { check_in: day(30), check_out: day(33), rooms: [{ adults: 2, children: 0, children_ages: [] }] };
  const context = { epoch: priceEpoch(), issuedAt: new Date() };

  it('answers a batch of hotels with each hotel’s offers and prices, as the vendor makes them', async () => {
    for (const code of VENDOR_CODES) {
      const vendor = VENDORS[code];
      const answer = await new SimulatedSupplier(vendor).availability(hotels, stay, { soldOut: new Set(), includeMemberRates: true, context });
      expect(answer).toHaveLength(hotels.length);
      hotels.forEach((hotel, i) => {
        const keys = listOffers(hotel, vendor, stay, { soldOut: new Set(), includeMemberRates: true });
        expect(answer[i]).toEqual(keys.map((key) => ({ key, rate: priceOffer(hotel, key, stay, context) })));
      });
    }
  });

  it('prices and rechecks one offer; a sold-out room type fails the recheck', async () => {
    const supplier = new SimulatedSupplier(VENDORS.atlas);
    const [hotel, [offer]] = (await supplier.availability(hotels, stay, { soldOut: new Set(), includeMemberRates: true, context }))
      .map((offers, i) => [hotels[i], offers] as const)
      .find(([, offers]) => offers.length > 0)!;
    expect(await supplier.price(hotel, offer.key, stay, context)).toEqual(offer.rate);
    expect(await supplier.recheck(hotel, offer.key, stay, new Set())).toBe(true);
    expect(await supplier.recheck(hotel, offer.key, stay, new Set([`atlas:${hotel.id}:${offer.key.roomId}`]))).toBe(false);
  });

  it('is provided by Nest: one supplier per vendor', async () => {
    @Module({ providers: supplierProviders() })
    class AppModule {}
    const app = await NestFactory.createApplicationContext(AppModule, { logger: false });
    try {
      const suppliers = app.get(Suppliers);
      for (const code of VENDOR_CODES) expect(suppliers.of(code)).toMatchObject({ code, name: VENDORS[code].name });
      expect(suppliers.find('nobody')).toBeUndefined();
    } finally {
      await app.close();
    }
  });

  it('refuses a vendor without a supplier, or with two', () => {
    const simulated: SupplierPort[] = VENDOR_CODES.map((code) => new SimulatedSupplier(VENDORS[code]));
    expect(() => new Suppliers(simulated.slice(1))).toThrow(/no supplier is registered for vendor atlas/);
    expect(() => new Suppliers([...simulated, simulated[0]])).toThrow(/two suppliers are registered for vendor atlas/);
  });
});
