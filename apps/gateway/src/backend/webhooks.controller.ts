import { Body, Controller, Inject, Param, Query } from '@nestjs/common';
import {
  Actor,
  DeletedWebhookEndpoint,
  IsIdString,
  NewWebhookEndpoint,
  SUBJECTS,
  WebhookDeliveriesQuery,
  WebhookDeliveryView,
  WebhookEndpointChanges,
  WebhookEndpointView,
  WebhookEndpointWithSecret,
} from '@hotel/contracts';
import { ServiceClient } from '@hotel/platform';
import { BackendApi, CurrentActor } from '../auth/api-family';
import { SERVICE_CLIENT } from '../gateway.tokens';
import { Paginated } from '../http/paginated';
import { Route } from '../http/route';

export class WebhookEndpointIdParams {
  @IsIdString()
  id: string;
}

/**
 * Webhook endpoints: where the platform POSTs the client's booking events, signed
 * (Standard Webhooks), with the log of every delivery. Backend token only.
 */
@Controller()
@BackendApi()
export class WebhooksController {
  constructor(@Inject(SERVICE_CLIENT) private readonly services: ServiceClient) {}

  /** The answer holds the signing secret; it is never shown again (rotate-secret makes a new one). */
  @Route('POST /api/webhook')
  create(@CurrentActor() actor: Actor, @Body() endpoint: NewWebhookEndpoint): Promise<WebhookEndpointWithSecret> {
    return this.services.send(SUBJECTS.WEBHOOKS_ENDPOINT_CREATE, { actor, endpoint });
  }

  @Route('GET /api/webhook')
  async list(@CurrentActor() actor: Actor): Promise<WebhookEndpointView[]> {
    return (await this.services.send(SUBJECTS.WEBHOOKS_ENDPOINT_LIST, { actor })).endpoints;
  }

  /** Retries a delivery now (declared before `:id` routes so `deliveries` is never taken for an id). */
  @Route('POST /api/webhook/deliveries/{id}/retry')
  retry(@CurrentActor() actor: Actor, @Param() params: WebhookEndpointIdParams): Promise<WebhookDeliveryView> {
    return this.services.send(SUBJECTS.WEBHOOKS_DELIVERY_RETRY, { actor, deliveryId: Number(params.id) });
  }

  @Route('GET /api/webhook/{id}')
  get(@CurrentActor() actor: Actor, @Param() params: WebhookEndpointIdParams): Promise<WebhookEndpointView> {
    return this.services.send(SUBJECTS.WEBHOOKS_ENDPOINT_GET, { actor, endpointId: Number(params.id) });
  }

  /** Changes any of url, events, description, enabled (at least one). */
  @Route('PUT /api/webhook/{id}')
  update(@CurrentActor() actor: Actor, @Param() params: WebhookEndpointIdParams, @Body() changes: WebhookEndpointChanges): Promise<WebhookEndpointView> {
    return this.services.send(SUBJECTS.WEBHOOKS_ENDPOINT_UPDATE, { actor, endpointId: Number(params.id), changes });
  }

  @Route('DELETE /api/webhook/{id}')
  delete(@CurrentActor() actor: Actor, @Param() params: WebhookEndpointIdParams): Promise<DeletedWebhookEndpoint> {
    return this.services.send(SUBJECTS.WEBHOOKS_ENDPOINT_DELETE, { actor, endpointId: Number(params.id) });
  }

  @Route('POST /api/webhook/{id}/rotate-secret')
  rotateSecret(@CurrentActor() actor: Actor, @Param() params: WebhookEndpointIdParams): Promise<WebhookEndpointWithSecret> {
    return this.services.send(SUBJECTS.WEBHOOKS_ENDPOINT_ROTATE_SECRET, { actor, endpointId: Number(params.id) });
  }

  /** Sends a `webhook.test` event to this endpoint now; the answer is its delivery (pending: watch it in the log). */
  @Route('POST /api/webhook/{id}/test')
  test(@CurrentActor() actor: Actor, @Param() params: WebhookEndpointIdParams): Promise<WebhookDeliveryView> {
    return this.services.send(SUBJECTS.WEBHOOKS_ENDPOINT_TEST, { actor, endpointId: Number(params.id) });
  }

  /** Newest first; `page`, `limit` (default 50, at most 100) and `status` (pending, delivered, failed). */
  @Route('GET /api/webhook/{id}/deliveries')
  async deliveries(@CurrentActor() actor: Actor, @Param() params: WebhookEndpointIdParams, @Query() query: WebhookDeliveriesQuery): Promise<Paginated<WebhookDeliveryView>> {
    const page = await this.services.send(SUBJECTS.WEBHOOKS_DELIVERY_LIST, { actor, endpointId: Number(params.id), query: { page: query.page, limit: query.limit, status: query.status } });
    return new Paginated(page.deliveries, page.total);
  }
}
