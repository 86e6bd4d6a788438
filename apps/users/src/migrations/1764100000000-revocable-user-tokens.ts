import { MigrationInterface, QueryRunner } from 'typeorm';

/** User tokens can be revoked (with the client's keys, or on their own) before they expire. */
export class RevocableUserTokens1764100000000 implements MigrationInterface {
  name = 'RevocableUserTokens1764100000000';

  async up(queryRunner: QueryRunner): Promise<void> {
    await queryRunner.query(`ALTER TABLE users.user_tokens ADD COLUMN revoked_at timestamptz`);
    await queryRunner.query(`CREATE INDEX user_tokens_active_by_user ON users.user_tokens (user_id) WHERE revoked_at IS NULL`);
  }

  async down(queryRunner: QueryRunner): Promise<void> {
    await queryRunner.query(`DROP INDEX users.user_tokens_active_by_user`);
    await queryRunner.query(`ALTER TABLE users.user_tokens DROP COLUMN revoked_at`);
  }
}
