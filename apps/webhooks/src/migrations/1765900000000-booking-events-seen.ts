import { MigrationInterface, QueryRunner } from 'typeorm';

/**
 * The booking events the webhooks service has seen (of clients with endpoints): a booking's
 * later event is sent once every earlier one has been seen, so one that a replica took and
 * died with (redelivered after WEBHOOK_ACK_WAIT_S) is not overtaken. The events of bookings
 * with deliveries so far count as seen, up to the latest of each: they were read before
 * this table was.
 */
export class BookingEventsSeen1765900000000 implements MigrationInterface {
  name = 'BookingEventsSeen1765900000000';

  async up(queryRunner: QueryRunner): Promise<void> {
    await queryRunner.query(`
      CREATE TABLE webhooks.booking_events_seen (
        booking_id  integer NOT NULL,
        sequence    integer NOT NULL,
        seen_at     timestamptz NOT NULL DEFAULT now(),
        PRIMARY KEY (booking_id, sequence)
      )`);
    await queryRunner.query(`CREATE INDEX booking_events_seen_by_time ON webhooks.booking_events_seen (seen_at)`);
    await queryRunner.query(`
      INSERT INTO webhooks.booking_events_seen (booking_id, sequence)
      SELECT booking_id, generate_series(1, max(sequence)) FROM webhooks.deliveries
       WHERE booking_id IS NOT NULL AND sequence IS NOT NULL GROUP BY booking_id
      ON CONFLICT DO NOTHING`);
  }

  async down(queryRunner: QueryRunner): Promise<void> {
    await queryRunner.query(`DROP TABLE webhooks.booking_events_seen`);
  }
}
