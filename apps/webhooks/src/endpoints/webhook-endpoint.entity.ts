import { Column, CreateDateColumn, Entity, PrimaryGeneratedColumn, UpdateDateColumn } from 'typeorm';
import { BookingEventType } from '@hotel/contracts';

/** A client's webhook endpoint (table webhooks.endpoints). */
@Entity({ schema: 'webhooks', name: 'endpoints' })
export class WebhookEndpointEntity {
  @PrimaryGeneratedColumn({ type: 'integer' })
  id: number;

  @Column({ name: 'client_id', type: 'integer' })
  clientId: number;

  @Column({ type: 'text' })
  url: string;

  @Column({ type: 'text', array: true })
  events: BookingEventType[];

  @Column({ type: 'text', nullable: true })
  description: string | null;

  @Column({ type: 'boolean', default: true })
  enabled: boolean;

  @Column({ name: 'disabled_reason', type: 'text', nullable: true })
  disabledReason: string | null;

  /** The signing secret, encrypted (SecretBox). */
  @Column({ type: 'text', select: false })
  secret: string;

  /** The secret before the last rotation, still signing beside the new one until `previousSecretUntil`. */
  @Column({ name: 'previous_secret', type: 'text', nullable: true, select: false })
  previousSecret: string | null;

  @Column({ name: 'previous_secret_until', type: 'timestamptz', nullable: true, select: false })
  previousSecretUntil: Date | null;

  /** When the current run of failed attempts began; null after a success. */
  @Column({ name: 'failing_since', type: 'timestamptz', nullable: true })
  failingSince: Date | null;

  @CreateDateColumn({ name: 'created_at', type: 'timestamptz' })
  createdAt: Date;

  @UpdateDateColumn({ name: 'updated_at', type: 'timestamptz' })
  updatedAt: Date;
}
