import { MigrationInterface, QueryRunner } from 'typeorm';

/**
 * How many bookings each client has, by world, user (0: none) and status, kept by
 * triggers in the transaction of every insert, status change and delete of a booking,
 * whoever writes it. The list's `total` for a page filtered by nothing but the scope and
 * status is a sum over a few of these rows, not a count of every matching booking per
 * request (20 ms and more over 100,000 bookings, which capped a client's list at about
 * 25 pages a second whatever else was done).
 *
 * A counter row is locked from the statement that changes it to its transaction's
 * commit: bookings of one client, world, user and status commit one after the other
 * (about a millisecond each). A status change decrements and increments in key order, so
 * two changes never wait for each other in a cycle.
 */
export class BookingCounts1764620000000 implements MigrationInterface {
  name = 'BookingCounts1764620000000';

  async up(queryRunner: QueryRunner): Promise<void> {
    await queryRunner.query(`
      CREATE TABLE booking.booking_counts (
        client_id integer NOT NULL,
        sandbox   boolean NOT NULL,
        user_id   integer NOT NULL,
        status    text    NOT NULL,
        bookings  bigint  NOT NULL,
        PRIMARY KEY (client_id, sandbox, user_id, status)
      )`);
    // Applies a set of (key, delta), summed by key, in key order: concurrent transactions lock
    // counter rows in one order. (No CHECK on bookings: PostgreSQL checks the row an upsert
    // would insert before it finds the conflict, so a decrement would fail it.)
    await queryRunner.query(`
      CREATE FUNCTION booking.count_bookings(deltas jsonb) RETURNS void LANGUAGE sql AS $$
        INSERT INTO booking.booking_counts AS c (client_id, sandbox, user_id, status, bookings)
        SELECT d.client_id, d.sandbox, d.user_id, d.status, sum(d.delta)
          FROM jsonb_to_recordset(deltas) AS d(client_id integer, sandbox boolean, user_id integer, status text, delta bigint)
         GROUP BY 1, 2, 3, 4
        HAVING sum(d.delta) <> 0
         ORDER BY 1, 2, 3, 4
        ON CONFLICT (client_id, sandbox, user_id, status) DO UPDATE SET bookings = c.bookings + excluded.bookings
      $$`);
    // One function for both statement triggers: each names its transition table `changed`.
    await queryRunner.query(`
      CREATE FUNCTION booking.count_added_or_removed_bookings() RETURNS trigger LANGUAGE plpgsql AS $$
      BEGIN
        PERFORM booking.count_bookings(COALESCE((
          SELECT jsonb_agg(jsonb_build_object('client_id', client_id, 'sandbox', sandbox, 'user_id', user_id, 'status', status,
                                              'delta', CASE TG_OP WHEN 'INSERT' THEN n ELSE -n END))
            FROM (SELECT client_id, sandbox, COALESCE(user_id, 0) AS user_id, status, count(*) AS n FROM changed GROUP BY 1, 2, 3, 4) g), '[]'));
        RETURN NULL;
      END $$`);
    await queryRunner.query(`
      CREATE FUNCTION booking.count_changed_booking() RETURNS trigger LANGUAGE plpgsql AS $$
      BEGIN
        PERFORM booking.count_bookings(jsonb_build_array(
          jsonb_build_object('client_id', OLD.client_id, 'sandbox', OLD.sandbox, 'user_id', COALESCE(OLD.user_id, 0), 'status', OLD.status, 'delta', -1),
          jsonb_build_object('client_id', NEW.client_id, 'sandbox', NEW.sandbox, 'user_id', COALESCE(NEW.user_id, 0), 'status', NEW.status, 'delta', 1)));
        RETURN NULL;
      END $$`);
    // Inserts and deletes once per statement (a bulk load is one upsert per key); an update
    // only when it changes a counted column (a saga step that keeps the status costs nothing).
    await queryRunner.query(`LOCK TABLE booking.bookings IN SHARE ROW EXCLUSIVE MODE`);
    await queryRunner.query(
      `CREATE TRIGGER bookings_counted_on_insert AFTER INSERT ON booking.bookings REFERENCING NEW TABLE AS changed FOR EACH STATEMENT EXECUTE FUNCTION booking.count_added_or_removed_bookings()`,
    );
    await queryRunner.query(
      `CREATE TRIGGER bookings_counted_on_delete AFTER DELETE ON booking.bookings REFERENCING OLD TABLE AS changed FOR EACH STATEMENT EXECUTE FUNCTION booking.count_added_or_removed_bookings()`,
    );
    await queryRunner.query(`
      CREATE TRIGGER bookings_counted_on_change AFTER UPDATE OF client_id, sandbox, user_id, status ON booking.bookings FOR EACH ROW
        WHEN ((OLD.client_id, OLD.sandbox, OLD.user_id, OLD.status) IS DISTINCT FROM (NEW.client_id, NEW.sandbox, NEW.user_id, NEW.status))
        EXECUTE FUNCTION booking.count_changed_booking()`);
    // The bookings there are already, counted while the lock above keeps their writers out.
    await queryRunner.query(`
      INSERT INTO booking.booking_counts (client_id, sandbox, user_id, status, bookings)
      SELECT client_id, sandbox, COALESCE(user_id, 0), status, count(*) FROM booking.bookings GROUP BY 1, 2, 3, 4`);
  }

  async down(queryRunner: QueryRunner): Promise<void> {
    await queryRunner.query(`DROP TRIGGER bookings_counted_on_change ON booking.bookings`);
    await queryRunner.query(`DROP TRIGGER bookings_counted_on_delete ON booking.bookings`);
    await queryRunner.query(`DROP TRIGGER bookings_counted_on_insert ON booking.bookings`);
    await queryRunner.query(`DROP FUNCTION booking.count_changed_booking()`);
    await queryRunner.query(`DROP FUNCTION booking.count_added_or_removed_bookings()`);
    await queryRunner.query(`DROP FUNCTION booking.count_bookings(jsonb)`);
    await queryRunner.query(`DROP TABLE booking.booking_counts`);
  }
}
