import 'reflect-metadata';
import { ServiceEnv, runServiceProcess } from '@hotel/platform';
import { AccountingAppModule } from './accounting-app.module';

runServiceProcess('accounting', ServiceEnv, (env) => AccountingAppModule.register(env));
