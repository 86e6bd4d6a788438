import { ServiceHarness, startServiceHarness } from '@hotel/testing';
// eslint-disable-next-line @nx/enforce-module-boundaries -- the vendor simulator is the service's vendors, started in the test's process over HTTP as the system tests start it
import { TestSimulator, withTestSimulator } from '../../vendor-simulator/test/test-simulator';
import { SEARCH_ENTITIES, SEARCH_MIGRATIONS, SearchAppModule } from '../src/search-app.module';
import { SearchEnv } from '../src/search.env';

/** For service-tier tests: the search service's providers and migrations in the service harness, its vendors at a vendor simulator started for it (as startRatesHarness). */
export function startSearchHarness(options: { env?: Record<string, string> } = {}): Promise<ServiceHarness<SearchEnv> & { vendors?: TestSimulator }> {
  return withTestSimulator(options.env ?? {}, (env) =>
    startServiceHarness({
      name: 'search',
      envClass: SearchEnv,
      env,
      providers: (validated) => SearchAppModule.register(validated).providers ?? [],
      entities: SEARCH_ENTITIES,
      migrations: SEARCH_MIGRATIONS,
    }),
  );
}
