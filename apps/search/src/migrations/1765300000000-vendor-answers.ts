import { MigrationInterface, QueryRunner } from 'typeorm';

/**
 * A remote vendor's answer to a V1 search session, kept so every poll (on any replica)
 * shows the same answer without asking the vendor again: each hotel's lowest offer.
 * `asking` while a replica has the call in hand (until `asking_until`; after that another
 * replica asks again), then `answered` or `failed`.
 */
export class VendorAnswers1765300000000 implements MigrationInterface {
  name = 'VendorAnswers1765300000000';

  async up(queryRunner: QueryRunner): Promise<void> {
    await queryRunner.query(`
      CREATE TABLE search.vendor_answers (
        session_id    uuid NOT NULL REFERENCES search.sessions(id) ON DELETE CASCADE,
        vendor        text NOT NULL,
        state         text NOT NULL CHECK (state IN ('asking', 'answered', 'failed')),
        asking_until  timestamptz,
        lowest        jsonb,
        answered_at   timestamptz,
        PRIMARY KEY (session_id, vendor),
        CHECK ((state = 'asking') = (asking_until IS NOT NULL)),
        CHECK ((state = 'answered') = (lowest IS NOT NULL))
      )`);
  }

  async down(queryRunner: QueryRunner): Promise<void> {
    await queryRunner.query(`DROP TABLE search.vendor_answers`);
  }
}
