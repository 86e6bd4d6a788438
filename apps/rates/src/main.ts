import 'reflect-metadata';
import { ServiceEnv, runServiceProcess } from '@hotel/platform';
import { RatesAppModule } from './rates-app.module';

runServiceProcess('rates', ServiceEnv, (env) => RatesAppModule.register(env));
