import { MigrationInterface, QueryRunner } from 'typeorm';

/** The finance team's operator credentials: belong to no client, stored as their SHA-256 only. */
export class FinanceTokens1764600000000 implements MigrationInterface {
  name = 'FinanceTokens1764600000000';

  async up(queryRunner: QueryRunner): Promise<void> {
    await queryRunner.query(`
      CREATE TABLE users.finance_tokens (
        id           serial PRIMARY KEY,
        name         text NOT NULL CHECK (length(name) > 0),
        secret_hash  char(64) NOT NULL UNIQUE,
        created_at   timestamptz NOT NULL DEFAULT now(),
        revoked_at   timestamptz
      )`);
  }

  async down(queryRunner: QueryRunner): Promise<void> {
    await queryRunner.query(`DROP TABLE users.finance_tokens`);
  }
}
