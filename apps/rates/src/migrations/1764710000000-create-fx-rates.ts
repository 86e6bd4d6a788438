import { MigrationInterface, QueryRunner } from 'typeorm';

/**
 * The ECB's euro reference rates the platform converts prices at: one set per
 * reference date (the date is the key: a day's rates are taken once and never
 * changed), its rates as exact numerics, where it came from and when it was taken
 * in. And the lease the replicas take turns with to fetch the ECB's daily file.
 */
export class CreateFxRates1764710000000 implements MigrationInterface {
  name = 'CreateFxRates1764710000000';

  async up(queryRunner: QueryRunner): Promise<void> {
    await queryRunner.query(`
      CREATE TABLE rates.fx_rate_sets (
        reference_date  date PRIMARY KEY,
        source          text NOT NULL CHECK (length(source) BETWEEN 1 AND 200),
        imported_at     timestamptz NOT NULL DEFAULT now()
      )`);
    await queryRunner.query(`
      CREATE TABLE rates.fx_rates (
        reference_date  date NOT NULL REFERENCES rates.fx_rate_sets (reference_date) ON DELETE CASCADE,
        currency        char(3) NOT NULL CHECK (currency ~ '^[A-Z]{3}$' AND currency <> 'EUR'),
        -- Units per euro. numeric without a scale: exact, and it keeps the ECB's writing ("349.60").
        rate            numeric NOT NULL CHECK (rate > 0 AND rate < 10000000000),
        PRIMARY KEY (reference_date, currency)
      )`);
    await queryRunner.query(`
      CREATE TABLE rates.fx_refresh_lease (
        id           smallint PRIMARY KEY CHECK (id = 1),
        taken_until  timestamptz,
        holder       text
      )`);
    await queryRunner.query(`INSERT INTO rates.fx_refresh_lease (id) VALUES (1)`);
  }

  async down(queryRunner: QueryRunner): Promise<void> {
    await queryRunner.query(`DROP TABLE rates.fx_refresh_lease`);
    await queryRunner.query(`DROP TABLE rates.fx_rates`);
    await queryRunner.query(`DROP TABLE rates.fx_rate_sets`);
  }
}
