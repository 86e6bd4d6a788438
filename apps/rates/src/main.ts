import 'reflect-metadata';
import { runServiceProcess } from '@hotel/platform';
import { RatesAppModule } from './rates-app.module';
import { RatesEnv } from './rates.env';

runServiceProcess('rates', RatesEnv, (env) => RatesAppModule.register(env));
