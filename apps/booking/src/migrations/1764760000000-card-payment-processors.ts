import { MigrationInterface, QueryRunner } from 'typeorm';

/**
 * More than one card processor (the built-in sandbox, Stripe):
 * - a booking records the processor that holds its card payment when it records
 *   the payment's key, so its refunds go there whatever the configuration says
 *   later. Card payments so far were all the sandbox's.
 * - the installation: one row with a random id, made once per database. It
 *   prefixes the idempotency keys sent to a processor (they are per booking id, and
 *   booking ids restart in another installation or a recreated database), so two
 *   installations sharing a Stripe account never meet each other's keys.
 */
export class CardPaymentProcessors1764760000000 implements MigrationInterface {
  name = 'CardPaymentProcessors1764760000000';

  async up(queryRunner: QueryRunner): Promise<void> {
    await queryRunner.query(`ALTER TABLE booking.bookings ADD COLUMN payment_processor text CHECK (payment_processor IN ('sandbox', 'stripe'))`);
    await queryRunner.query(`UPDATE booking.bookings SET payment_processor = 'sandbox' WHERE payment_key IS NOT NULL`);
    await queryRunner.query(`
      CREATE TABLE booking.installation (
        id         uuid        PRIMARY KEY DEFAULT gen_random_uuid(),
        singleton  boolean     NOT NULL DEFAULT true UNIQUE CHECK (singleton),
        created_at timestamptz NOT NULL DEFAULT now()
      )`);
    await queryRunner.query(`INSERT INTO booking.installation DEFAULT VALUES`);
  }

  async down(queryRunner: QueryRunner): Promise<void> {
    await queryRunner.query(`DROP TABLE booking.installation`);
    await queryRunner.query(`ALTER TABLE booking.bookings DROP COLUMN payment_processor`);
  }
}
