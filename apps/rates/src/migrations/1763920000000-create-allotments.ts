import { MigrationInterface, QueryRunner } from 'typeorm';

/**
 * Rooms sold per vendor, hotel, room type and night. A row appears with the
 * first booking of that night; its capacity is the vendor's allotment.
 */
export class CreateAllotments1763920000000 implements MigrationInterface {
  name = 'CreateAllotments1763920000000';

  async up(queryRunner: QueryRunner): Promise<void> {
    await queryRunner.query(`
      CREATE TABLE rates.allotments (
        vendor       text NOT NULL,
        hotel_id     integer NOT NULL,
        room_id      integer NOT NULL,
        night        date NOT NULL,
        capacity     integer NOT NULL CHECK (capacity >= 0),
        rooms_sold   integer NOT NULL DEFAULT 0 CHECK (rooms_sold >= 0 AND rooms_sold <= capacity),
        PRIMARY KEY (hotel_id, night, vendor, room_id)
      )`);
  }

  async down(queryRunner: QueryRunner): Promise<void> {
    await queryRunner.query(`DROP TABLE rates.allotments`);
  }
}
