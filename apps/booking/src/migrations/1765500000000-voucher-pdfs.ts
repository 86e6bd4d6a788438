import { MigrationInterface, QueryRunner } from 'typeorm';

/**
 * Each confirmed booking's voucher PDF, rendered once for the version of the booking it
 * shows (`version`: a digest of what the PDF prints) and served again from here by every
 * replica: a voucher link fetched many times costs one rendering.
 */
export class VoucherPdfs1765500000000 implements MigrationInterface {
  name = 'VoucherPdfs1765500000000';

  async up(queryRunner: QueryRunner): Promise<void> {
    await queryRunner.query(`
      CREATE TABLE booking.voucher_pdfs (
        booking_id   integer PRIMARY KEY REFERENCES booking.bookings(id) ON DELETE CASCADE,
        version      text NOT NULL,
        pdf          bytea NOT NULL,
        rendered_at  timestamptz NOT NULL DEFAULT now()
      )`);
  }

  async down(queryRunner: QueryRunner): Promise<void> {
    await queryRunner.query(`DROP TABLE booking.voucher_pdfs`);
  }
}
