import { MigrationInterface, QueryRunner } from 'typeorm';

/**
 * The FX refresh takes its lease in rates.job_leases, as the service's other timed jobs
 * do: its own one-row table goes, its holder and time moved over (a replica running the
 * old code meanwhile would find no table and skip a tick, nothing worse).
 */
export class FxRefreshOnJobLeases1765600000000 implements MigrationInterface {
  name = 'FxRefreshOnJobLeases1765600000000';

  async up(queryRunner: QueryRunner): Promise<void> {
    await queryRunner.query(`
      INSERT INTO rates.job_leases (job, taken_until, holder)
      SELECT 'fx-rates-refresh', coalesce(taken_until, now()), coalesce(holder, 'migration') FROM rates.fx_refresh_lease
      ON CONFLICT (job) DO NOTHING`);
    await queryRunner.query(`DROP TABLE rates.fx_refresh_lease`);
  }

  async down(queryRunner: QueryRunner): Promise<void> {
    await queryRunner.query(`
      CREATE TABLE rates.fx_refresh_lease (
        id           smallint PRIMARY KEY CHECK (id = 1),
        taken_until  timestamptz,
        holder       text
      )`);
    await queryRunner.query(`INSERT INTO rates.fx_refresh_lease (id, taken_until, holder) SELECT 1, taken_until, holder FROM rates.job_leases WHERE job = 'fx-rates-refresh'`);
    await queryRunner.query(`INSERT INTO rates.fx_refresh_lease (id) VALUES (1) ON CONFLICT (id) DO NOTHING`);
  }
}
