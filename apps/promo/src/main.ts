import 'reflect-metadata';
import { ServiceEnv, runServiceProcess } from '@hotel/platform';
import { PromoAppModule } from './promo-app.module';

runServiceProcess('promo', ServiceEnv, (env) => PromoAppModule.register(env));
