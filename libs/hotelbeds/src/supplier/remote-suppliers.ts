import { Logger } from '@nestjs/common';
import { SupplierPort, VENDORS, VENDOR_CODES } from '@hotel/inventory';
import { HotelbedsClient } from '../client';
import { HotelCodeBook, HotelbedsSupplier } from './hotelbeds-supplier';
import { VendorsEnv, simulatedVendorCredentials } from './vendors.env';

/** The platform's code of the Hotelbeds vendor. */
export const HOTELBEDS_VENDOR_CODE = 'hotelbeds';

/**
 * The remote suppliers an app's configuration names (VendorsEnv): `hotelbeds` when its key
 * is set, and the built-in vendors at the vendor simulator when VENDOR_SIMULATOR_URL is.
 * Each gets a client of its own (its own connection pool and circuit breakers).
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
      onBreakerStateChange: (operation, state) => logger.warn({ msg: 'vendor circuit breaker', vendor: code, operation, state }),
    });
  const suppliers: SupplierPort[] = [];
  // Every sandbox prebook and booking goes to the simulator's sandbox desk when there is a simulator.
  const base = env.VENDOR_SIMULATOR_URL?.replace(/\/+$/, '');
  const credentials = simulatedVendorCredentials(env);
  const sandboxDesk = base ? { client: clientOf('sandbox', `${base}/sandbox`, credentials.sandbox.apiKey, credentials.sandbox.secret), secret: credentials.sandbox.secret } : undefined;
  if (env.HOTELBEDS_API_KEY) {
    if (!env.HOTELBEDS_SECRET) throw new Error('HOTELBEDS_SECRET (or HOTELBEDS_SECRET_FILE) must be set with HOTELBEDS_API_KEY');
    suppliers.push(
      new HotelbedsSupplier({
        code: HOTELBEDS_VENDOR_CODE,
        name: 'Hotelbeds',
        client: clientOf(HOTELBEDS_VENDOR_CODE, env.HOTELBEDS_BASE_URL, env.HOTELBEDS_API_KEY, env.HOTELBEDS_SECRET),
        sandboxPendingSeconds: env.SUPPLIER_PENDING_S,
        hotelCodes: options.hotelCodes,
        importsContent: options.hotelCodes !== undefined,
        sandboxDesk,
      }),
    );
  }
  if (base) {
    for (const code of VENDOR_CODES) {
      const { apiKey, secret } = credentials[code];
      suppliers.push(
        new HotelbedsSupplier({ code, name: VENDORS[code].name, client: clientOf(code, `${base}/${code}`, apiKey, secret), sandboxPendingSeconds: env.SUPPLIER_PENDING_S, sandboxDesk }),
      );
    }
  }
  return suppliers;
}
