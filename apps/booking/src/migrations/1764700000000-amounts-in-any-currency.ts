import { MigrationInterface, QueryRunner } from 'typeorm';

/**
 * Amounts in any currency: three decimals (KWD, BHD, ...) where there were two, and
 * room for the prices of long stays in currencies of small units (rupiah, won).
 * Existing amounts keep their value.
 *
 * A booking also keeps how its price came to be in the client's currency (BookingFx):
 * the vendor's price and currency and the exchange rate fixed at prebook, with its
 * date and the client's FX margin. Bookings made before currencies were priced were
 * all in USD from vendors pricing in USD: their vendor price is their price before
 * any promo discount, at a rate of 1.
 */
export class AmountsInAnyCurrency1764700000000 implements MigrationInterface {
  name = 'AmountsInAnyCurrency1764700000000';

  async up(queryRunner: QueryRunner): Promise<void> {
    await queryRunner.query(`ALTER TABLE booking.bookings ALTER COLUMN price_chargeable TYPE numeric(15,3), ALTER COLUMN promo_discount TYPE numeric(15,3), ALTER COLUMN cancellation_penalty TYPE numeric(15,3)`);
    await queryRunner.query(`ALTER TABLE booking.sandbox_card_charges ALTER COLUMN amount TYPE numeric(15,3)`);
    await queryRunner.query(`ALTER TABLE booking.sandbox_card_refunds ALTER COLUMN amount TYPE numeric(15,3)`);
    await queryRunner.query(`
      ALTER TABLE booking.bookings
        ADD COLUMN vendor_currency char(3),
        ADD COLUMN vendor_price numeric(15,3),
        ADD COLUMN fx_rate numeric CHECK (fx_rate > 0),
        ADD COLUMN fx_rate_date date,
        ADD COLUMN fx_margin_percent numeric(5,2) CHECK (fx_margin_percent >= 0)`);
    // Every booking so far was priced in USD by vendors pricing in USD. views_at = NULL: the
    // stored backend views lack the new fields, and are rendered again on their next read.
    await queryRunner.query(`
      UPDATE booking.bookings
         SET vendor_currency = price_currency, vendor_price = price_chargeable + promo_discount, fx_rate = 1, fx_margin_percent = 0, views_at = NULL`);
    await queryRunner.query(`
      ALTER TABLE booking.bookings
        ALTER COLUMN vendor_currency SET NOT NULL,
        ALTER COLUMN vendor_price SET NOT NULL,
        ALTER COLUMN fx_rate SET NOT NULL,
        ALTER COLUMN fx_margin_percent SET NOT NULL`);
  }

  async down(queryRunner: QueryRunner): Promise<void> {
    await queryRunner.query(
      `ALTER TABLE booking.bookings DROP COLUMN fx_margin_percent, DROP COLUMN fx_rate_date, DROP COLUMN fx_rate, DROP COLUMN vendor_price, DROP COLUMN vendor_currency`,
    );
    await queryRunner.query(`ALTER TABLE booking.sandbox_card_refunds ALTER COLUMN amount TYPE numeric(14,2)`);
    await queryRunner.query(`ALTER TABLE booking.sandbox_card_charges ALTER COLUMN amount TYPE numeric(14,2)`);
    await queryRunner.query(`ALTER TABLE booking.bookings ALTER COLUMN price_chargeable TYPE numeric(14,2), ALTER COLUMN promo_discount TYPE numeric(14,2), ALTER COLUMN cancellation_penalty TYPE numeric(14,2)`);
  }
}
