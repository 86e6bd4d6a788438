import { MigrationInterface, QueryRunner } from 'typeorm';

export class CreateLedger1763930000000 implements MigrationInterface {
  name = 'CreateLedger1763930000000';

  async up(queryRunner: QueryRunner): Promise<void> {
    // One row per client: its credit terms and running totals, so the balance and a
    // funds check cost one row, not a sum over a million entries. Holds are reserved
    // with a conditional update of this row, which serializes them per client.
    await queryRunner.query(`
      CREATE TABLE accounting.accounts (
        client_id     integer PRIMARY KEY,
        currency      char(3) NOT NULL,
        credit_limit  numeric(14,2) NOT NULL CHECK (credit_limit >= 0),
        total_debit   numeric(16,2) NOT NULL DEFAULT 0 CHECK (total_debit >= 0),
        total_credit  numeric(16,2) NOT NULL DEFAULT 0 CHECK (total_credit >= 0),
        total_held    numeric(16,2) NOT NULL DEFAULT 0 CHECK (total_held >= 0),
        entry_count   integer NOT NULL DEFAULT 0,
        created_at    timestamptz NOT NULL DEFAULT now(),
        updated_at    timestamptz NOT NULL DEFAULT now()
      )`);
    await queryRunner.query(`
      CREATE TABLE accounting.entries (
        id               serial PRIMARY KEY,
        client_id        integer NOT NULL REFERENCES accounting.accounts(client_id),
        kind             text NOT NULL DEFAULT 'manual'
                           CHECK (kind IN ('manual', 'booking_debit', 'booking_refund', 'card_charge', 'card_payment')),
        debit            numeric(14,2) NOT NULL CHECK (debit >= 0),
        credit           numeric(14,2) NOT NULL CHECK (credit >= 0),
        name             text NOT NULL CHECK (length(name) > 0),
        booking_id       integer,
        cc_payment_id    text,
        user_id          integer,
        bank_payment_id  integer,
        created_at       timestamptz NOT NULL DEFAULT now(),
        updated_at       timestamptz NOT NULL DEFAULT now(),
        deleted_at       timestamptz
      )`);
    await queryRunner.query(`CREATE INDEX entries_by_client ON accounting.entries (client_id, id DESC)`);
    await queryRunner.query(`CREATE INDEX entries_by_booking ON accounting.entries (client_id, booking_id) WHERE booking_id IS NOT NULL`);
    // A booking's automatic entries exist once each, however often a step is retried.
    await queryRunner.query(
      `CREATE UNIQUE INDEX entries_once_per_booking ON accounting.entries (client_id, booking_id, kind) WHERE kind <> 'manual'`,
    );
    // The ledger is append-only: corrections are new entries.
    await queryRunner.query(`
      CREATE FUNCTION accounting.refuse_ledger_change() RETURNS trigger LANGUAGE plpgsql AS $$
      BEGIN
        RAISE EXCEPTION 'accounting entries are append-only';
      END $$`);
    await queryRunner.query(`
      CREATE TRIGGER entries_append_only BEFORE UPDATE OR DELETE ON accounting.entries
      FOR EACH ROW EXECUTE FUNCTION accounting.refuse_ledger_change()`);
    await queryRunner.query(`
      CREATE TABLE accounting.holds (
        client_id   integer NOT NULL REFERENCES accounting.accounts(client_id),
        booking_id  integer NOT NULL,
        user_id     integer,
        amount      numeric(14,2) NOT NULL CHECK (amount > 0),
        status      text NOT NULL CHECK (status IN ('active', 'captured', 'released')),
        entry_id    integer REFERENCES accounting.entries(id),
        created_at  timestamptz NOT NULL DEFAULT now(),
        updated_at  timestamptz NOT NULL DEFAULT now(),
        PRIMARY KEY (client_id, booking_id)
      )`);
    await queryRunner.query(`CREATE INDEX holds_active_by_user ON accounting.holds (client_id, user_id) WHERE status = 'active'`);
  }

  async down(queryRunner: QueryRunner): Promise<void> {
    await queryRunner.query(`DROP TABLE accounting.holds`);
    await queryRunner.query(`DROP TABLE accounting.entries`);
    await queryRunner.query(`DROP FUNCTION accounting.refuse_ledger_change()`);
    await queryRunner.query(`DROP TABLE accounting.accounts`);
  }
}
