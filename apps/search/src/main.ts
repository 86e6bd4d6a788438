import 'reflect-metadata';
import { ServiceEnv, runServiceProcess } from '@hotel/platform';
import { SearchAppModule } from './search-app.module';

runServiceProcess('search', ServiceEnv, (env) => SearchAppModule.register(env));
