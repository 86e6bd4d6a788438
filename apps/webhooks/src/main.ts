import 'reflect-metadata';
import { runServiceProcess } from '@hotel/platform';
import { WebhooksAppModule } from './webhooks-app.module';
import { WebhooksEnv } from './webhooks.env';

runServiceProcess('webhooks', WebhooksEnv, (env) => WebhooksAppModule.register(env));
