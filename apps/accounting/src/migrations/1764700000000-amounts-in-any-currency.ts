import { MigrationInterface, QueryRunner } from 'typeorm';

/**
 * Amounts in any currency: three decimals (KWD, BHD, ...) where there were two, and
 * room for the prices of long stays in currencies of small units (rupiah, won).
 * An account's running totals become numerics without a limit: however many entries
 * a client has, its totals, balance and reports cannot overflow.
 * Existing amounts keep their value.
 */
export class AmountsInAnyCurrency1764700000000 implements MigrationInterface {
  name = 'AmountsInAnyCurrency1764700000000';

  async up(queryRunner: QueryRunner): Promise<void> {
    await queryRunner.query(`ALTER TABLE accounting.accounts ALTER COLUMN credit_limit TYPE numeric(15,3), ALTER COLUMN total_debit TYPE numeric, ALTER COLUMN total_credit TYPE numeric, ALTER COLUMN total_held TYPE numeric`);
    await queryRunner.query(`ALTER TABLE accounting.entries ALTER COLUMN debit TYPE numeric(15,3), ALTER COLUMN credit TYPE numeric(15,3)`);
    await queryRunner.query(`ALTER TABLE accounting.holds ALTER COLUMN amount TYPE numeric(15,3)`);
    await queryRunner.query(`ALTER TABLE accounting.credit_requests ALTER COLUMN debit TYPE numeric(15,3), ALTER COLUMN credit TYPE numeric(15,3)`);
  }

  async down(queryRunner: QueryRunner): Promise<void> {
    await queryRunner.query(`ALTER TABLE accounting.credit_requests ALTER COLUMN debit TYPE numeric(14,2), ALTER COLUMN credit TYPE numeric(14,2)`);
    await queryRunner.query(`ALTER TABLE accounting.holds ALTER COLUMN amount TYPE numeric(14,2)`);
    await queryRunner.query(`ALTER TABLE accounting.entries ALTER COLUMN debit TYPE numeric(14,2), ALTER COLUMN credit TYPE numeric(14,2)`);
    await queryRunner.query(`ALTER TABLE accounting.accounts ALTER COLUMN credit_limit TYPE numeric(14,2), ALTER COLUMN total_debit TYPE numeric(16,2), ALTER COLUMN total_credit TYPE numeric(16,2), ALTER COLUMN total_held TYPE numeric(16,2)`);
  }
}
