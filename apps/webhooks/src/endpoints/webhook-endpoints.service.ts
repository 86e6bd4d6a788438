import { Injectable } from '@nestjs/common';
import { randomUUID } from 'node:crypto';
import {
  Actor,
  BOOKING_EVENT_TYPES,
  CreateWebhookEndpointRequest,
  DeletedWebhookEndpoint,
  ListWebhookDeliveriesRequest,
  UpdateWebhookEndpointRequest,
  WEBHOOK_TEST_EVENT,
  WebhookDeliveryIdRequest,
  WebhookDeliveryPage,
  WebhookDeliveryView,
  WebhookEndpointIdRequest,
  WebhookEndpointList,
  WebhookEndpointView,
  WebhookEndpointWithSecret,
  MAX_WEBHOOK_ENDPOINTS,
} from '@hotel/contracts';
import { DomainError, requireBackend } from '@hotel/platform';
import { WebhookDeliveriesRepository } from '../deliveries/webhook-deliveries.repository';
import { WebhookDispatcher } from '../deliveries/webhook-dispatcher';
import { newSigningSecret } from '../deliveries/signature';
import { TargetPolicy, targetProblem } from '../deliveries/target-policy';
import { SecretBox } from './secret-box';
import { WebhookEndpointsRepository } from './webhook-endpoints.repository';

/** After a rotation the old secret keeps signing beside the new one this long, so a receiver can switch over. */
export const PREVIOUS_SECRET_GRACE_MS = 24 * 3600_000;

/** A client's webhook endpoints and their delivery log (backend token only; another client's are not found). */
@Injectable()
export class WebhookEndpointsService {
  constructor(
    private readonly endpoints: WebhookEndpointsRepository,
    private readonly deliveries: WebhookDeliveriesRepository,
    private readonly dispatcher: WebhookDispatcher,
    private readonly secrets: SecretBox,
    private readonly policy: TargetPolicy,
  ) {}

  async create({ actor, endpoint }: CreateWebhookEndpointRequest): Promise<WebhookEndpointWithSecret> {
    requireBackend(actor, 'managing webhooks');
    this.checkTarget(endpoint.url);
    const secret = newSigningSecret();
    const created = await this.endpoints.create(
      actor.clientId,
      { url: endpoint.url, events: endpoint.events ?? [...BOOKING_EVENT_TYPES], description: endpoint.description ?? null },
      this.secrets.seal(secret),
    );
    if (created === 'limit') throw new DomainError('CONFLICT', `a client may have at most ${MAX_WEBHOOK_ENDPOINTS} webhook endpoints; delete one first`);
    return { ...created, secret };
  }

  async list({ actor }: { actor: Actor }): Promise<WebhookEndpointList> {
    requireBackend(actor, 'managing webhooks');
    return { endpoints: await this.endpoints.list(actor.clientId) };
  }

  async get({ actor, endpointId }: WebhookEndpointIdRequest): Promise<WebhookEndpointView> {
    requireBackend(actor, 'managing webhooks');
    return this.found(await this.endpoints.find(actor.clientId, endpointId), endpointId);
  }

  async update({ actor, endpointId, changes }: UpdateWebhookEndpointRequest): Promise<WebhookEndpointView> {
    requireBackend(actor, 'managing webhooks');
    if (Object.values(changes).every((value) => value === undefined)) {
      throw new DomainError('VALIDATION_FAILED', 'give at least one of url, events, description, enabled');
    }
    if (changes.url !== undefined) this.checkTarget(changes.url);
    const updated = this.found(await this.endpoints.update(actor.clientId, endpointId, changes), endpointId);
    // Events are not queued for a disabled endpoint; those already waiting fail now rather than wait for ever.
    if (changes.enabled === false) await this.deliveries.failPending(endpointId, 'endpoint disabled by its owner');
    return updated;
  }

