import { ServiceHarness, startServiceHarness } from '@hotel/testing';
import { SEARCH_ENTITIES, SEARCH_MIGRATIONS, SearchAppModule } from '../src/search-app.module';
import { SearchEnv } from '../src/search.env';

/** For service-tier tests: the search service's providers and migrations in the service harness. */
export function startSearchHarness(options: { env?: Record<string, string> } = {}): Promise<ServiceHarness<SearchEnv>> {
  return startServiceHarness({
    name: 'search',
    envClass: SearchEnv,
    env: options.env,
    providers: (env) => SearchAppModule.register(env).providers ?? [],
    entities: SEARCH_ENTITIES,
    migrations: SEARCH_MIGRATIONS,
  });
}
