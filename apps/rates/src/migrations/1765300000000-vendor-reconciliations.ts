import { MigrationInterface, QueryRunner } from 'typeorm';

/**
 * The result of each reconciliation run with a remote vendor: its period, when and why it
 * ran, the counts, and the differences found (at most the first 1000; the counts count
 * all), so the finance team reads the last ones. And the leases the replicas take turns
 * with for the service's timed jobs (one row per job, made when first taken).
 */
export class VendorReconciliations1765300000000 implements MigrationInterface {
  name = 'VendorReconciliations1765300000000';

  async up(queryRunner: QueryRunner): Promise<void> {
    await queryRunner.query(`
      CREATE TABLE rates.vendor_reconciliations (
        id                   serial PRIMARY KEY,
        vendor               text NOT NULL,
        period_start         date NOT NULL,
        period_end           date NOT NULL CHECK (period_end >= period_start),
        ran_at               timestamptz NOT NULL DEFAULT now(),
        trigger              text NOT NULL CHECK (trigger IN ('daily', 'command')),
        platform_bookings    integer NOT NULL CHECK (platform_bookings >= 0),
        vendor_bookings      integer NOT NULL CHECK (vendor_bookings >= 0),
        missing_at_vendor    integer NOT NULL CHECK (missing_at_vendor >= 0),
        unknown_to_platform  integer NOT NULL CHECK (unknown_to_platform >= 0),
        status_mismatch      integer NOT NULL CHECK (status_mismatch >= 0),
        differences          jsonb NOT NULL CHECK (jsonb_typeof(differences) = 'array')
      )`);
    // The daily job asks for a vendor's report of one day; the finance reports for the periods overlapping theirs.
    await queryRunner.query(`CREATE INDEX vendor_reconciliations_period ON rates.vendor_reconciliations (vendor, period_start, period_end)`);
    await queryRunner.query(`
      CREATE TABLE rates.job_leases (
        job          text PRIMARY KEY,
        taken_until  timestamptz NOT NULL,
        holder       text NOT NULL
      )`);
  }

  async down(queryRunner: QueryRunner): Promise<void> {
    await queryRunner.query(`DROP TABLE rates.job_leases`);
    await queryRunner.query(`DROP TABLE rates.vendor_reconciliations`);
  }
}
