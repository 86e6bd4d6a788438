import { MigrationInterface, QueryRunner } from 'typeorm';

/** Bookings made with the simulated vendors: one per platform booking, so a retried step books nothing twice. */
export class CreateSupplierBookings1763960000000 implements MigrationInterface {
  name = 'CreateSupplierBookings1763960000000';

  async up(queryRunner: QueryRunner): Promise<void> {
    await queryRunner.query(`
      CREATE TABLE rates.supplier_bookings (
        booking_id  integer PRIMARY KEY,
        vendor      text NOT NULL,
        hotel_id    integer NOT NULL,
        room_id     integer NOT NULL,
        check_in    date NOT NULL,
        check_out   date NOT NULL,
        rooms       integer NOT NULL CHECK (rooms > 0),
        reference   text NOT NULL UNIQUE,
        status      text NOT NULL CHECK (status IN ('pending', 'confirmed', 'cancelled')),
        -- A pending booking (the vendor accepted without confirming) confirms at this time.
        confirm_after timestamptz,
        created_at  timestamptz NOT NULL DEFAULT now(),
        updated_at  timestamptz NOT NULL DEFAULT now()
      )`);
  }

  async down(queryRunner: QueryRunner): Promise<void> {
    await queryRunner.query(`DROP TABLE rates.supplier_bookings`);
  }
}