  async delete({ actor, endpointId }: WebhookEndpointIdRequest): Promise<DeletedWebhookEndpoint> {
    requireBackend(actor, 'managing webhooks');
    if (!(await this.endpoints.delete(actor.clientId, endpointId))) throw this.notFound(endpointId);
    return { id: endpointId, deleted: true };
  }

  async rotateSecret({ actor, endpointId }: WebhookEndpointIdRequest): Promise<WebhookEndpointWithSecret> {
    requireBackend(actor, 'managing webhooks');
    const secret = newSigningSecret();
    const rotated = await this.endpoints.rotateSecret(actor.clientId, endpointId, this.secrets.seal(secret), new Date(Date.now() + PREVIOUS_SECRET_GRACE_MS));
    return { ...this.found(rotated, endpointId), secret };
  }

  /** A `webhook.test` event for this endpoint alone, attempted at once (and retried like any other). */
  async sendTest({ actor, endpointId }: WebhookEndpointIdRequest): Promise<WebhookDeliveryView> {
    requireBackend(actor, 'managing webhooks');
    const endpoint = this.found(await this.endpoints.find(actor.clientId, endpointId), endpointId);
    if (!endpoint.enabled) throw new DomainError('CONFLICT', `webhook endpoint ${endpointId} is disabled; enable it first`);
    // One test event at a time per endpoint: a test cannot be used to pile up requests to a URL.
    if (await this.deliveries.hasPendingTest(endpointId)) throw new DomainError('CONFLICT', `a test event for webhook endpoint ${endpointId} is still pending; see its delivery log`);
    const id = randomUUID();
    const payload = JSON.stringify({ type: WEBHOOK_TEST_EVENT, timestamp: new Date().toISOString(), data: { endpoint_id: endpointId } });
    await this.deliveries.add({ id, type: WEBHOOK_TEST_EVENT, clientId: actor.clientId, bookingId: null, sequence: null, payload }, [endpointId]);
    this.dispatcher.nudge();
    return (await this.deliveries.findByEvent(endpointId, id))!;
  }

  async deliveriesOf({ actor, endpointId, query }: ListWebhookDeliveriesRequest): Promise<WebhookDeliveryPage> {
    requireBackend(actor, 'managing webhooks');
    this.found(await this.endpoints.find(actor.clientId, endpointId), endpointId);
    const limit = query.limit ?? 50;
    return this.deliveries.page(endpointId, query.status, limit, ((query.page ?? 1) - 1) * limit);
  }

  /** Sends a delivered or failed delivery again now (its attempts go on counting); a pending one keeps its schedule (409). */
  async retry({ actor, deliveryId }: WebhookDeliveryIdRequest): Promise<WebhookDeliveryView> {
    requireBackend(actor, 'managing webhooks');
    const delivery = await this.deliveries.find(actor.clientId, deliveryId);
    if (!delivery) throw new DomainError('NOT_FOUND', `webhook delivery ${deliveryId} not found`);
    const endpoint = await this.endpoints.find(actor.clientId, delivery.endpointId);
    if (!endpoint?.enabled) throw new DomainError('CONFLICT', `webhook endpoint ${delivery.endpointId} is disabled; enable it first`);
    const again = await this.deliveries.retryNow(actor.clientId, deliveryId);
    if (!again) throw new DomainError('CONFLICT', `webhook delivery ${deliveryId} is pending already: it is attempted on its schedule (nextAttemptAt)`);
    this.dispatcher.nudge();
    return again;
  }

  private checkTarget(url: string): void {
    const problem = targetProblem(url, this.policy);
    if (problem) throw new DomainError('VALIDATION_FAILED', problem);
  }

  private found<T>(value: T | null, endpointId: number): T {
    if (value === null) throw this.notFound(endpointId);
    return value;
  }

  private notFound(endpointId: number): DomainError {
    return new DomainError('NOT_FOUND', `webhook endpoint ${endpointId} not found`);
  }
}
