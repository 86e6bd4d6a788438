import { Type } from 'class-transformer';
import {
  ArrayMaxSize,
  ArrayMinSize,
  ArrayUnique,
  IsBoolean,
  IsIn,
  IsInt,
  IsOptional,
  IsPositive,
  IsString,
  MaxLength,
  Max,
  ValidateIf,
  ValidateNested,
  IsDefined,
} from 'class-validator';
import { ActorScoped } from '../common/actor';
import { PageLimit, PageNumber, stacked } from '../common/page-query';
import { MAX_INT_ID } from '../common/validators';
import { BOOKING_EVENT_TYPES, BookingEventType } from '../booking/events';

/** The events an endpoint can subscribe to: every booking event. */
export const WEBHOOK_EVENT_TYPES = BOOKING_EVENT_TYPES;
/** The event `POST /api/webhook/{id}/test` sends, whatever the endpoint subscribes to. */
export const WEBHOOK_TEST_EVENT = 'webhook.test';
export type WebhookEventType = BookingEventType | typeof WEBHOOK_TEST_EVENT;

/** Endpoints one client may have. */
export const MAX_WEBHOOK_ENDPOINTS = 10;
/** The longest endpoint URL accepted. */
export const MAX_WEBHOOK_URL_LENGTH = 2048;

export const WEBHOOK_DELIVERY_STATUSES = ['pending', 'delivered', 'failed'] as const;
export type WebhookDeliveryStatus = (typeof WEBHOOK_DELIVERY_STATUSES)[number];

/** An endpoint's `events`: optional, one or more distinct booking event types. */
function EventTypeList(): PropertyDecorator {
  return stacked(IsOptional(), ArrayMinSize(1), ArrayMaxSize(WEBHOOK_EVENT_TYPES.length), ArrayUnique(), IsIn(WEBHOOK_EVENT_TYPES, { each: true }));
}

/**
 * Body of `POST /api/webhook`. The URL's shape is checked here (a string of
 * bounded length); whether it is an allowed target (scheme, address) is the
 * webhooks service's decision, which it makes again at every delivery.
 */
export class NewWebhookEndpoint {
  @IsString()
  @MaxLength(MAX_WEBHOOK_URL_LENGTH)
  url: string;

  /** Default: every booking event. */
  @EventTypeList()
  events?: BookingEventType[];

  @IsOptional()
  @IsString()
  @MaxLength(500)
  description?: string;
}

/** Body of `PUT /api/webhook/{id}`: the fields to change (at least one). */
export class WebhookEndpointChanges {
  // Absent leaves it; null is no url (400), not "absent" as @IsOptional would take it.
  @ValidateIf((changes: WebhookEndpointChanges) => changes.url !== undefined)
  @IsString()
  @MaxLength(MAX_WEBHOOK_URL_LENGTH)
  url?: string;

  @EventTypeList()
  events?: BookingEventType[];

  /** null clears it. */
  @IsOptional()
  @IsString()
  @MaxLength(500)
  description?: string | null;

  /** true re-enables an endpoint that was disabled (by its owner or after failing for days); null is not a choice (400). */
  @ValidateIf((changes: WebhookEndpointChanges) => changes.enabled !== undefined)
  @IsBoolean()
  enabled?: boolean;
}

/** The webhook endpoint resource of the backend API. */
export interface WebhookEndpointView {
  id: number;
  url: string;
  events: BookingEventType[];
  description: string | null;
  enabled: boolean;
  /** Why the platform disabled it (failing for days), or null. */
  disabledReason: string | null;
  createdAt: string;
  updatedAt: string;
}

/** The answer of create and rotate-secret: the only time the signing secret is shown. */
export interface WebhookEndpointWithSecret extends WebhookEndpointView {
  /** `whsec_` + base64 of 32 random bytes (the Standard Webhooks form). */
  secret: string;
}

/** One event for one endpoint, and how its delivery went. */
export interface WebhookDeliveryView {
  id: number;
  endpointId: number;
  /** The `webhook-id` header: the same for every endpoint and every attempt of one event. */
  eventId: string;
  eventType: WebhookEventType;
  bookingId: number | null;
  status: WebhookDeliveryStatus;
  attempts: number;
  /** The receiver's status at the last attempt; null when it did not answer. */
  lastStatusCode: number | null;
  /** Why the last attempt failed (`HTTP 503`, `no answer within 10000 ms`, a connection error); never what the receiver's answer said. */
  lastError: string | null;
  /** When the last attempt began; null before the first. */
  lastAttemptAt: string | null;
  /** How long the last attempt took (ms), from its start to the answer's status and headers, or to the failure; null when nothing was sent. */
  lastDurationMs: number | null;
  /** When the next attempt is due while pending; null otherwise. */
  nextAttemptAt: string | null;
  deliveredAt: string | null;
  createdAt: string;
}

export interface WebhookDeliveryPage {
  deliveries: WebhookDeliveryView[];
  total: number;
}

/** Query of `GET /api/webhook/{id}/deliveries`. */
export class WebhookDeliveriesQuery {
  @PageNumber()
  page?: number;

  @PageLimit(100)
  limit?: number;

  @IsOptional()
  @IsIn(WEBHOOK_DELIVERY_STATUSES)
  status?: WebhookDeliveryStatus;
}

export class WebhookEndpointIdRequest extends ActorScoped {
  @IsInt()
  @IsPositive()
  @Max(MAX_INT_ID)
  endpointId: number;
}

export class CreateWebhookEndpointRequest extends ActorScoped {
  @IsDefined()
  @ValidateNested()
  @Type(() => NewWebhookEndpoint)
  endpoint: NewWebhookEndpoint;
}

export class UpdateWebhookEndpointRequest extends WebhookEndpointIdRequest {
  @IsDefined()
  @ValidateNested()
  @Type(() => WebhookEndpointChanges)
  changes: WebhookEndpointChanges;
}

export class ListWebhookDeliveriesRequest extends WebhookEndpointIdRequest {
  @IsDefined()
  @ValidateNested()
  @Type(() => WebhookDeliveriesQuery)
  query: WebhookDeliveriesQuery;
}

export class WebhookDeliveryIdRequest extends ActorScoped {
  @IsInt()
  @IsPositive()
  @Max(MAX_INT_ID)
  deliveryId: number;
}

export interface WebhookEndpointList {
  endpoints: WebhookEndpointView[];
}

export interface DeletedWebhookEndpoint {
  id: number;
  deleted: true;
}
