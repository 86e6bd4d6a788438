import { MigrationInterface, QueryRunner } from 'typeorm';

/**
 * How many times a booking the vendor accepted without confirming has been asked
 * about: the saga asks again at a cadence of its own (every SUPPLIER_CHECK_S at first,
 * then backing off), not only when a lease runs out.
 */
export class SupplierChecks1764900000000 implements MigrationInterface {
  name = 'SupplierChecks1764900000000';

  async up(queryRunner: QueryRunner): Promise<void> {
    await queryRunner.query(`ALTER TABLE booking.bookings ADD COLUMN supplier_checks integer NOT NULL DEFAULT 0`);
  }

  async down(queryRunner: QueryRunner): Promise<void> {
    await queryRunner.query(`ALTER TABLE booking.bookings DROP COLUMN supplier_checks`);
  }
}
