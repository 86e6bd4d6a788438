import { MigrationInterface, QueryRunner } from 'typeorm';

/**
 * The delivery log shows an attempt's status and timing, never the receiver's answer:
 * it no longer keeps the first 200 bytes of a non-2xx body, which let a client read
 * what any server it could aim a webhook at answered. Rows written before keep their
 * status code and lose the body after it (`HTTP 503: <body>` becomes `HTTP 503`);
 * nothing else of them changes (not `updated_at`, so they leave the log when they
 * would have). Each attempt's time and duration are recorded from now on; older rows
 * have none (null).
 */
export class DeliveryLogWithoutBodies1765500000000 implements MigrationInterface {
  name = 'DeliveryLogWithoutBodies1765500000000';

  async up(queryRunner: QueryRunner): Promise<void> {
    await queryRunner.query(`ALTER TABLE webhooks.deliveries ADD COLUMN last_attempt_at timestamptz, ADD COLUMN last_duration_ms integer`);
    await queryRunner.query(`UPDATE webhooks.deliveries SET last_error = substring(last_error from '^HTTP [0-9]{3}') WHERE last_error ~ '^HTTP [0-9]{3}: '`);
  }

  async down(queryRunner: QueryRunner): Promise<void> {
    // The bodies cleared are not brought back: they should never have been kept.
    await queryRunner.query(`ALTER TABLE webhooks.deliveries DROP COLUMN last_attempt_at, DROP COLUMN last_duration_ms`);
  }
}
