import { MigrationInterface, QueryRunner } from 'typeorm';

/**
 * Amounts in any currency: three decimals (KWD, BHD, ...) where there were two, and
 * room for the prices of long stays in currencies of small units (rupiah, won).
 * Existing amounts keep their value.
 */
export class AmountsInAnyCurrency1764700000000 implements MigrationInterface {
  name = 'AmountsInAnyCurrency1764700000000';

  async up(queryRunner: QueryRunner): Promise<void> {
    await queryRunner.query(`ALTER TABLE rates.prebooks ALTER COLUMN price_chargeable TYPE numeric(15,3), ALTER COLUMN discount TYPE numeric(15,3)`);
  }

  async down(queryRunner: QueryRunner): Promise<void> {
    await queryRunner.query(`ALTER TABLE rates.prebooks ALTER COLUMN price_chargeable TYPE numeric(14,2), ALTER COLUMN discount TYPE numeric(14,2)`);
  }
}
