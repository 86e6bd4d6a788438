import { MigrationInterface, QueryRunner } from 'typeorm';

/**
 * A supplier booking is recorded before its vendor is called (`requested`, no
 * reference yet, `attempt_until` while one attempt has the call in hand) and the
 * vendor's answer after, each in a short transaction of its own: no transaction is
 * open while the vendor is asked. A `requested` record whose attempt has run out is a
 * lost answer: the vendor is asked whether it made the booking before it is asked to
 * make it again.
 */
export class ReserveCallRecord1764900000000 implements MigrationInterface {
  name = 'ReserveCallRecord1764900000000';

  async up(queryRunner: QueryRunner): Promise<void> {
    await queryRunner.query(`ALTER TABLE rates.supplier_bookings DROP CONSTRAINT supplier_bookings_status_check`);
    await queryRunner.query(`ALTER TABLE rates.supplier_bookings ADD CONSTRAINT supplier_bookings_status_check CHECK (status IN ('requested', 'pending', 'confirmed', 'cancelled'))`);
    await queryRunner.query(`ALTER TABLE rates.supplier_bookings ALTER COLUMN reference DROP NOT NULL, ADD COLUMN attempt_until timestamptz`);
    await queryRunner.query(`ALTER TABLE rates.supplier_bookings ADD CONSTRAINT supplier_bookings_answered CHECK ((status = 'requested') = (reference IS NULL))`);
  }

  async down(queryRunner: QueryRunner): Promise<void> {
    await queryRunner.query(`DELETE FROM rates.supplier_bookings WHERE status = 'requested'`);
    await queryRunner.query(`ALTER TABLE rates.supplier_bookings DROP CONSTRAINT supplier_bookings_answered`);
    await queryRunner.query(`ALTER TABLE rates.supplier_bookings DROP COLUMN attempt_until, ALTER COLUMN reference SET NOT NULL`);
    await queryRunner.query(`ALTER TABLE rates.supplier_bookings DROP CONSTRAINT supplier_bookings_status_check`);
    await queryRunner.query(`ALTER TABLE rates.supplier_bookings ADD CONSTRAINT supplier_bookings_status_check CHECK (status IN ('pending', 'confirmed', 'cancelled'))`);
  }
}
