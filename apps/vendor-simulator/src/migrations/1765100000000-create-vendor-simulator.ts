import { MigrationInterface, QueryRunner } from 'typeorm';

/**
 * What the simulated vendors own, as a real vendor does: their allotments (rooms sold per
 * room type and night, never above capacity) and the bookings made with them, each
 * booking's rooms beside it. Reference numbers come from one sequence.
 */
export class CreateVendorSimulator1765100000000 implements MigrationInterface {
  name = 'CreateVendorSimulator1765100000000';

  async up(queryRunner: QueryRunner): Promise<void> {
    await queryRunner.query(`
      CREATE TABLE vendor_simulator.allotments (
        vendor      text NOT NULL,
        hotel_code  integer NOT NULL,
        room_id     integer NOT NULL,
        night       date NOT NULL,
        capacity    integer NOT NULL CHECK (capacity >= 0),
        rooms_sold  integer NOT NULL DEFAULT 0 CHECK (rooms_sold >= 0 AND rooms_sold <= capacity),
        PRIMARY KEY (vendor, hotel_code, room_id, night)
      )`);
    await queryRunner.query(`CREATE SEQUENCE vendor_simulator.booking_numbers START 1000001`);
    await queryRunner.query(`
      CREATE TABLE vendor_simulator.bookings (
        reference            text PRIMARY KEY,
        vendor               text NOT NULL,
        client_reference     text NOT NULL,
        rooms_fingerprint    text NOT NULL,
        status               text NOT NULL CHECK (status IN ('PRECONFIRMED', 'CONFIRMED', 'CANCELLED')),
        hotel_code           integer NOT NULL,
        country_code         text NOT NULL,
        destination_code     text NOT NULL,
        check_in             date NOT NULL,
        check_out            date NOT NULL,
        holder_name          text NOT NULL,
        holder_surname       text NOT NULL,
        remark               text,
        currency             text NOT NULL,
        payment_type         text NOT NULL CHECK (payment_type IN ('AT_WEB', 'AT_HOTEL')),
        total_net            numeric(14, 2) NOT NULL CHECK (total_net >= 0),
        cancellation_amount  numeric(14, 2) CHECK (cancellation_amount >= 0),
        creation_user        text NOT NULL,
        created_at           timestamptz NOT NULL,
        modified_at          timestamptz NOT NULL,
        confirm_after        timestamptz,
        cancelled_at         timestamptz,
        CHECK (check_out > check_in),
        CHECK ((status = 'CANCELLED') = (cancelled_at IS NOT NULL AND cancellation_amount IS NOT NULL))
      )`);
    // The vendor's de-duplication: one live booking per client reference and rooms.
    await queryRunner.query(`CREATE UNIQUE INDEX bookings_live_once ON vendor_simulator.bookings (vendor, client_reference, rooms_fingerprint) WHERE status <> 'CANCELLED'`);
    await queryRunner.query(`CREATE INDEX bookings_by_creation ON vendor_simulator.bookings (vendor, created_at)`);
    await queryRunner.query(`CREATE INDEX bookings_by_check_in ON vendor_simulator.bookings (vendor, check_in)`);
    await queryRunner.query(`
      CREATE TABLE vendor_simulator.booking_rooms (
        reference              text NOT NULL REFERENCES vendor_simulator.bookings (reference),
        room_number            integer NOT NULL CHECK (room_number > 0),
        room_id                integer NOT NULL,
        board                  text NOT NULL,
        refundable             boolean NOT NULL,
        member_rate            boolean NOT NULL,
        rooms                  integer NOT NULL CHECK (rooms > 0),
        adults                 integer NOT NULL CHECK (adults > 0),
        children               integer NOT NULL CHECK (children >= 0),
        children_ages          integer[] NOT NULL,
        net                    numeric(14, 2) NOT NULL CHECK (net >= 0),
        cancellation_policies  jsonb NOT NULL,
        paxes                  jsonb NOT NULL,
        rate_key               text NOT NULL,
        PRIMARY KEY (reference, room_number)
      )`);
  }

  async down(queryRunner: QueryRunner): Promise<void> {
    await queryRunner.query(`DROP TABLE vendor_simulator.booking_rooms`);
    await queryRunner.query(`DROP TABLE vendor_simulator.bookings`);
    await queryRunner.query(`DROP SEQUENCE vendor_simulator.booking_numbers`);
    await queryRunner.query(`DROP TABLE vendor_simulator.allotments`);
  }
}
