import { Type } from '@nestjs/common';
import { SupplierPort } from '@hotel/inventory';
import { ServiceHarness, startServiceHarness } from '@hotel/testing';
import { RATES_ENTITIES, RATES_MIGRATIONS, RatesAppModule } from '../src/rates-app.module';
import { RatesEnv } from '../src/rates.env';

/**
 * For service-tier tests: the rates service's providers and migrations in the service
 * harness; `suppliers` of a test's own in place of the simulated vendors of their codes.
 */
export function startRatesHarness(options: { suppliers?: Type<SupplierPort>[]; env?: Record<string, string> } = {}): Promise<ServiceHarness<RatesEnv>> {
  return startServiceHarness({
    name: 'rates',
    envClass: RatesEnv,
    env: options.env,
    providers: (env) => RatesAppModule.register(env, { suppliers: options.suppliers }).providers ?? [],
    entities: RATES_ENTITIES,
    migrations: RATES_MIGRATIONS,
  });
}
