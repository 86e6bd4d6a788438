import 'reflect-metadata';
import { runServiceProcess } from '@hotel/platform';
import { SearchAppModule } from './search-app.module';
import { SearchEnv } from './search.env';

runServiceProcess('search', SearchEnv, (env) => SearchAppModule.register(env));
