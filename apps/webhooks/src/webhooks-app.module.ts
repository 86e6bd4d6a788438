import { DynamicModule, Module } from '@nestjs/common';
import { SUBJECTS } from '@hotel/contracts';
import { ServicePlatformModule } from '@hotel/platform';
import { BookingEventsConsumer } from './deliveries/booking-events-consumer';
import { EndpointClients } from './endpoints/endpoint-clients';
import { TargetPolicy } from './deliveries/target-policy';
import { WebhookDeliveriesRepository } from './deliveries/webhook-deliveries.repository';
import { WebhookDeliveryEntity } from './deliveries/webhook-delivery.entity';
import { WebhookDispatcher } from './deliveries/webhook-dispatcher';
import { WebhookPoster } from './deliveries/webhook-post';
import { SecretBox } from './endpoints/secret-box';
import { WebhookEndpointEntity } from './endpoints/webhook-endpoint.entity';
import { WebhookEndpointsController } from './endpoints/webhook-endpoints.controller';
import { WebhookEndpointsRepository } from './endpoints/webhook-endpoints.repository';
import { WebhookEndpointsService } from './endpoints/webhook-endpoints.service';
import { CreateWebhooks1764600000000 } from './migrations/1764600000000-create-webhooks';
import { DeliveryLogWithoutBodies1765500000000 } from './migrations/1765500000000-delivery-log-without-bodies';
import { BookingEventsSeen1765900000000 } from './migrations/1765900000000-booking-events-seen';
import { WebhooksEnv } from './webhooks.env';
import { WebhooksFailPoints } from './webhooks-fail-points';

export const WEBHOOKS_MIGRATIONS = [CreateWebhooks1764600000000, DeliveryLogWithoutBodies1765500000000, BookingEventsSeen1765900000000];

@Module({})
export class WebhooksAppModule {
  static register(env: WebhooksEnv): DynamicModule {
    const policy = TargetPolicy.of(env);
    return {
      module: WebhooksAppModule,
      imports: [
        ServicePlatformModule.forService({
          name: 'webhooks',
          env,
          healthSubject: SUBJECTS.WEBHOOKS_HEALTH_CHECK,
          entities: [WebhookEndpointEntity, WebhookDeliveryEntity],
          migrations: WEBHOOKS_MIGRATIONS,
        }),
      ],
      controllers: [WebhookEndpointsController],
      providers: [
        { provide: TargetPolicy, useValue: policy },
        { provide: SecretBox, useValue: new SecretBox(env.WEBHOOK_SECRET_KEY) },
        { provide: WebhookPoster, useValue: new WebhookPoster(policy, env.WEBHOOK_TIMEOUT_MS) },
        WebhooksFailPoints,
        WebhookEndpointsRepository,
        WebhookDeliveriesRepository,
        WebhookEndpointsService,
        WebhookDispatcher,
        EndpointClients,
        BookingEventsConsumer,
      ],
    };
  }
}
