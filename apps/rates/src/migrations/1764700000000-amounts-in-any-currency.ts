import { MigrationInterface, QueryRunner } from 'typeorm';

/**
 * Amounts in any currency: three decimals (KWD, BHD, ...) where there were two, and
 * room for the prices of long stays in currencies of small units (rupiah, won).
 * Existing amounts keep their value.
 *
 * A prebook also keeps how its price came to be in the client's currency (BookingFx):
 * the vendor's price and currency and the exchange rate it fixed. NULL on prebooks made
 * before (USD from USD vendors, at a rate of 1: their bookings read them so).
 */
export class AmountsInAnyCurrency1764700000000 implements MigrationInterface {
  name = 'AmountsInAnyCurrency1764700000000';

  async up(queryRunner: QueryRunner): Promise<void> {
    await queryRunner.query(`ALTER TABLE rates.prebooks ALTER COLUMN price_chargeable TYPE numeric(15,3), ALTER COLUMN discount TYPE numeric(15,3)`);
    await queryRunner.query(`
      ALTER TABLE rates.prebooks
        ADD COLUMN vendor_currency char(3),
        ADD COLUMN vendor_price numeric(15,3),
        ADD COLUMN fx_rate numeric CHECK (fx_rate > 0),
        ADD COLUMN fx_rate_date date,
        ADD COLUMN fx_margin_percent numeric(5,2) CHECK (fx_margin_percent >= 0)`);
  }

  async down(queryRunner: QueryRunner): Promise<void> {
    await queryRunner.query(
      `ALTER TABLE rates.prebooks DROP COLUMN fx_margin_percent, DROP COLUMN fx_rate_date, DROP COLUMN fx_rate, DROP COLUMN vendor_price, DROP COLUMN vendor_currency`,
    );
    await queryRunner.query(`ALTER TABLE rates.prebooks ALTER COLUMN price_chargeable TYPE numeric(14,2), ALTER COLUMN discount TYPE numeric(14,2)`);
  }
}
