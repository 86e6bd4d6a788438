import { Column, CreateDateColumn, Entity, PrimaryGeneratedColumn, UpdateDateColumn } from 'typeorm';
import { WebhookDeliveryStatus, WebhookEventType } from '@hotel/contracts';

/**
 * One event for one endpoint (table webhooks.deliveries): written before the first
 * attempt, so a replica that dies leaves it for another. One row per endpoint and
 * event (a redelivered stream message adds nothing).
 */
@Entity({ schema: 'webhooks', name: 'deliveries' })
export class WebhookDeliveryEntity {
  @PrimaryGeneratedColumn({ type: 'integer' })
  id: number;

  @Column({ name: 'endpoint_id', type: 'integer' })
  endpointId: number;

  @Column({ name: 'client_id', type: 'integer' })
  clientId: number;

  @Column({ name: 'event_id', type: 'text' })
  eventId: string;

  @Column({ name: 'event_type', type: 'text' })
  eventType: WebhookEventType;

  @Column({ name: 'booking_id', type: 'integer', nullable: true })
  bookingId: number | null;

  /** The event's place among its booking's events: a booking's deliveries to one endpoint go in this order. */
  @Column({ type: 'integer', nullable: true })
  sequence: number | null;

  /** The body, byte for byte as signed. */
  @Column({ type: 'text', select: false })
  payload: string;

  @Column({ type: 'text', default: 'pending' })
  status: WebhookDeliveryStatus;

  @Column({ type: 'integer', default: 0 })
  attempts: number;

  @Column({ name: 'last_status_code', type: 'integer', nullable: true })
  lastStatusCode: number | null;

  /** Why the last attempt failed, in the platform's words (`HTTP 503`, a connection error): never the receiver's answer. */
  @Column({ name: 'last_error', type: 'text', nullable: true })
  lastError: string | null;

  @Column({ name: 'last_attempt_at', type: 'timestamptz', nullable: true })
  lastAttemptAt: Date | null;

  /** How long the last attempt took, from its start to the answer's head (or the failure). */
  @Column({ name: 'last_duration_ms', type: 'integer', nullable: true })
  lastDurationMs: number | null;

  @Column({ name: 'next_attempt_at', type: 'timestamptz', nullable: true })
  nextAttemptAt: Date | null;

  /** A replica attempting it holds it until then; after, another may take it (the first died). */
  @Column({ name: 'leased_until', type: 'timestamptz', nullable: true, select: false })
  leasedUntil: Date | null;

  /** Names the claim: only the replica holding it records the attempt's outcome. */
  @Column({ name: 'lease_token', type: 'uuid', nullable: true, select: false })
  leaseToken: string | null;

  @Column({ name: 'delivered_at', type: 'timestamptz', nullable: true })
  deliveredAt: Date | null;

  @CreateDateColumn({ name: 'created_at', type: 'timestamptz' })
  createdAt: Date;

  @UpdateDateColumn({ name: 'updated_at', type: 'timestamptz' })
  updatedAt: Date;
}
