import { MigrationInterface, QueryRunner } from 'typeorm';

/**
 * The Idempotency-Key of each manual post (`POST /api/accounting`), per client: what the
 * post made (its entry or its credit request) and a digest of the entry it posted, so a
 * repeat answers the same and a different entry under the key is refused.
 */
export class EntryIdempotencyKeys1765950000000 implements MigrationInterface {
  name = 'EntryIdempotencyKeys1765950000000';

  async up(queryRunner: QueryRunner): Promise<void> {
    await queryRunner.query(`
      CREATE TABLE accounting.entry_keys (
        client_id          integer NOT NULL,
        key                text NOT NULL,
        fingerprint        text NOT NULL,
        entry_id           bigint,
        credit_request_id  bigint,
        created_at         timestamptz NOT NULL DEFAULT now(),
        PRIMARY KEY (client_id, key),
        CHECK ((entry_id IS NULL) <> (credit_request_id IS NULL))
      )`);
  }

  async down(queryRunner: QueryRunner): Promise<void> {
    await queryRunner.query(`DROP TABLE accounting.entry_keys`);
  }
}
