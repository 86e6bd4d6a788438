import { MigrationInterface, QueryRunner } from 'typeorm';

/** Per-client rate limits set by operators; NULL means the gateway's default. */
export class AddClientRateLimits1763910000000 implements MigrationInterface {
  name = 'AddClientRateLimits1763910000000';

  async up(queryRunner: QueryRunner): Promise<void> {
    await queryRunner.query(`ALTER TABLE users.clients
      ADD COLUMN rate_limit_rps integer CHECK (rate_limit_rps > 0),
      ADD COLUMN rate_limit_burst integer CHECK (rate_limit_burst > 0)`);
  }

  async down(queryRunner: QueryRunner): Promise<void> {
    await queryRunner.query(`ALTER TABLE users.clients DROP COLUMN rate_limit_rps, DROP COLUMN rate_limit_burst`);
  }
}
