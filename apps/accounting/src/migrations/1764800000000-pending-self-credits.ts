import { MigrationInterface, QueryRunner } from 'typeorm';

/**
 * Credits a client cannot grant itself: clients created from now on start with the
 * `pending` self-credit policy (a credit their own backend token posts waits for the
 * finance team). Existing clients keep the policy they have: existing account rows
 * keep their value (a new column default changes no row), and so does a client
 * created before this migration ran whose account is opened only later (accounts
 * open lazily, on first use): the moment is recorded here, in
 * accounting.self_credit_defaults, and LedgerService opens an account with
 * `immediate` for a client created before it, `pending` for one created since.
 * Both clocks are PostgreSQL's now() (the users service's created_at and this row).
 */
export class PendingSelfCredits1764800000000 implements MigrationInterface {
  name = 'PendingSelfCredits1764800000000';

  async up(queryRunner: QueryRunner): Promise<void> {
    await queryRunner.query(`
      CREATE TABLE accounting.self_credit_defaults (
        self_credits  text PRIMARY KEY CHECK (self_credits IN ('immediate', 'pending')),
        since         timestamptz NOT NULL
      )`);
    await queryRunner.query(`INSERT INTO accounting.self_credit_defaults (self_credits, since) VALUES ('pending', now())`);
    // An account inserted without a policy gets the strict one.
    await queryRunner.query(`ALTER TABLE accounting.accounts ALTER COLUMN self_credits SET DEFAULT 'pending'`);
  }

  async down(queryRunner: QueryRunner): Promise<void> {
    await queryRunner.query(`ALTER TABLE accounting.accounts ALTER COLUMN self_credits SET DEFAULT 'immediate'`);
    await queryRunner.query(`DROP TABLE accounting.self_credit_defaults`);
  }
}
