import { MigrationInterface, QueryRunner } from 'typeorm';

/**
 * A V1 search session is priced for its client: in the client's currency, with its FX
 * margin as it was when the session began, at the exchange rates in force then (their
 * reference date: every poll and prebook of the session converts at them, whichever
 * replica serves it). Sessions made before were all USD without a margin (and live 30
 * minutes at most).
 */
export class PricedSessions1764700000000 implements MigrationInterface {
  name = 'PricedSessions1764700000000';

  async up(queryRunner: QueryRunner): Promise<void> {
    await queryRunner.query(
      `ALTER TABLE search.sessions ADD COLUMN currency char(3) NOT NULL DEFAULT 'USD', ADD COLUMN fx_margin_percent numeric(5,2) NOT NULL DEFAULT 0, ADD COLUMN fx_date date`,
    );
  }

  async down(queryRunner: QueryRunner): Promise<void> {
    await queryRunner.query(`ALTER TABLE search.sessions DROP COLUMN fx_date, DROP COLUMN fx_margin_percent, DROP COLUMN currency`);
  }
}
