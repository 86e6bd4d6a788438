import { MigrationInterface, QueryRunner } from 'typeorm';

/** Sandbox bookings are simulated with the vendor: they take no real room from the allotment. */
export class SandboxSupplierBookings1764200000000 implements MigrationInterface {
  name = 'SandboxSupplierBookings1764200000000';

  async up(queryRunner: QueryRunner): Promise<void> {
    await queryRunner.query(`ALTER TABLE rates.supplier_bookings ADD COLUMN sandbox boolean NOT NULL DEFAULT false`);
  }

  async down(queryRunner: QueryRunner): Promise<void> {
    await queryRunner.query(`ALTER TABLE rates.supplier_bookings DROP COLUMN sandbox`);
  }
}
