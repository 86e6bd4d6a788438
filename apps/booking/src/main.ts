import 'reflect-metadata';
import { runServiceProcess } from '@hotel/platform';
import { BookingAppModule } from './booking-app.module';
import { BookingEnv } from './booking.env';

runServiceProcess('booking', BookingEnv, (env) => BookingAppModule.register(env));
