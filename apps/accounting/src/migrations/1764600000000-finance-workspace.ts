import { MigrationInterface, QueryRunner } from 'typeorm';

/**
 * The finance workspace: a client's credit policy (whether its own credits wait for
 * the finance team), the credit requests that wait, and an index for periods
 * (statements, daily balances, reconciliation) that sums a period's money without
 * visiting the table (index-only).
 */
export class FinanceWorkspace1764600000000 implements MigrationInterface {
  name = 'FinanceWorkspace1764600000000';

  async up(queryRunner: QueryRunner): Promise<void> {
    await queryRunner.query(
      `ALTER TABLE accounting.accounts ADD COLUMN self_credits text NOT NULL DEFAULT 'immediate' CHECK (self_credits IN ('immediate', 'pending'))`,
    );
    await queryRunner.query(`
      CREATE TABLE accounting.credit_requests (
        id               serial PRIMARY KEY,
        client_id        integer NOT NULL REFERENCES accounting.accounts(client_id),
        debit            numeric(14,2) NOT NULL CHECK (debit >= 0),
        credit           numeric(14,2) NOT NULL CHECK (credit > 0),
        name             text NOT NULL CHECK (length(name) > 0),
        booking_id       integer,
        cc_payment_id    text,
        user_id          integer,
        bank_payment_id  integer,
        status           text NOT NULL DEFAULT 'pending' CHECK (status IN ('pending', 'confirmed', 'rejected')),
        entry_id         integer UNIQUE REFERENCES accounting.entries(id),
        created_at       timestamptz NOT NULL DEFAULT now(),
        decided_at       timestamptz,
        CHECK ((status = 'confirmed') = (entry_id IS NOT NULL))
      )`);
    await queryRunner.query(`CREATE INDEX credit_requests_by_client ON accounting.credit_requests (client_id, status, id DESC)`);
    await queryRunner.query(`CREATE INDEX credit_requests_by_status ON accounting.credit_requests (status, id DESC)`);
    await queryRunner.query(`CREATE INDEX entries_by_client_time ON accounting.entries (client_id, created_at) INCLUDE (id, debit, credit)`);
  }

  async down(queryRunner: QueryRunner): Promise<void> {
    await queryRunner.query(`DROP INDEX accounting.entries_by_client_time`);
    await queryRunner.query(`DROP TABLE accounting.credit_requests`);
    await queryRunner.query(`ALTER TABLE accounting.accounts DROP COLUMN self_credits`);
  }
}
