import { MigrationInterface, QueryRunner } from 'typeorm';

/**
 * What a vendor said cancelling a booking cost (in its currency), kept with the supplier
 * booking: the booking's refund follows it, and a repeated cancellation answers it again.
 * Bookings cancelled before have none (their refund followed the rate's policy).
 */
export class VendorCancellationCharge1765200000000 implements MigrationInterface {
  name = 'VendorCancellationCharge1765200000000';

  async up(queryRunner: QueryRunner): Promise<void> {
    await queryRunner.query(`ALTER TABLE rates.supplier_bookings ADD COLUMN cancellation_charge numeric(15, 3), ADD COLUMN cancellation_currency char(3)`);
    await queryRunner.query(
      `ALTER TABLE rates.supplier_bookings ADD CONSTRAINT supplier_bookings_cancellation_charge CHECK ((cancellation_charge IS NULL) = (cancellation_currency IS NULL) AND (cancellation_charge IS NULL OR (status = 'cancelled' AND cancellation_charge >= 0)))`,
    );
  }

  async down(queryRunner: QueryRunner): Promise<void> {
    await queryRunner.query(`ALTER TABLE rates.supplier_bookings DROP CONSTRAINT supplier_bookings_cancellation_charge`);
    await queryRunner.query(`ALTER TABLE rates.supplier_bookings DROP COLUMN cancellation_charge, DROP COLUMN cancellation_currency`);
  }
}
