import { MigrationInterface, QueryRunner } from 'typeorm';

/** A validated rate with the price it was confirmed at, which book relies on until it expires. */
export class CreatePrebooks1763950000000 implements MigrationInterface {
  name = 'CreatePrebooks1763950000000';

  async up(queryRunner: QueryRunner): Promise<void> {
    await queryRunner.query(`
      CREATE TABLE rates.prebooks (
        id                     uuid PRIMARY KEY,
        client_id              integer NOT NULL,
        user_id                integer,
        sandbox                boolean NOT NULL,
        session_id             uuid,
        hotel_id               integer NOT NULL,
        rate_id                text NOT NULL,
        payment_method         text NOT NULL CHECK (payment_method IN ('account', 'credit_card')),
        offer                  jsonb NOT NULL,
        response               jsonb NOT NULL,
        price_chargeable       numeric(14,2) NOT NULL CHECK (price_chargeable >= 0),
        promo_code             text,
        discount               numeric(14,2) NOT NULL DEFAULT 0,
        expires_at             timestamptz NOT NULL,
        booking_id             integer,
        -- True while the booking made from this prebook is under way (is_booking_processing).
        booking_processing     boolean NOT NULL DEFAULT false,
        created_at             timestamptz NOT NULL DEFAULT now()
      )`);
    await queryRunner.query(
      `CREATE INDEX prebooks_by_rate ON rates.prebooks (client_id, hotel_id, rate_id, payment_method, created_at DESC)`,
    );
  }

  async down(queryRunner: QueryRunner): Promise<void> {
    await queryRunner.query(`DROP TABLE rates.prebooks`);
  }
}
