import { ServiceHarness, startServiceHarness } from '@hotel/testing';
import { RATES_ENTITIES, RATES_MIGRATIONS, RatesAppModule } from '../src/rates-app.module';
import { RatesEnv } from '../src/rates.env';

/** For service-tier tests: the rates service's providers and migrations in the service harness. */
export function startRatesHarness(): Promise<ServiceHarness<RatesEnv>> {
  return startServiceHarness({
    name: 'rates',
    envClass: RatesEnv,
    providers: (env) => RatesAppModule.register(env).providers ?? [],
    entities: RATES_ENTITIES,
    migrations: RATES_MIGRATIONS,
  });
}
