import 'reflect-metadata';
import { ServiceEnv, runServiceProcess } from '@hotel/platform';
import { BookingAppModule } from './booking-app.module';

runServiceProcess('booking', ServiceEnv, (env) => BookingAppModule.register(env));
