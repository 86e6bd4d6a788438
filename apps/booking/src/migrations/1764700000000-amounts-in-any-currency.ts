import { MigrationInterface, QueryRunner } from 'typeorm';

/**
 * Amounts in any currency: three decimals (KWD, BHD, ...) where there were two, and
 * room for the prices of long stays in currencies of small units (rupiah, won).
 * Existing amounts keep their value.
 */
export class AmountsInAnyCurrency1764700000000 implements MigrationInterface {
  name = 'AmountsInAnyCurrency1764700000000';

  async up(queryRunner: QueryRunner): Promise<void> {
    await queryRunner.query(`ALTER TABLE booking.bookings ALTER COLUMN price_chargeable TYPE numeric(15,3), ALTER COLUMN promo_discount TYPE numeric(15,3), ALTER COLUMN cancellation_penalty TYPE numeric(15,3)`);
    await queryRunner.query(`ALTER TABLE booking.sandbox_card_charges ALTER COLUMN amount TYPE numeric(15,3)`);
    await queryRunner.query(`ALTER TABLE booking.sandbox_card_refunds ALTER COLUMN amount TYPE numeric(15,3)`);
  }

  async down(queryRunner: QueryRunner): Promise<void> {
    await queryRunner.query(`ALTER TABLE booking.sandbox_card_refunds ALTER COLUMN amount TYPE numeric(14,2)`);
    await queryRunner.query(`ALTER TABLE booking.sandbox_card_charges ALTER COLUMN amount TYPE numeric(14,2)`);
    await queryRunner.query(`ALTER TABLE booking.bookings ALTER COLUMN price_chargeable TYPE numeric(14,2), ALTER COLUMN promo_discount TYPE numeric(14,2), ALTER COLUMN cancellation_penalty TYPE numeric(14,2)`);
  }
}
