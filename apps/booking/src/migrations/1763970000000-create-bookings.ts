import { MigrationInterface, QueryRunner } from 'typeorm';

export class CreateBookings1763970000000 implements MigrationInterface {
  name = 'CreateBookings1763970000000';

  async up(queryRunner: QueryRunner): Promise<void> {
    // A booking and the state of its saga (step): every step is recorded before the
    // next starts, so after a crash the recovery loop finishes or undoes it.
    await queryRunner.query(`
      CREATE TABLE booking.bookings (
        id                     serial PRIMARY KEY,
        client_id              integer NOT NULL,
        user_id                integer,
        sandbox                boolean NOT NULL,
        status                 text NOT NULL CHECK (status IN ('pending', 'confirmed', 'failed', 'cancelled')),
        step                   text NOT NULL,
        lease_until            timestamptz NOT NULL DEFAULT now(),
        prebook_id             uuid NOT NULL,
        offer                  jsonb NOT NULL,
        payment_method         text NOT NULL CHECK (payment_method IN ('account', 'credit_card')),
        hotel_id               integer NOT NULL,
        hotel_name             text NOT NULL,
        check_in               date NOT NULL,
        check_out              date NOT NULL,
        first_name             text NOT NULL,
        last_name              text NOT NULL,
        email                  text NOT NULL,
        phone                  text NOT NULL,
        price_chargeable       numeric(14,2) NOT NULL CHECK (price_chargeable >= 0),
        price_currency         char(3) NOT NULL,
        rate                   jsonb NOT NULL,
        hotel                  jsonb NOT NULL,
        rooms                  jsonb NOT NULL,
        language               text NOT NULL,
        loyalty_number         text,
        special_request        text,
        remarks                text NOT NULL,
        client_reference       text,
        idempotency_key        text,
        idempotency_expires_at timestamptz,
        request_fingerprint    text NOT NULL,
        promo_code             text,
        promo_discount         numeric(14,2) NOT NULL DEFAULT 0,
        test_scenario          text,
        cc_payment_id          text,
        supplier_reference     text,
        booking_reference      text[] NOT NULL DEFAULT '{}',
        failure_code           text,
        failure_reason         text,
        cancellation_reference text,
        cancellation_penalty   numeric(14,2),
        cancelled_at           timestamptz,
        created_at             timestamptz NOT NULL DEFAULT now(),
        updated_at             timestamptz NOT NULL DEFAULT now()
      )`);
    await queryRunner.query(`CREATE UNIQUE INDEX bookings_client_reference ON booking.bookings (client_id, client_reference) WHERE client_reference IS NOT NULL`);
    await queryRunner.query(`CREATE UNIQUE INDEX bookings_idempotency_key ON booking.bookings (client_id, idempotency_key) WHERE idempotency_key IS NOT NULL`);
    await queryRunner.query(`CREATE INDEX bookings_by_client_created ON booking.bookings (client_id, created_at DESC, id DESC)`);
    await queryRunner.query(`CREATE INDEX bookings_unfinished ON booking.bookings (lease_until) WHERE step NOT IN ('done', 'failed')`);
  }

  async down(queryRunner: QueryRunner): Promise<void> {
    await queryRunner.query(`DROP TABLE booking.bookings`);
  }
}
