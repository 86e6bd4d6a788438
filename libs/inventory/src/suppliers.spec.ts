import { Injectable, Module } from '@nestjs/common';
import { NestFactory } from '@nestjs/core';
import { SupplierPort } from './supplier-port';
import { Suppliers, supplierProviders } from './suppliers';
import { VENDOR_CODES, VENDOR_NAMES } from './vendors';

/** A supplier that is asked nothing here: which one the registry gives is what is tested. */
class NamedSupplier implements SupplierPort {
  constructor(
    readonly code: string,
    readonly name = code,
  ) {}
  availability = unused;
  price = unused;
  seenPrice = unused;
  recheck = unused;
  book = unused;
  find = unused;
  status = unused;
  cancel = unused;
}

function unused(): never {
  throw new Error('not asked in this test');
}

describe('suppliers', () => {

  it('is provided by Nest: one supplier per vendor, a given one in place of the remote one of its code', async () => {
    @Injectable()
    class OwnAtlas extends NamedSupplier {
      constructor() {
        super('atlas', 'Own Atlas');
      }
    }
    const remote: SupplierPort[] = VENDOR_CODES.map((code) => new NamedSupplier(code, VENDOR_NAMES[code]));
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

  it('does not start without a vendor: none runs in the platform, VENDOR_SIMULATOR_URL or HOTELBEDS_API_KEY reaches them', async () => {
    @Module({ providers: supplierProviders() })
    class AppModule {}
    await expect(NestFactory.createApplicationContext(AppModule, { logger: false, abortOnError: false })).rejects.toThrow(/no vendor is configured: .*VENDOR_SIMULATOR_URL.*HOTELBEDS_API_KEY/);
  });

  it('trades with the vendors configured, any of them; refuses two suppliers of one vendor', () => {
    const simulated: SupplierPort[] = VENDOR_CODES.map((code) => new NamedSupplier(code));
    expect(new Suppliers([new NamedSupplier('hotelbeds')]).codes).toEqual(['hotelbeds']);
    expect(new Suppliers(simulated.slice(1)).codes).toEqual(['borealis', 'cobalt']);
    expect(() => new Suppliers([...simulated, simulated[0]])).toThrow(/two suppliers are registered for vendor atlas/);
  });
});
