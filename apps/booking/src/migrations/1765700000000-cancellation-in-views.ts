import { MigrationInterface, QueryRunner } from 'typeorm';

/**
 * Bookings and backend bookings show their cancellation (reference, time, penalty): every
 * stored representation is out of date, so each is rendered again on its next read
 * (views_at NULL; see stored-views.ts). Nothing else changes.
 */
export class CancellationInViews1765700000000 implements MigrationInterface {
  name = 'CancellationInViews1765700000000';

  async up(queryRunner: QueryRunner): Promise<void> {
    await queryRunner.query(`UPDATE booking.bookings SET views_at = NULL WHERE views_at IS NOT NULL`);
  }

  async down(): Promise<void> {
    // Views rendered with the fields are still valid JSON for the release before: nothing to undo.
  }
}
