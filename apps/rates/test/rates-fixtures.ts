import { Type } from '@nestjs/common';
import { SupplierPort } from '@hotel/inventory';
import { ServiceHarness, startServiceHarness } from '@hotel/testing';
// eslint-disable-next-line @nx/enforce-module-boundaries -- the vendor simulator is the service's vendors, started in the test's process over HTTP as the system tests start it
import { TestSimulator, withTestSimulator } from '../../vendor-simulator/test/test-simulator';
import { RATES_ENTITIES, RATES_MIGRATIONS, RatesAppModule } from '../src/rates-app.module';
import { RatesEnv } from '../src/rates.env';

/**
 * For service-tier tests: the rates service's providers and migrations in the service
 * harness, its vendors at a vendor simulator started for it (`vendors`; none when `env`
 * has VENDOR_SIMULATOR_URL); `suppliers` of a test's own in place of the remote vendors of their codes.
 */
export function startRatesHarness(
  options: { suppliers?: Type<SupplierPort>[]; env?: Record<string, string> } = {},
): Promise<ServiceHarness<RatesEnv> & { vendors?: TestSimulator }> {
  return withTestSimulator(options.env ?? {}, (env) =>
    startServiceHarness({
      name: 'rates',
      envClass: RatesEnv,
      env,
      providers: (validated) => RatesAppModule.register(validated, { suppliers: options.suppliers }).providers ?? [],
      entities: RATES_ENTITIES,
      migrations: RATES_MIGRATIONS,
    }),
  );
}
