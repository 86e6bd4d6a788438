import { MigrationInterface, QueryRunner } from 'typeorm';

export class CreatePromoCodes1763940000000 implements MigrationInterface {
  name = 'CreatePromoCodes1763940000000';

  async up(queryRunner: QueryRunner): Promise<void> {
    await queryRunner.query(`
      CREATE TABLE promo.codes (
        code        text PRIMARY KEY,
        kind        text NOT NULL CHECK (kind IN ('percent', 'amount')),
        value       numeric(14,2) NOT NULL CHECK (value > 0 AND (kind <> 'percent' OR value <= 100)),
        currency    char(3) NOT NULL,
        min_amount  numeric(14,2) CHECK (min_amount >= 0),
        max_uses    integer CHECK (max_uses > 0),
        -- Consumed atomically; the check makes overuse impossible even by a faulty writer.
        uses        integer NOT NULL DEFAULT 0 CHECK (uses >= 0 AND (max_uses IS NULL OR uses <= max_uses)),
        expires     date,
        created_at  timestamptz NOT NULL DEFAULT now()
      )`);
    await queryRunner.query(`
      CREATE TABLE promo.redemptions (
        code        text NOT NULL REFERENCES promo.codes(code),
        client_id   integer NOT NULL,
        booking_id  integer NOT NULL,
        discount    numeric(14,2) NOT NULL,
        created_at  timestamptz NOT NULL DEFAULT now(),
        PRIMARY KEY (client_id, booking_id)
      )`);
  }

  async down(queryRunner: QueryRunner): Promise<void> {
    await queryRunner.query(`DROP TABLE promo.redemptions`);
    await queryRunner.query(`DROP TABLE promo.codes`);
  }
}
