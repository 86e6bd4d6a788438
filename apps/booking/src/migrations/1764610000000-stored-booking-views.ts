import { MigrationInterface, QueryRunner } from 'typeorm';

/**
 * Each booking keeps its two list representations serialized (see
 * bookings/stored-views.ts): the booking API's Booking (`api_view`, with slots for the
 * voucher link and `updated_at`) and the backend API's BackendBooking (`backend_view`).
 * Written with every change of what they show; text, not jsonb (which would reorder the
 * keys and parse on every read). `views_at` is the `updated_at` they are current for.
 * Existing bookings are not rendered here (that would hold every replica's start for as
 * long as the table is big): the list renders a booking without current ones on its
 * read and stores them then.
 */
export class StoredBookingViews1764610000000 implements MigrationInterface {
  name = 'StoredBookingViews1764610000000';

  async up(queryRunner: QueryRunner): Promise<void> {
    await queryRunner.query(`ALTER TABLE booking.bookings ADD COLUMN api_view text, ADD COLUMN backend_view text, ADD COLUMN views_at timestamptz`);
  }

  async down(queryRunner: QueryRunner): Promise<void> {
    await queryRunner.query(`ALTER TABLE booking.bookings DROP COLUMN views_at, DROP COLUMN backend_view, DROP COLUMN api_view`);
  }
}
