import { Controller } from '@nestjs/common';
import { Payload } from '@nestjs/microservices';
import { ActorScoped, CreateWebhookEndpointRequest, DeletedWebhookEndpoint, ListWebhookDeliveriesRequest, OPERATIONS, UpdateWebhookEndpointRequest, WebhookDeliveryIdRequest, WebhookDeliveryPage, WebhookDeliveryView, WebhookEndpointIdRequest, WebhookEndpointList, WebhookEndpointView, WebhookEndpointWithSecret } from '@hotel/contracts';
import { WebhookEndpointsService } from './webhook-endpoints.service';
import { Handles } from '@hotel/platform';

@Controller()
export class WebhookEndpointsController {
  constructor(private readonly webhooks: WebhookEndpointsService) {}

  @Handles(OPERATIONS.WEBHOOKS_ENDPOINT_CREATE)
  create(@Payload() request: CreateWebhookEndpointRequest): Promise<WebhookEndpointWithSecret> {
    return this.webhooks.create(request);
  }

  @Handles(OPERATIONS.WEBHOOKS_ENDPOINT_LIST)
  list(@Payload() request: ActorScoped): Promise<WebhookEndpointList> {
    return this.webhooks.list(request);
  }

  @Handles(OPERATIONS.WEBHOOKS_ENDPOINT_GET)
  get(@Payload() request: WebhookEndpointIdRequest): Promise<WebhookEndpointView> {
    return this.webhooks.get(request);
  }

  @Handles(OPERATIONS.WEBHOOKS_ENDPOINT_UPDATE)
  update(@Payload() request: UpdateWebhookEndpointRequest): Promise<WebhookEndpointView> {
    return this.webhooks.update(request);
  }

  @Handles(OPERATIONS.WEBHOOKS_ENDPOINT_DELETE)
  delete(@Payload() request: WebhookEndpointIdRequest): Promise<DeletedWebhookEndpoint> {
    return this.webhooks.delete(request);
  }

  @Handles(OPERATIONS.WEBHOOKS_ENDPOINT_ROTATE_SECRET)
  rotateSecret(@Payload() request: WebhookEndpointIdRequest): Promise<WebhookEndpointWithSecret> {
    return this.webhooks.rotateSecret(request);
  }

  @Handles(OPERATIONS.WEBHOOKS_ENDPOINT_TEST)
  sendTest(@Payload() request: WebhookEndpointIdRequest): Promise<WebhookDeliveryView> {
    return this.webhooks.sendTest(request);
  }

  @Handles(OPERATIONS.WEBHOOKS_DELIVERY_LIST)
  deliveries(@Payload() request: ListWebhookDeliveriesRequest): Promise<WebhookDeliveryPage> {
    return this.webhooks.deliveriesOf(request);
  }

  @Handles(OPERATIONS.WEBHOOKS_DELIVERY_RETRY)
  retry(@Payload() request: WebhookDeliveryIdRequest): Promise<WebhookDeliveryView> {
    return this.webhooks.retry(request);
  }
}
