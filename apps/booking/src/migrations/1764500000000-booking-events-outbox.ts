import { MigrationInterface, QueryRunner } from 'typeorm';

/**
 * The outbox of booking events: a row per status change, written in the
 * transaction of the change, published to JetStream by the relay and then marked
 * sent. `bookings.event_sequence` counts a booking's events (the UPDATE of a
 * status change increments it). The payload is the message's bytes (text, not
 * jsonb, which would reorder its keys). The partial index holds the unsent events
 * only: the relay's scan, and its "no earlier unsent event of this booking" check.
 */
export class BookingEventsOutbox1764500000000 implements MigrationInterface {
  name = 'BookingEventsOutbox1764500000000';

  async up(queryRunner: QueryRunner): Promise<void> {
    await queryRunner.query(`ALTER TABLE booking.bookings ADD COLUMN event_sequence integer NOT NULL DEFAULT 0`);
    await queryRunner.query(`
      CREATE TABLE booking.booking_events (
        id uuid PRIMARY KEY,
        booking_id integer NOT NULL REFERENCES booking.bookings (id),
        sequence integer NOT NULL,
        type text NOT NULL,
        client_id integer NOT NULL,
        payload text NOT NULL,
        created_at timestamptz NOT NULL DEFAULT now(),
        sent_at timestamptz,
        CONSTRAINT booking_events_per_booking UNIQUE (booking_id, sequence)
      )`);
    await queryRunner.query(`CREATE INDEX booking_events_unsent ON booking.booking_events (booking_id, sequence) WHERE sent_at IS NULL`);
  }

  async down(queryRunner: QueryRunner): Promise<void> {
    await queryRunner.query(`DROP TABLE booking.booking_events`);
    await queryRunner.query(`ALTER TABLE booking.bookings DROP COLUMN event_sequence`);
  }
}
