import { MigrationInterface, QueryRunner } from 'typeorm';

const STEPS = ['created', 'charging', 'funds_held', 'supplier_pending', 'supplier_booked', 'promo_redeemed', 'done', 'compensating', 'failed', 'cancelling', 'refunding', 'cancelled'];

/**
 * - A prebook backs at most one booking that has not failed (a unique index, so
 *   no interleaving of requests can book it twice). Bookings written before this
 *   rule that share a prebook are marked and left out of it.
 * - Cancellation becomes steps of the saga (cancelling → refunding → cancelled),
 *   recorded like the booking's, so the recovery loop finishes an interrupted one.
 * - A card payment's idempotency key is recorded before the card is charged.
 * - The sandbox card processor keeps its charges and refunds, as a real processor
 *   would on its side: recovery asks it what happened to a key.
 */
export class SingleUsePrebooksAndCancellationSaga1764100000000 implements MigrationInterface {
  name = 'SingleUsePrebooksAndCancellationSaga1764100000000';

  async up(queryRunner: QueryRunner): Promise<void> {
    await queryRunner.query(`ALTER TABLE booking.bookings ADD COLUMN payment_key text, ADD COLUMN legacy_prebook_reuse boolean NOT NULL DEFAULT false`);
    await queryRunner.query(`
      UPDATE booking.bookings b SET legacy_prebook_reuse = true
       WHERE b.status <> 'failed'
         AND EXISTS (SELECT 1 FROM booking.bookings o WHERE o.prebook_id = b.prebook_id AND o.status <> 'failed' AND o.id < b.id)`);
    await queryRunner.query(
      `CREATE UNIQUE INDEX bookings_one_per_prebook ON booking.bookings (prebook_id) WHERE status <> 'failed' AND NOT legacy_prebook_reuse`,
    );
    await queryRunner.query(`UPDATE booking.bookings SET step = 'cancelled' WHERE status = 'cancelled'`);
    await queryRunner.query(`ALTER TABLE booking.bookings ADD CONSTRAINT bookings_step CHECK (step IN (${STEPS.map((s) => `'${s}'`).join(', ')}))`);
    await queryRunner.query(`DROP INDEX booking.bookings_unfinished`);
    await queryRunner.query(`CREATE INDEX bookings_unfinished ON booking.bookings (lease_until) WHERE step NOT IN ('done', 'failed', 'cancelled')`);
    await queryRunner.query(`
      CREATE TABLE booking.sandbox_card_charges (
        payment_key  text PRIMARY KEY,
        -- NULL for a key closed before any charge: it can never charge afterwards.
        payment_id   text UNIQUE,
        amount       numeric(14,2) CHECK (amount > 0),
        created_at   timestamptz NOT NULL DEFAULT now()
      )`);
    await queryRunner.query(`
      CREATE TABLE booking.sandbox_card_refunds (
        refund_key   text PRIMARY KEY,
        payment_id   text NOT NULL REFERENCES booking.sandbox_card_charges(payment_id),
        amount       numeric(14,2) NOT NULL CHECK (amount > 0),
        created_at   timestamptz NOT NULL DEFAULT now()
      )`);
  }

  async down(queryRunner: QueryRunner): Promise<void> {
    await queryRunner.query(`DROP TABLE booking.sandbox_card_refunds`);
    await queryRunner.query(`DROP TABLE booking.sandbox_card_charges`);
    await queryRunner.query(`DROP INDEX booking.bookings_unfinished`);
    await queryRunner.query(`CREATE INDEX bookings_unfinished ON booking.bookings (lease_until) WHERE step NOT IN ('done', 'failed')`);
    await queryRunner.query(`ALTER TABLE booking.bookings DROP CONSTRAINT bookings_step`);
    await queryRunner.query(`UPDATE booking.bookings SET step = 'done' WHERE step = 'cancelled'`);
    await queryRunner.query(`DROP INDEX booking.bookings_one_per_prebook`);
    await queryRunner.query(`ALTER TABLE booking.bookings DROP COLUMN legacy_prebook_reuse, DROP COLUMN payment_key`);
  }
}
