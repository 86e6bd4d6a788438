import { plainToInstance } from 'class-transformer';
import { validateSync } from 'class-validator';
import { remoteSuppliers } from './remote-suppliers';
import { VendorsEnv } from './vendors.env';

/** Which vendors a configuration turns on; no call is made (the clients connect on first use). */
describe('remoteSuppliers', () => {
  const envOf = (values: Partial<VendorsEnv>) => Object.assign(new VendorsEnv(), values);

  it('is empty without the vendor simulator (the services then refuse to start, naming VENDOR_SIMULATOR_URL)', () => {
    expect(remoteSuppliers(envOf({}))).toEqual([]);
  });

  it('refuses hotelbeds without the simulator: its sandbox desk is where test bookings go, never to the vendor', () => {
    expect(() => remoteSuppliers(envOf({ HOTELBEDS_API_KEY: 'key', HOTELBEDS_SECRET: 'secret' }))).toThrow(/HOTELBEDS_API_KEY needs VENDOR_SIMULATOR_URL/);
  });

  it('with the simulator: its three vendors, and hotelbeds when its key is set', () => {
    const simulated = remoteSuppliers(envOf({ VENDOR_SIMULATOR_URL: 'http://127.0.0.1:9' }));
    const withHotelbeds = remoteSuppliers(envOf({ VENDOR_SIMULATOR_URL: 'http://127.0.0.1:9', HOTELBEDS_API_KEY: 'key', HOTELBEDS_SECRET: 'secret' }));
    try {
      expect(simulated.map((supplier) => supplier.code)).toEqual(['atlas', 'borealis', 'cobalt']);
      expect(withHotelbeds.map((supplier) => supplier.code)).toEqual(['hotelbeds', 'atlas', 'borealis', 'cobalt']);
    } finally {
      for (const supplier of [...simulated, ...withHotelbeds]) supplier.close?.();
    }
  });

  it('trades with the simulated vendors SIMULATED_VENDORS names: none, and the simulator is the sandbox desk alone', () => {
    const realOnly = remoteSuppliers(envOf({ VENDOR_SIMULATOR_URL: 'http://127.0.0.1:9', SIMULATED_VENDORS: '', HOTELBEDS_API_KEY: 'key', HOTELBEDS_SECRET: 'secret' }));
    const two = remoteSuppliers(envOf({ VENDOR_SIMULATOR_URL: 'http://127.0.0.1:9', SIMULATED_VENDORS: 'cobalt,atlas' }));
    try {
      expect(realOnly.map((supplier) => supplier.code)).toEqual(['hotelbeds']);
      expect(two.map((supplier) => supplier.code)).toEqual(['atlas', 'cobalt']);
    } finally {
      for (const supplier of [...realOnly, ...two]) supplier.close?.();
    }
  });

  it("opens a vendor's breaker after five failures in a row and probes again after VENDOR_BREAKER_COOLDOWN_MS (30 s unless said)", async () => {
    // Port 9 on loopback refuses: every cancellation fails without an answer.
    const [quick] = remoteSuppliers(envOf({ VENDOR_SIMULATOR_URL: 'http://127.0.0.1:9', SIMULATED_VENDORS: 'atlas', VENDOR_BREAKER_COOLDOWN_MS: 100 }));
    const [usual] = remoteSuppliers(envOf({ VENDOR_SIMULATOR_URL: 'http://127.0.0.1:9', SIMULATED_VENDORS: 'atlas' }));
    const booking = { bookingId: 1, reference: 'ATL-1', status: 'confirmed' as const, sandbox: false, placedAt: new Date() };
    try {
      for (const supplier of [quick, usual]) {
        for (let i = 0; i < 5; i++) await expect(supplier.cancel(booking)).rejects.toThrow();
        expect(supplier.circuits?.().cancellation).toBe('open');
      }
      await new Promise((resolve) => setTimeout(resolve, 150));
      expect([quick.circuits?.().cancellation, usual.circuits?.().cancellation]).toEqual(['half-open', 'open']);
    } finally {
      quick.close?.();
      usual.close?.();
    }
  });
});

describe('vendor URLs', () => {
  /** The properties of VendorsEnv whose value is refused, for these values. */
  const refused = (values: Record<string, string>) =>
    validateSync(plainToInstance(VendorsEnv, values))
      .map((error) => error.property)
      .filter((property) => property in values);

  it("a real vendor only over https in production; the platform's own simulator over http on its private network too", () => {
    expect(refused({ NODE_ENV: 'production', HOTELBEDS_BASE_URL: 'http://api.test.hotelbeds.com' })).toEqual(['HOTELBEDS_BASE_URL']);
    expect(refused({ NODE_ENV: 'production', HOTELBEDS_BASE_URL: 'https://api.test.hotelbeds.com' })).toEqual([]);
    expect(refused({ NODE_ENV: 'development', HOTELBEDS_BASE_URL: 'http://127.0.0.1:9000' })).toEqual([]);
    expect(refused({ NODE_ENV: 'production', VENDOR_SIMULATOR_URL: 'http://vendor-simulator:8790' })).toEqual([]);
    expect(refused({ NODE_ENV: 'production', VENDOR_SIMULATOR_URL: 'http://user:password@vendor-simulator:8790' })).toEqual(['VENDOR_SIMULATOR_URL']);
    expect(refused({ NODE_ENV: 'production', VENDOR_SIMULATOR_URL: 'ftp://vendor-simulator' })).toEqual(['VENDOR_SIMULATOR_URL']);
  });

  it('SIMULATED_VENDORS lists known vendors or none', () => {
    expect(refused({ SIMULATED_VENDORS: '' })).toEqual([]);
    expect(refused({ SIMULATED_VENDORS: 'atlas,cobalt' })).toEqual([]);
    expect(refused({ SIMULATED_VENDORS: 'atlas,nobody' })).toEqual(['SIMULATED_VENDORS']);
    expect(refused({ SIMULATED_VENDORS: 'atlas, cobalt' })).toEqual(['SIMULATED_VENDORS']);
  });
});
