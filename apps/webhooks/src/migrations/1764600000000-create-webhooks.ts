import { MigrationInterface, QueryRunner } from 'typeorm';

/**
 * Webhook endpoints and their deliveries. A delivery is unique per endpoint and
 * event (the stream may hand an event over twice). The partial indexes hold the
 * pending deliveries only: the dispatcher's scan for due ones client by client, its
 * count of a client's attempts in flight, and its "no earlier pending event of this
 * booking for this endpoint" check that keeps a booking's events in order.
 */
export class CreateWebhooks1764600000000 implements MigrationInterface {
  name = 'CreateWebhooks1764600000000';

  async up(queryRunner: QueryRunner): Promise<void> {
    await queryRunner.query(`
      CREATE TABLE webhooks.endpoints (
        id serial PRIMARY KEY,
        client_id integer NOT NULL,
        url text NOT NULL,
        events text[] NOT NULL,
        description text,
        enabled boolean NOT NULL DEFAULT true,
        disabled_reason text,
        secret text NOT NULL,
        previous_secret text,
        previous_secret_until timestamptz,
        failing_since timestamptz,
        created_at timestamptz NOT NULL DEFAULT now(),
        updated_at timestamptz NOT NULL DEFAULT now()
      )`);
    await queryRunner.query(`CREATE INDEX endpoints_by_client ON webhooks.endpoints (client_id, id)`);
    await queryRunner.query(`
      CREATE TABLE webhooks.deliveries (
        id serial PRIMARY KEY,
        endpoint_id integer NOT NULL REFERENCES webhooks.endpoints (id) ON DELETE CASCADE,
        client_id integer NOT NULL,
        event_id text NOT NULL,
        event_type text NOT NULL,
        booking_id integer,
        sequence integer,
        payload text NOT NULL,
        status text NOT NULL DEFAULT 'pending' CHECK (status IN ('pending', 'delivered', 'failed')),
        attempts integer NOT NULL DEFAULT 0,
        last_status_code integer,
        last_error text,
        next_attempt_at timestamptz,
        leased_until timestamptz,
        lease_token uuid,
        delivered_at timestamptz,
        created_at timestamptz NOT NULL DEFAULT now(),
        updated_at timestamptz NOT NULL DEFAULT now(),
        CONSTRAINT deliveries_once_per_endpoint UNIQUE (endpoint_id, event_id)
      )`);
    await queryRunner.query(`CREATE INDEX deliveries_by_endpoint ON webhooks.deliveries (endpoint_id, id DESC)`);
    await queryRunner.query(`CREATE INDEX deliveries_due ON webhooks.deliveries (client_id, next_attempt_at) WHERE status = 'pending'`);
    await queryRunner.query(`CREATE INDEX deliveries_in_flight ON webhooks.deliveries (client_id) WHERE leased_until IS NOT NULL`);
    await queryRunner.query(`CREATE INDEX deliveries_pending_in_order ON webhooks.deliveries (endpoint_id, booking_id, sequence) WHERE status = 'pending'`);
  }

  async down(queryRunner: QueryRunner): Promise<void> {
    await queryRunner.query(`DROP TABLE webhooks.deliveries`);
    await queryRunner.query(`DROP TABLE webhooks.endpoints`);
  }
}
