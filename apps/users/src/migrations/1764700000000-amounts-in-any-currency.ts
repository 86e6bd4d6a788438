import { MigrationInterface, QueryRunner } from 'typeorm';

/**
 * Amounts in any currency: three decimals (KWD, BHD, ...) where there were two, and
 * room for the prices of long stays in currencies of small units (rupiah, won).
 * Existing amounts keep their value.
 *
 * A client's FX margin: the percentage added to every conversion of a vendor's price
 * into the client's currency (0 for every client until an operator sets one).
 */
export class AmountsInAnyCurrency1764700000000 implements MigrationInterface {
  name = 'AmountsInAnyCurrency1764700000000';

  async up(queryRunner: QueryRunner): Promise<void> {
    await queryRunner.query(`ALTER TABLE users.clients ALTER COLUMN credit_limit TYPE numeric(15,3)`);
    await queryRunner.query(`ALTER TABLE users.users ALTER COLUMN client_account_limit TYPE numeric(15,3)`);
    await queryRunner.query(`ALTER TABLE users.clients ADD COLUMN fx_margin_percent numeric(5,2) NOT NULL DEFAULT 0 CHECK (fx_margin_percent >= 0 AND fx_margin_percent <= 20)`);
  }

  async down(queryRunner: QueryRunner): Promise<void> {
    await queryRunner.query(`ALTER TABLE users.clients DROP COLUMN fx_margin_percent`);
    await queryRunner.query(`ALTER TABLE users.users ALTER COLUMN client_account_limit TYPE numeric(14,2)`);
    await queryRunner.query(`ALTER TABLE users.clients ALTER COLUMN credit_limit TYPE numeric(14,2)`);
  }
}
