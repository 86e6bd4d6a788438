import { MigrationInterface, QueryRunner } from 'typeorm';

/** Indexes for GET /book's filters and sorts within one client's bookings. */
export class IndexBookingList1763980000000 implements MigrationInterface {
  name = 'IndexBookingList1763980000000';

  async up(queryRunner: QueryRunner): Promise<void> {
    await queryRunner.query(`CREATE INDEX bookings_by_client_check_in ON booking.bookings (client_id, check_in, id)`);
    await queryRunner.query(`CREATE INDEX bookings_by_client_check_out ON booking.bookings (client_id, check_out, id)`);
    await queryRunner.query(`CREATE INDEX bookings_by_client_status ON booking.bookings (client_id, status, created_at DESC)`);
    await queryRunner.query(`CREATE INDEX bookings_by_client_user ON booking.bookings (client_id, user_id, created_at DESC)`);
    await queryRunner.query(`CREATE INDEX bookings_by_client_last_name ON booking.bookings (client_id, lower(last_name))`);
    await queryRunner.query(`CREATE INDEX bookings_references ON booking.bookings USING gin (booking_reference)`);
  }

  async down(queryRunner: QueryRunner): Promise<void> {
    for (const index of ['bookings_by_client_check_in', 'bookings_by_client_check_out', 'bookings_by_client_status', 'bookings_by_client_user', 'bookings_by_client_last_name', 'bookings_references']) {
      await queryRunner.query(`DROP INDEX booking.${index}`);
    }
  }
}
