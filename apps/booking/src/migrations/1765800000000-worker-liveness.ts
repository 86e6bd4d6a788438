import { MigrationInterface, QueryRunner } from 'typeorm';

/**
 * Which worker holds a saga's lease (lease_holder), and which workers are alive
 * (booking.workers, a heartbeat each): a saga whose holder is gone is taken over
 * without waiting for its lease to run out. A lease with no holder (taken by a release
 * before this one, or a booking waiting for its supplier's next check) runs out as before.
 */
export class WorkerLiveness1765800000000 implements MigrationInterface {
  name = 'WorkerLiveness1765800000000';

  async up(queryRunner: QueryRunner): Promise<void> {
    await queryRunner.query(`CREATE TABLE booking.workers (instance text PRIMARY KEY, alive_until timestamptz NOT NULL)`);
    await queryRunner.query(`ALTER TABLE booking.bookings ADD COLUMN lease_holder text`);
  }

  async down(queryRunner: QueryRunner): Promise<void> {
    await queryRunner.query(`ALTER TABLE booking.bookings DROP COLUMN lease_holder`);
    await queryRunner.query(`DROP TABLE booking.workers`);
  }
}
