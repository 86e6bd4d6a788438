import { MigrationInterface, QueryRunner } from 'typeorm';

/** The Idempotency-Key of each `POST /api/user`, per client: the user it made and a digest of the user it posted. */
export class UserIdempotencyKeys1765960000000 implements MigrationInterface {
  name = 'UserIdempotencyKeys1765960000000';

  async up(queryRunner: QueryRunner): Promise<void> {
    await queryRunner.query(`CREATE TABLE users.user_keys (client_id integer NOT NULL, key text NOT NULL, fingerprint text NOT NULL, user_id integer NOT NULL, created_at timestamptz NOT NULL DEFAULT now(), PRIMARY KEY (client_id, key))`);
  }

  async down(queryRunner: QueryRunner): Promise<void> {
    await queryRunner.query(`DROP TABLE users.user_keys`);
  }
}
