import 'reflect-metadata';
import { runServiceProcess } from '@hotel/platform';
import { UsersAppModule } from './users-app.module';
import { UsersEnv } from './users.env';

runServiceProcess('users', UsersEnv, (env) => UsersAppModule.register(env));
