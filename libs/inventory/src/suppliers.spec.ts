import { Injectable, Module } from '@nestjs/common';
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
    expect(await supplier.recheck(hotel, offer.key, stay, new Set())).toEqual(offer.key);
    expect(await supplier.recheck(hotel, offer.key, stay, new Set([`atlas:${hotel.id}:${offer.key.roomId}`]))).toBeNull();
  });

  it('books as the sandbox scenario says, and answers status and cancel from the booking as recorded', async () => {
    const supplier = new SimulatedSupplier(VENDORS.cobalt, { pendingSeconds: 5 });
    const order = { bookingId: 42, hotelId: hotels[0].id, roomId: 1, checkIn: day(30), checkOut: day(32), rooms: 1, sandbox: true };
    expect(await supplier.book(order)).toEqual({ reference: expect.stringMatching(/^COB-42-[0-9A-F]{6}$/), status: 'confirmed' });
    await expect(supplier.book({ ...order, testScenario: 'supplier_error' })).rejects.toMatchObject({ code: 'SUPPLIER_ERROR' });
    const pending = await supplier.book({ ...order, testScenario: 'supplier_pending' });
    expect(pending).toEqual({ reference: expect.stringMatching(/^COB-42-/), status: 'pending' });

    const placed = { bookingId: 42, reference: pending.reference, status: pending.status, sandbox: true, placedAt: new Date(1_000_000) };
    expect(await supplier.status(placed, 1_000_000 + 4_999)).toEqual({ reference: pending.reference, status: 'pending' });
    expect(await supplier.status(placed, 1_000_000 + 5_000)).toEqual({ reference: pending.reference, status: 'confirmed' });
    expect(await supplier.status({ ...placed, status: 'cancelled' }, 1_000_000 + 5_000)).toEqual({ reference: pending.reference, status: 'cancelled' });
    expect(await supplier.cancel(placed)).toEqual({ reference: pending.reference, status: 'cancelled' });
  });

  it('is provided by Nest: one supplier per vendor, a given one in place of the remote one of its code', async () => {
    @Injectable()
    class OwnAtlas extends SimulatedSupplier {
      constructor() {
        super({ ...VENDORS.atlas, name: 'Own Atlas' });
      }
    }
    const remote: SupplierPort[] = VENDOR_CODES.map((code) => new SimulatedSupplier(VENDORS[code]));
    @Module({ providers: supplierProviders({ suppliers: [OwnAtlas], remote }) })
    class AppModule {}
    const app = await NestFactory.createApplicationContext(AppModule, { logger: false });
    try {
      const suppliers = app.get(Suppliers);
      expect(suppliers.of('atlas')).toBeInstanceOf(OwnAtlas);
      for (const code of VENDOR_CODES.filter((code) => code !== 'atlas')) expect(suppliers.of(code)).toBe(remote.find((port) => port.code === code));
      expect(suppliers.find('nobody')).toBeUndefined();
    } finally {
      await app.close();
    }
  });

  it('does not start without a supplier for every vendor: none runs in the platform, VENDOR_SIMULATOR_URL reaches them', async () => {
    @Module({ providers: supplierProviders() })
    class AppModule {}
    await expect(NestFactory.createApplicationContext(AppModule, { logger: false, abortOnError: false })).rejects.toThrow(
      /no supplier is registered for vendor atlas, borealis, cobalt: .*VENDOR_SIMULATOR_URL/,
    );
  });

  it('refuses a vendor without a supplier, or with two', () => {
    const simulated: SupplierPort[] = VENDOR_CODES.map((code) => new SimulatedSupplier(VENDORS[code]));
    expect(() => new Suppliers(simulated.slice(1))).toThrow(/no supplier is registered for vendor atlas/);
    expect(() => new Suppliers([...simulated, simulated[0]])).toThrow(/two suppliers are registered for vendor atlas/);
  });
});
