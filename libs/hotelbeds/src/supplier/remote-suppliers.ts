import { Logger } from '@nestjs/common';
import { SupplierPort, VENDOR_NAMES } from '@hotel/inventory';
import { HotelbedsClient } from '../client';
import { HotelCodeBook, HotelbedsSupplier } from './hotelbeds-supplier';
import { VendorsEnv, simulatedVendorCredentials, simulatedVendorsOf } from './vendors.env';

/** The platform's code of the Hotelbeds vendor. */
export const HOTELBEDS_VENDOR_CODE = 'hotelbeds';

/**
 * The suppliers an app's configuration names (VendorsEnv): `hotelbeds` when its key is set,
 * and the simulated vendors of SIMULATED_VENDORS at the vendor simulator when
 * VENDOR_SIMULATOR_URL is.
 * Each gets a client of its own (its own connection pool and circuit breakers), and all share
 * the simulator's sandbox desk, so `hotelbeds` cannot be on without the simulator.
 * `hotelCodes` gives `hotelbeds` the vendor's codes of the platform's hotels (the content
 * import's); without it a code is read as the platform's id, as the simulated vendors number them.
 */
export function remoteSuppliers(env: VendorsEnv, options: { hotelCodes?: HotelCodeBook } = {}): SupplierPort[] {
  const logger = new Logger('Vendors');
  const clientOf = (code: string, baseUrl: string, apiKey: string, secret: string) =>
    new HotelbedsClient({
      baseUrl,
      apiKey,
      secret,
      ...(env.VENDOR_BREAKER_COOLDOWN_MS !== undefined && { breaker: { cooldownMs: env.VENDOR_BREAKER_COOLDOWN_MS } }),
      onBreakerStateChange: (operation, state) => logger.warn({ msg: 'vendor circuit breaker', vendor: code, operation, state }),
    });
  const suppliers: SupplierPort[] = [];
  const base = env.VENDOR_SIMULATOR_URL?.replace(/\/+$/, '');
  if (!base) {
    if (env.HOTELBEDS_API_KEY) throw new Error("HOTELBEDS_API_KEY needs VENDOR_SIMULATOR_URL: the vendor simulator's sandbox desk answers every sandbox prebook and booking, so test traffic never reaches Hotelbeds");
    return suppliers;
  }
  // Every sandbox prebook and booking goes to the simulator's sandbox desk, whichever vendor's rate it is.
  const credentials = simulatedVendorCredentials(env);
  const sandboxDesk = { client: clientOf('sandbox', `${base}/sandbox`, credentials.sandbox.apiKey, credentials.sandbox.secret), secret: credentials.sandbox.secret };
  if (env.HOTELBEDS_API_KEY) {
    if (!env.HOTELBEDS_SECRET) throw new Error('HOTELBEDS_SECRET (or HOTELBEDS_SECRET_FILE) must be set with HOTELBEDS_API_KEY');
    suppliers.push(
      new HotelbedsSupplier({
        code: HOTELBEDS_VENDOR_CODE,
        name: 'Hotelbeds',
        client: clientOf(HOTELBEDS_VENDOR_CODE, env.HOTELBEDS_BASE_URL, env.HOTELBEDS_API_KEY, env.HOTELBEDS_SECRET),
        hotelCodes: options.hotelCodes,
        importsContent: options.hotelCodes !== undefined,
        sandboxDesk,
      }),
    );
  }
  for (const code of simulatedVendorsOf(env)) {
    const { apiKey, secret } = credentials[code];
    suppliers.push(new HotelbedsSupplier({ code, name: VENDOR_NAMES[code], client: clientOf(code, `${base}/${code}`, apiKey, secret), sandboxDesk }));
  }
  return suppliers;
}
